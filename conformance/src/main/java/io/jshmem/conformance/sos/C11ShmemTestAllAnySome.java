package io.jshmem.conformance.sos;

/** {@link SyncCase} as {@code c11_shmem_test_all_any_some.c} runs it. */
public final class C11ShmemTestAllAnySome extends SyncCase
{
    /** Creates the program. */
    public C11ShmemTestAllAnySome()
    {
        super("c11_shmem_test_all_any_some.c", Form.TEST_ALL, Form.TEST_ANY, Form.TEST_SOME);
    }
}
