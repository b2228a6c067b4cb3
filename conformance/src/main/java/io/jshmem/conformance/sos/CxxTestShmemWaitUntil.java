package io.jshmem.conformance.sos;

/** {@link SyncCase} as {@code cxx_test_shmem_wait_until.cpp} runs it. */
public final class CxxTestShmemWaitUntil extends SyncCase
{
    /** Creates the program. */
    public CxxTestShmemWaitUntil()
    {
        super("cxx_test_shmem_wait_until.cpp", Form.WAIT_UNTIL);
    }
}
