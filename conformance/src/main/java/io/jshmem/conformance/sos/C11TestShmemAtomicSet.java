package io.jshmem.conformance.sos;

/** {@link SetCase}, as {@code c11_test_shmem_atomic_set.c} runs it. */
public final class C11TestShmemAtomicSet extends SetCase
{
    /** Creates the program. */
    public C11TestShmemAtomicSet()
    {
        super("c11_test_shmem_atomic_set.c");
    }
}
