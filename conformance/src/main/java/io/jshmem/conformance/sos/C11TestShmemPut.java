package io.jshmem.conformance.sos;

/** {@link RmaCase} as {@code c11_test_shmem_put.c} runs it. */
public final class C11TestShmemPut extends RmaCase
{
    /** Creates the program. */
    public C11TestShmemPut()
    {
        super("c11_test_shmem_put.c", Op.PUT, Op.IPUT, Op.PUT_NBI);
    }
}
