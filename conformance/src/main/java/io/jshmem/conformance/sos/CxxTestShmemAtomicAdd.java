package io.jshmem.conformance.sos;

/** {@link AddCase}, as {@code cxx_test_shmem_atomic_add.cpp} runs it. */
public final class CxxTestShmemAtomicAdd extends AddCase
{
    /** Creates the program. */
    public CxxTestShmemAtomicAdd()
    {
        super("cxx_test_shmem_atomic_add.cpp");
    }
}
