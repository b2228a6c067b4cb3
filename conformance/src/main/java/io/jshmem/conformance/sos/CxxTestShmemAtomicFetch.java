package io.jshmem.conformance.sos;

/** {@link FetchCase}, as {@code cxx_test_shmem_atomic_fetch.cpp} runs it. */
public final class CxxTestShmemAtomicFetch extends FetchCase
{
    /** Creates the program. */
    public CxxTestShmemAtomicFetch()
    {
        super("cxx_test_shmem_atomic_fetch.cpp");
    }
}
