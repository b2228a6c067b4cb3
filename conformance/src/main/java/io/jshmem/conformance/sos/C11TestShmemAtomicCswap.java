package io.jshmem.conformance.sos;

/** {@link CswapCase}, as {@code c11_test_shmem_atomic_cswap.c} runs it. */
public final class C11TestShmemAtomicCswap extends CswapCase
{
    /** Creates the program. */
    public C11TestShmemAtomicCswap()
    {
        super("c11_test_shmem_atomic_cswap.c");
    }
}
