package io.jshmem.conformance.sos;

/** {@link FetchCase}, as {@code c11_test_shmem_atomic_fetch.c} runs it. */
public final class C11TestShmemAtomicFetch extends FetchCase
{
    /** Creates the program. */
    public C11TestShmemAtomicFetch()
    {
        super("c11_test_shmem_atomic_fetch.c");
    }
}
