package io.jshmem.conformance.sos;

/** {@link SyncCase} as {@code c11_shmem_wait_until_all_any_some.c} runs it. */
public final class C11ShmemWaitUntilAllAnySome extends SyncCase
{
    /** Creates the program. */
    public C11ShmemWaitUntilAllAnySome()
    {
        super("c11_shmem_wait_until_all_any_some.c", Form.WAIT_UNTIL_ALL, Form.WAIT_UNTIL_ANY, Form.WAIT_UNTIL_SOME);
    }
}
