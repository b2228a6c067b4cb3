package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * The C++ typed reductions over WORLD on nPes elements of value 1: and, or and xor on the integer types and raw memory (expected 1, 1, nPes mod 2). C++'s
 * typed names fold onto the Java element types as in {@link C11ShmemTeamReduce}.
 */
public final class CxxTestShmemBitwiseReduce extends CollProgram
{
    public CxxTestShmemBitwiseReduce()
    {
        super("tests-sos test/unit/cxx_test_shmem_bitwise_reduce.cpp", List.of("shmem_and_reduce", "shmem_or_reduce", "shmem_xor_reduce"), forced("REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        C11ShmemTeamReduce.allOnes(shmem, check, ReduceOp.AND, ReduceOp.OR, ReduceOp.XOR);
    }
}
