package io.jshmem.conformance.sos;

/** {@link RmaCase} as {@code cxx_test_shmem_g.cpp} runs it. */
public final class CxxTestShmemG extends RmaCase
{
    /** Creates the program. */
    public CxxTestShmemG()
    {
        super("cxx_test_shmem_g.cpp", Op.G);
    }
}
