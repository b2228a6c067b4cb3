package io.jshmem.conformance.sos;

/** {@link AndCase}, as {@code cxx_test_shmem_atomic_and.cpp} runs it. */
public final class CxxTestShmemAtomicAnd extends AndCase
{
    /** Creates the program. */
    public CxxTestShmemAtomicAnd()
    {
        super("cxx_test_shmem_atomic_and.cpp");
    }
}
