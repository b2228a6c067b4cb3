package io.jshmem.conformance.sos;

/** {@link SetCase}, as {@code cxx_test_shmem_atomic_set.cpp} runs it. */
public final class CxxTestShmemAtomicSet extends SetCase
{
    /** Creates the program. */
    public CxxTestShmemAtomicSet()
    {
        super("cxx_test_shmem_atomic_set.cpp");
    }
}
