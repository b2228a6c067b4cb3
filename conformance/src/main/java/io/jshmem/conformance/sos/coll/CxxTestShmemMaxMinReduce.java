package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * The C++ typed reductions over WORLD on nPes elements of value 1: max and min on every numeric type (expected 1). C++'s
 * typed names fold onto the Java element types as in {@link C11ShmemTeamReduce}.
 */
public final class CxxTestShmemMaxMinReduce extends CollProgram
{
    public CxxTestShmemMaxMinReduce()
    {
        super("tests-sos test/unit/cxx_test_shmem_max_min_reduce.cpp", List.of("shmem_max_reduce", "shmem_min_reduce"), forced("REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        C11ShmemTeamReduce.allOnes(shmem, check, ReduceOp.MAX, ReduceOp.MIN);
    }
}
