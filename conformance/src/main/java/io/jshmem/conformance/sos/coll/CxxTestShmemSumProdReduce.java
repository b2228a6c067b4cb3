package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * The C++ typed reductions over WORLD on nPes elements of value 1: sum and prod on every numeric type (expected nPes and 1). C++'s
 * typed names fold onto the Java element types as in {@link C11ShmemTeamReduce}.
 */
public final class CxxTestShmemSumProdReduce extends CollProgram
{
    public CxxTestShmemSumProdReduce()
    {
        super("tests-sos test/unit/cxx_test_shmem_sum_prod_reduce.cpp", List.of("shmem_sum_reduce", "shmem_prod_reduce"), forced("REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        C11ShmemTeamReduce.allOnes(shmem, check, ReduceOp.SUM, ReduceOp.PROD);
    }
}
