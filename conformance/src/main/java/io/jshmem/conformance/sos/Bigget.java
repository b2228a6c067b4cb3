package io.jshmem.conformance.sos;

import java.util.List;

/** {@link BigCase} with {@code get} from the right neighbour. */
public final class Bigget extends BigCase
{
    /** Creates the program. */
    public Bigget()
    {
        super(false);
    }

    @Override
    public String follows()
    {
        return "tests-sos test/unit/bigget.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_get", "shmem_malloc");
    }
}
