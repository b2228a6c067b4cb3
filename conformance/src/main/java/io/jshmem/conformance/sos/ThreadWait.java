package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.ThreadLevel;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * One thread blocks in wait_until(NE 0) on a symmetric word while another thread of the same PE sets
 * it a second later (a plain store, then quiet); the waiter must wake.
 */
public final class ThreadWait implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/thread_wait.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_init_thread", "shmem_wait_until", "shmem_quiet");
    }

    @Override
    public ThreadLevel threadLevel()
    {
        return ThreadLevel.MULTIPLE;
    }

    @Override
    public void run(final Shmem shmem, final Check check) throws Exception
    {
        final SymmetricLongs var = shmem.allocateLongs(1);
        Threads.run(check, "shmem_wait_until", 2, tid ->
        {
            if (tid == 0)
            {
                var.waitUntil(0, Cmp.NE, 0);
            }
            else
            {
                Thread.sleep(1000);
                var.setLocal(0, 1);
                shmem.quiet();
            }
        });
        check.eq("shmem_wait_until", "longs", 0, 1, var.getLocal(0));
        shmem.barrierAll();
        shmem.free(var);
    }
}
