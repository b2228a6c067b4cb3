package io.jshmem.conformance.sos;

/** {@link RmaCase} as {@code c11_test_shmem_g.c} runs it. */
public final class C11TestShmemG extends RmaCase
{
    /** Creates the program. */
    public C11TestShmemG()
    {
        super("c11_test_shmem_g.c", Op.G);
    }
}
