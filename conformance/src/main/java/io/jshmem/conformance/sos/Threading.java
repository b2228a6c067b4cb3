package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.ThreadLevel;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * Eight threads per PE each own ten elements of a symmetric source and target (source = 1..80 on every
 * PE): each puts its source chunk into the next PE's target, then gets the previous PE's target chunk
 * into its source, then gets the next PE's source chunk into its target, with a barrier_all (called
 * by thread 0, between thread barriers) after each step; source and target then agree everywhere.
 */
public final class Threading implements Program
{
    private static final int THREADS = 8;
    private static final int ELEMS = 10;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/threading.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_init_thread", "shmem_put", "shmem_get", "shmem_barrier_all");
    }

    @Override
    public ThreadLevel threadLevel()
    {
        return ThreadLevel.MULTIPLE;
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check) throws Exception
    {
        final int n = shmem.nPes();
        final int next = (shmem.myPe() + 1) % n;
        final int prev = (shmem.myPe() + n - 1) % n;
        final SymmetricLongs source = shmem.allocateLongs(THREADS * ELEMS);
        final SymmetricLongs target = shmem.allocateLongs(THREADS * ELEMS);
        for (int i = 0; i < THREADS * ELEMS; i++)
        {
            source.setLocal(i, i + 1);
        }
        shmem.barrierAll();
        final CyclicBarrier bar = new CyclicBarrier(THREADS);
        Threads.run(check, "threading", THREADS, tid ->
        {
            final int off = tid * ELEMS;
            final long[] buf = new long[ELEMS];
            for (int i = 0; i < ELEMS; i++)
            {
                buf[i] = source.getLocal(off + i);
            }
            shmem.put(target, off, buf, 0, ELEMS, next);
            step(shmem, bar, tid);
            shmem.get(buf, 0, target, off, ELEMS, prev);
            for (int i = 0; i < ELEMS; i++)
            {
                source.setLocal(off + i, buf[i]);
            }
            step(shmem, bar, tid);
            shmem.get(buf, 0, source, off, ELEMS, next);
            for (int i = 0; i < ELEMS; i++)
            {
                target.setLocal(off + i, buf[i]);
            }
            step(shmem, bar, tid);
        });
        for (int i = 0; i < THREADS * ELEMS; i++)
        {
            check.eq("shmem_get", "longs source vs target", i, source.getLocal(i), target.getLocal(i));
            check.eq("shmem_put", "longs", i, i + 1, target.getLocal(i));
        }
        shmem.barrierAll();
        shmem.free(target);
        shmem.free(source);
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
