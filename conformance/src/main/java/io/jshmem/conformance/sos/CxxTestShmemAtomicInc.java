package io.jshmem.conformance.sos;

/** {@link IncCase}, as {@code cxx_test_shmem_atomic_inc.cpp} runs it. */
public final class CxxTestShmemAtomicInc extends IncCase
{
    /** Creates the program. */
    public CxxTestShmemAtomicInc()
    {
        super("cxx_test_shmem_atomic_inc.cpp");
    }
}
