package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * A spin lock built from compare-swap on a word of PE 0, 40 rounds: every PE retries cswap(0 → me + 1)
 * until it wins, then releases with cswap(me + 1 → 0), which must fetch me + 1 (nobody else got in).
 * The port also counts the winners of each round on PE 0 (n per round).
 */
public final class TestLockCswap implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/test_lock_cswap.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_compare_swap", "shmem_atomic_inc");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricLongs lock = shmem.allocateLongs(2);
        for (int loop = 1; loop <= 40; loop++)
        {
            shmem.barrierAll();
            final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
            while (shmem.atomicCompareSwap(lock, 0, 0, me + 1, 0) != 0)
            {
                if (System.nanoTime() - deadline > 0)
                {
                    check.fatal("compare_swap lock never acquired");
                }
            }
            shmem.atomicInc(lock, 1, 0);
            check.eq("shmem_atomic_compare_swap", "longs unlock", loop, me + 1, shmem.atomicCompareSwap(lock, 0, me + 1, 0, 0));
            shmem.barrierAll();
            if (me == 0)
            {
                check.eq("shmem_atomic_inc", "longs winners", loop, (long)n * loop, lock.getLocal(1));
            }
        }
        shmem.barrierAll();
        shmem.free(lock);
    }
}
