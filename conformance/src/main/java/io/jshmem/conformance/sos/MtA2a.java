package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.ThreadLevel;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * Eight threads per PE, thread t owning element t of two symmetric int arrays: it adds me to element t
 * of every PE's dest, fences (thread 0, between thread barriers), increments element t of every PE's
 * flag and waits for its own flag to reach n; its dest must then be 0 + 1 + ... + (n − 1). After a
 * barrier each thread puts −1 into its element on the next PE, and after another reads it back from
 * every PE.
 */
public final class MtA2a implements Program
{
    private static final int T = 8;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/mt_a2a.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_init_thread", "shmem_atomic_add", "shmem_atomic_inc", "shmem_fence", "shmem_wait_until", "shmem_put",
            "shmem_get", "shmem_barrier_all");
    }

    @Override
    public ThreadLevel threadLevel()
    {
        return ThreadLevel.MULTIPLE;
    }

    @Override
    public void run(final Shmem shmem, final Check check) throws Exception
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricInts dest = shmem.allocateInts(T);
        final SymmetricInts flag = shmem.allocateInts(T);
        final CyclicBarrier bar = new CyclicBarrier(T);
        Threads.run(check, "mt_a2a", T, tid ->
        {
            for (int i = 1; i <= n; i++)
            {
                shmem.atomicAdd(dest, tid, me, (me + i) % n);
            }
            bar.await(30, TimeUnit.SECONDS);
            if (tid == 0)
            {
                shmem.fence();
            }
            bar.await(30, TimeUnit.SECONDS);
            for (int i = 1; i <= n; i++)
            {
                shmem.atomicInc(flag, tid, (me + i) % n);
            }
            flag.waitUntil(tid, Cmp.EQ, n);
            check.eq("shmem_atomic_add", "ints dest", tid, (n - 1) * n / 2, dest.getLocal(tid));
            check.eq("shmem_atomic_inc", "ints flag", tid, n, flag.getLocal(tid));
            step(shmem, bar, tid);
            shmem.put(dest, tid, new int[] {-1}, 0, 1, (me + 1) % n);
            step(shmem, bar, tid);
            final int[] val = new int[1];
            for (int i = 1; i <= n; i++)
            {
                shmem.get(val, 0, dest, tid, 1, (me + i) % n);
                check.eq("shmem_get", "ints from pe " + (me + i) % n, tid, -1, val[0]);
            }
            step(shmem, bar, tid);
        });
        shmem.free(flag);
        shmem.free(dest);
    }

    private static void step(final Shmem shmem, final CyclicBarrier bar, final int tid) throws Exception
    {
        bar.await(30, TimeUnit.SECONDS);
        if (tid == 0)
        {
            shmem.barrierAll();
        }
        bar.await(30, TimeUnit.SECONDS);
    }
}
