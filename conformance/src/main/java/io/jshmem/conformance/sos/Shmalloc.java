package io.jshmem.conformance.sos;

/** {@link AllocCase} with {@code malloc}. */
public final class Shmalloc extends AllocCase
{
    /** Creates the program. */
    public Shmalloc()
    {
        super(false);
    }

    @Override
    public String follows()
    {
        return "tests-sos test/unit/shmalloc.c";
    }
}
