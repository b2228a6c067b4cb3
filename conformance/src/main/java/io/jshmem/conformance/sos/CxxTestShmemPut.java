package io.jshmem.conformance.sos;

/** {@link RmaCase} as {@code cxx_test_shmem_put.cpp} runs it. */
public final class CxxTestShmemPut extends RmaCase
{
    /** Creates the program. */
    public CxxTestShmemPut()
    {
        super("cxx_test_shmem_put.cpp", Op.PUT, Op.IPUT, Op.PUT_NBI);
    }
}
