package io.jshmem.conformance.sos;

/** {@link RmaCase} as {@code cxx_test_shmem_get.cpp} runs it. */
public final class CxxTestShmemGet extends RmaCase
{
    /** Creates the program. */
    public CxxTestShmemGet()
    {
        super("cxx_test_shmem_get.cpp", Op.GET, Op.IGET, Op.GET_NBI);
    }
}
