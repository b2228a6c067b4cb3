package io.jshmem.conformance.sos;

/** {@link CswapCase}, as {@code cxx_test_shmem_atomic_cswap.cpp} runs it. */
public final class CxxTestShmemAtomicCswap extends CswapCase
{
    /** Creates the program. */
    public CxxTestShmemAtomicCswap()
    {
        super("cxx_test_shmem_atomic_cswap.cpp");
    }
}
