package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

import java.util.List;

/** Max reduction of 3 longs over WORLD, element i of PE p being p + i: the result is nPes - 1 + i. */
public final class MaxReduction extends CollProgram
{
    public MaxReduction()
    {
        super("tests-sos test/unit/max_reduction.c", List.of("shmem_max_reduce"), forced("REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        BigReduction.maxReduce(shmem, check, 3);
    }
}
