package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

import java.util.List;

/** Inclusive then exclusive sum scan in place (dest == source) of 10 longs over WORLD, element i of PE p being p + i. */
public final class ScanInPlace extends CollProgram
{
    public ScanInPlace()
    {
        super("tests-sos test/shmemx/scan_in_place.c", List.of("shmem_sum_inscan", "shmem_sum_exscan"), forced("SCAN", SCAN));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        InScan.scan(shmem, check, shmem.teamWorld(), true, true);
        InScan.scan(shmem, check, shmem.teamWorld(), false, true);
    }
}
