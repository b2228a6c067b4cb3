package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Exclusive sum scan (shmemx in SOS, standard in 1.6) of 10 longs over WORLD, element i of PE p being
 * p + i: PE me's element i is the sum over PEs 0..me-1 (zero on PE 0). Also over the odd PEs in
 * decreasing order, as {@link InScan}.
 */
public final class ExScan extends CollProgram
{
    public ExScan()
    {
        super("tests-sos test/shmemx/ex_scan.c", List.of("shmem_sum_exscan"), forced("SCAN", SCAN));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        InScan.scan(shmem, check, shmem.teamWorld(), false, false);
        final int n = shmem.nPes();
        final Team odd = n > 1 ? shmem.teamWorld().splitStrided(n % 2 == 0 ? n - 1 : n - 2, -2, n / 2) : Team.INVALID;
        InScan.scan(shmem, check, odd, false, false);
        odd.close();
    }
}
