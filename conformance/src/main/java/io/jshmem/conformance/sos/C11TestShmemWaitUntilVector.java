package io.jshmem.conformance.sos;

/** {@link SyncCase} as {@code c11_test_shmem_wait_until_vector.c} runs it. */
public final class C11TestShmemWaitUntilVector extends SyncCase
{
    /** Creates the program. */
    public C11TestShmemWaitUntilVector()
    {
        super("c11_test_shmem_wait_until_vector.c", Form.WAIT_UNTIL_ALL_VECTOR, Form.WAIT_UNTIL_ANY_VECTOR, Form.WAIT_UNTIL_SOME_VECTOR);
    }
}
