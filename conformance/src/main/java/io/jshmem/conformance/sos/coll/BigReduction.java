package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/** Max reduction of 128 longs over WORLD, element i of PE p being p + i: the result is nPes - 1 + i. */
public final class BigReduction extends CollProgram
{
    static final int N = 128;

    public BigReduction()
    {
        super("tests-sos test/unit/big_reduction.c", List.of("shmem_max_reduce"), forced("REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        maxReduce(shmem, check, N);
    }

    static void maxReduce(final Shmem shmem, final Check check, final int n)
    {
        final SymmetricLongs src = shmem.allocateLongs(n);
        final SymmetricLongs dst = shmem.allocateLongs(n);
        for (int i = 0; i < n; i++)
        {
            src.setLocal(i, shmem.myPe() + i);
        }
        shmem.barrierAll();
        shmem.teamWorld().reduce(ReduceOp.MAX, dst, src, n);
        for (int i = 0; i < n; i++)
        {
            check.eq("max_reduce", "longs", i, shmem.nPes() - 1 + i, dst.getLocal(i));
        }
        shmem.free(dst);
        shmem.free(src);
    }
}
