package io.jshmem.conformance.sos;

/** {@link SyncCase} as {@code c11_test_shmem_wait_until.c} runs it. */
public final class C11TestShmemWaitUntil extends SyncCase
{
    /** Creates the program. */
    public C11TestShmemWaitUntil()
    {
        super("c11_test_shmem_wait_until.c", Form.WAIT_UNTIL);
    }
}
