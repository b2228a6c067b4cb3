package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Inclusive sum scan (shmemx in SOS, standard in 1.6) of 10 longs over WORLD, element i of PE p being
 * p + i: PE me's element i is the sum over PEs 0..me. The port also runs it on the odd PEs' team
 * listed in decreasing order (the scan follows team order, not WORLD order).
 */
public final class InScan extends CollProgram
{
    static final int NELEM = 10;

    public InScan()
    {
        super("tests-sos test/shmemx/in_scan.c", List.of("shmem_sum_inscan"), forced("SCAN", SCAN));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        scan(shmem, check, shmem.teamWorld(), true, false);
        final int n = shmem.nPes();
        final Team odd = n > 1 ? shmem.teamWorld().splitStrided(n % 2 == 0 ? n - 1 : n - 2, -2, n / 2) : Team.INVALID;
        scan(shmem, check, odd, true, false);
        odd.close();
    }

    /**
     * Runs one scan of p + i (p the WORLD PE) over team, in place when asked. Called on every PE (the
     * allocations are WORLD collectives); PEs outside the team (INVALID) only allocate and free.
     */
    static void scan(final Shmem shmem, final Check check, final Team team, final boolean inclusive, final boolean inPlace)
    {
        final String routine = (inclusive ? "sum_inscan" : "sum_exscan") + (inPlace ? " (in place)" : "");
        check.section(routine + (team == shmem.teamWorld() ? " over WORLD" : " over the odd PEs in decreasing order"));
        final SymmetricLongs src = shmem.allocateLongs(NELEM);
        final SymmetricLongs dest = inPlace ? src : shmem.allocateLongs(NELEM);
        if (team.isValid())
        {
            final int me = team.myPe();
            for (int i = 0; i < NELEM; i++)
            {
                src.setLocal(i, team.worldPe(me) + i);
            }
            team.sync();
            if (inclusive)
            {
                team.sumInscan(dest, src, NELEM);
            }
            else
            {
                team.sumExscan(dest, src, NELEM);
            }
            for (int i = 0; i < NELEM; i++)
            {
                long expected = 0;
                for (int r = 0; r < (inclusive ? me + 1 : me); r++)
                {
                    expected += team.worldPe(r) + i;
                }
                check.eq(routine, "longs", i, expected, dest.getLocal(i));
            }
        }
        shmem.barrierAll();
        if (!inPlace)
        {
            shmem.free(dest);
        }
        shmem.free(src);
    }
}
