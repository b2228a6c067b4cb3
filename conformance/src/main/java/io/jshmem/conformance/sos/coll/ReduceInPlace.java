package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/** Max reduction in place (dest == source) of 10 longs holding the PE's number: every element becomes nPes - 1. */
public final class ReduceInPlace extends CollProgram
{
    private static final int NELEM = 10;

    public ReduceInPlace()
    {
        super("tests-sos test/unit/reduce_in_place.c", List.of("shmem_max_reduce"), forced("REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricLongs src = shmem.allocateLongs(NELEM);
        for (int i = 0; i < NELEM; i++)
        {
            src.setLocal(i, shmem.myPe());
        }
        shmem.barrierAll();
        shmem.teamWorld().reduce(ReduceOp.MAX, src, src, NELEM);
        for (int j = 0; j < NELEM; j++)
        {
            check.eq("max_reduce (in place)", "longs", j, shmem.nPes() - 1, src.getLocal(j));
        }
        shmem.free(src);
    }
}
