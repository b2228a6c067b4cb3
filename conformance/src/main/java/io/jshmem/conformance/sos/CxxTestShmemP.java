package io.jshmem.conformance.sos;

/** {@link RmaCase} as {@code cxx_test_shmem_p.cpp} runs it. */
public final class CxxTestShmemP extends RmaCase
{
    /** Creates the program. */
    public CxxTestShmemP()
    {
        super("cxx_test_shmem_p.cpp", Op.P);
    }
}
