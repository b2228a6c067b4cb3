package io.jshmem.conformance.sos;

/** {@link SwapCase}, as {@code cxx_test_shmem_atomic_swap.cpp} runs it. */
public final class CxxTestShmemAtomicSwap extends SwapCase
{
    /** Creates the program. */
    public CxxTestShmemAtomicSwap()
    {
        super("cxx_test_shmem_atomic_swap.cpp");
    }
}
