package io.jshmem.conformance.sos;

/** {@link SyncCase} as {@code cxx_test_shmem_test.cpp} runs it. */
public final class CxxTestShmemTest extends SyncCase
{
    /** Creates the program. */
    public CxxTestShmemTest()
    {
        super("cxx_test_shmem_test.cpp", Form.TEST);
    }
}
