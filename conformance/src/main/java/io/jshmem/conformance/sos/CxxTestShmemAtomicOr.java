package io.jshmem.conformance.sos;

/** {@link OrCase}, as {@code cxx_test_shmem_atomic_or.cpp} runs it. */
public final class CxxTestShmemAtomicOr extends OrCase
{
    /** Creates the program. */
    public CxxTestShmemAtomicOr()
    {
        super("cxx_test_shmem_atomic_or.cpp");
    }
}
