package io.jshmem.conformance.sos;

import java.util.List;

/** {@link BigCase} with {@code put} into the right neighbour. */
public final class Bigput extends BigCase
{
    /** Creates the program. */
    public Bigput()
    {
        super(true);
    }

    @Override
    public String follows()
    {
        return "tests-sos test/unit/bigput.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put", "shmem_malloc");
    }
}
