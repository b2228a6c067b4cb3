package io.jshmem.conformance.sos;

/** {@link XorCase}, as {@code c11_test_shmem_atomic_xor.c} runs it. */
public final class C11TestShmemAtomicXor extends XorCase
{
    /** Creates the program. */
    public C11TestShmemAtomicXor()
    {
        super("c11_test_shmem_atomic_xor.c");
    }
}
