package io.jshmem.conformance.sos;

/** {@link OrCase}, as {@code c11_test_shmem_atomic_or.c} runs it. */
public final class C11TestShmemAtomicOr extends OrCase
{
    /** Creates the program. */
    public C11TestShmemAtomicOr()
    {
        super("c11_test_shmem_atomic_or.c");
    }
}
