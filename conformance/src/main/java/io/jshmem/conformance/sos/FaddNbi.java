package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Every PE adds 1 to every PE's counter, first with blocking fetch_add, then with fetch_add_nbi
 * completed by the barrier; each counter ends at n and every fetched value lies in [0, n).
 */
public final class FaddNbi implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/fadd_nbi.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_fetch_add", "shmem_atomic_fetch_add_nbi", "shmem_barrier_all");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final SymmetricLongs ctr = shmem.allocateLongs(1);
        final long[] out = new long[n];
        for (final boolean nbi : new boolean[] {false, true})
        {
            final String r = nbi ? "shmem_atomic_fetch_add_nbi" : "shmem_atomic_fetch_add";
            ctr.setLocal(0, 0);
            java.util.Arrays.fill(out, -1);
            shmem.barrierAll();
            for (int pe = 0; pe < n; pe++)
            {
                if (nbi)
                {
                    shmem.atomicFetchAddNbi(out, pe, ctr, 0, 1, pe);
                }
                else
                {
                    out[pe] = shmem.atomicFetchAdd(ctr, 0, 1, pe);
                }
            }
            shmem.barrierAll();
            check.eq(r, "longs counter", 0, n, ctr.getLocal(0));
            for (int pe = 0; pe < n; pe++)
            {
                check.isTrue(out[pe] >= 0 && out[pe] < n, r, "fetched " + out[pe] + " from pe " + pe);
            }
        }
        shmem.barrierAll();
        shmem.free(ctr);
    }
}
