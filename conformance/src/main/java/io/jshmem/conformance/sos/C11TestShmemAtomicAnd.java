package io.jshmem.conformance.sos;

/** {@link AndCase}, as {@code c11_test_shmem_atomic_and.c} runs it. */
public final class C11TestShmemAtomicAnd extends AndCase
{
    /** Creates the program. */
    public C11TestShmemAtomicAnd()
    {
        super("c11_test_shmem_atomic_and.c");
    }
}
