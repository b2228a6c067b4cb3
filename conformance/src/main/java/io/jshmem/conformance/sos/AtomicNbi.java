package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Non-blocking fetching atomics completed by quiet. Swap: every PE's target starts at its number; each
 * PE swaps its number into every PE's target until it has fetched, from each, a value of its own parity;
 * afterwards every target and fetched value is a PE number. Compare-swap: targets start at −1; each PE
 * compare-swaps (me − 1 → me) into every PE until every fetch returns me − 1, so the targets step
 * through −1, 0, ..., n − 1 and each ends at n − 1.
 */
public final class AtomicNbi implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/atomic_nbi.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_swap_nbi", "shmem_atomic_compare_swap_nbi", "shmem_quiet");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricLongs target = shmem.allocateLongs(1);
        final long[] result = new long[n];
        target.setLocal(0, me);
        java.util.Arrays.fill(result, -1);
        shmem.barrierAll();
        final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
        for (int done = 0; done < n; )
        {
            for (int pe = 0; pe < n; pe++)
            {
                shmem.atomicSwapNbi(result, pe, target, 0, me, pe);
            }
            shmem.quiet();
            for (int pe = 0; pe < n; pe++)
            {
                if (me % 2 == result[pe] % 2)
                {
                    done++;
                }
            }
            if (System.nanoTime() - deadline > 0)
            {
                check.fatal("swap_nbi loop made no progress in " + Check.AWAIT_TIMEOUT_NS / 1_000_000_000L + " s");
            }
        }
        shmem.barrierAll();
        check.isTrue(target.getLocal(0) >= 0 && target.getLocal(0) < n, "shmem_atomic_swap_nbi", "target " + target.getLocal(0));
        for (int pe = 0; pe < n; pe++)
        {
            check.isTrue(result[pe] >= 0 && result[pe] < n, "shmem_atomic_swap_nbi", "result[" + pe + "]=" + result[pe]);
        }
        target.setLocal(0, -1);
        java.util.Arrays.fill(result, n);
        shmem.barrierAll();
        while (true)
        {
            int done = 0;
            for (int pe = 0; pe < n; pe++)
            {
                if (result[pe] != me - 1)
                {
                    shmem.atomicCompareSwapNbi(result, pe, target, 0, me - 1, me, pe);
                }
            }
            shmem.quiet();
            for (int pe = 0; pe < n; pe++)
            {
                if (result[pe] == me - 1)
                {
                    done++;
                }
            }
            if (done == n)
            {
                break;
            }
            if (System.nanoTime() - deadline > Check.AWAIT_TIMEOUT_NS)
            {
                check.fatal("compare_swap_nbi loop made no progress");
            }
            Thread.onSpinWait();
        }
        shmem.barrierAll();
        check.eq("shmem_atomic_compare_swap_nbi", "longs target", 0, n - 1, target.getLocal(0));
        for (int pe = 0; pe < n; pe++)
        {
            check.eq("shmem_atomic_compare_swap_nbi", "longs result", pe, me - 1, result[pe]);
        }
        shmem.barrierAll();
        shmem.free(target);
    }
}
