package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.ThreadLevel;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Eight threads per PE: thread t adds t to the counter of every PE (starting with the next one) and
 * quiets; after sync_all every counter is n × (0 + 1 + ... + 7).
 */
public final class MtContention implements Program
{
    private static final int THREADS = 8;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/mt_contention.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_init_thread", "shmem_atomic_add", "shmem_quiet", "shmem_sync_all");
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
        final SymmetricInts dest = shmem.allocateInts(1);
        Threads.run(check, "shmem_atomic_add", THREADS, tid ->
        {
            for (int i = 1; i <= n; i++)
            {
                shmem.atomicAdd(dest, 0, tid, (me + i) % n);
            }
            shmem.quiet();
        });
        shmem.syncAll();
        check.eq("shmem_atomic_add", "ints", 0, (THREADS - 1) * THREADS / 2 * n, dest.getLocal(0));
        shmem.barrierAll();
        shmem.free(dest);
    }
}
