package io.jshmem.conformance.sos;

/** {@link AddCase}, as {@code c11_test_shmem_atomic_add.c} runs it. */
public final class C11TestShmemAtomicAdd extends AddCase
{
    /** Creates the program. */
    public C11TestShmemAtomicAdd()
    {
        super("c11_test_shmem_atomic_add.c");
    }
}
