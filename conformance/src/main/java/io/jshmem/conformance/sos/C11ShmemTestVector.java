package io.jshmem.conformance.sos;

/** {@link SyncCase} as {@code c11_shmem_test_vector.c} runs it. */
public final class C11ShmemTestVector extends SyncCase
{
    /** Creates the program. */
    public C11ShmemTestVector()
    {
        super("c11_shmem_test_vector.c", Form.TEST_ALL_VECTOR, Form.TEST_ANY_VECTOR, Form.TEST_SOME_VECTOR);
    }
}
