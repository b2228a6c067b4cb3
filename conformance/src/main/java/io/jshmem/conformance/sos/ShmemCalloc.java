package io.jshmem.conformance.sos;

/** {@link AllocCase} with {@code calloc}. */
public final class ShmemCalloc extends AllocCase
{
    /** Creates the program. */
    public ShmemCalloc()
    {
        super(true);
    }

    @Override
    public String follows()
    {
        return "tests-sos test/unit/shmem_calloc.c";
    }
}
