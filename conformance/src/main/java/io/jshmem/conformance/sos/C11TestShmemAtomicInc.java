package io.jshmem.conformance.sos;

/** {@link IncCase}, as {@code c11_test_shmem_atomic_inc.c} runs it. */
public final class C11TestShmemAtomicInc extends IncCase
{
    /** Creates the program. */
    public C11TestShmemAtomicInc()
    {
        super("c11_test_shmem_atomic_inc.c");
    }
}
