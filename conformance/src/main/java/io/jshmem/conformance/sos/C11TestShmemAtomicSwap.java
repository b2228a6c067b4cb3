package io.jshmem.conformance.sos;

/** {@link SwapCase}, as {@code c11_test_shmem_atomic_swap.c} runs it. */
public final class C11TestShmemAtomicSwap extends SwapCase
{
    /** Creates the program. */
    public C11TestShmemAtomicSwap()
    {
        super("c11_test_shmem_atomic_swap.c");
    }
}
