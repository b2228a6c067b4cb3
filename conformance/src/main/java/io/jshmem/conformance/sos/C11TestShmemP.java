package io.jshmem.conformance.sos;

/** {@link RmaCase} as {@code c11_test_shmem_p.c} runs it. */
public final class C11TestShmemP extends RmaCase
{
    /** Creates the program. */
    public C11TestShmemP()
    {
        super("c11_test_shmem_p.c", Op.P);
    }
}
