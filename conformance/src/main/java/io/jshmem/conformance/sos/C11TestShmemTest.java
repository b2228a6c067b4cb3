package io.jshmem.conformance.sos;

/** {@link SyncCase} as {@code c11_test_shmem_test.c} runs it. */
public final class C11TestShmemTest extends SyncCase
{
    /** Creates the program. */
    public C11TestShmemTest()
    {
        super("c11_test_shmem_test.c", Form.TEST);
    }
}
