package io.jshmem.conformance.sos;

/** {@link RmaCase} as {@code c11_test_shmem_get.c} runs it. */
public final class C11TestShmemGet extends RmaCase
{
    /** Creates the program. */
    public C11TestShmemGet()
    {
        super("c11_test_shmem_get.c", Op.GET, Op.IGET, Op.GET_NBI);
    }
}
