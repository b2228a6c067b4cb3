package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Broadcast in place (dest and source the same object) from PE 0: every PE, PE 0 included, must end
 * with PE 0's values.
 */
public final class BcastInPlace extends CollProgram
{
    private static final int NELEM = 10;

    public BcastInPlace()
    {
        super("tests-sos test/unit/bcast_in_place.c", List.of("shmem_broadcast"), forced("BROADCAST", BROADCAST));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricLongs src = shmem.allocateLongs(NELEM);
        for (int i = 0; i < NELEM; i++)
        {
            src.setLocal(i, shmem.myPe() + i);
        }
        shmem.barrierAll();
        shmem.teamWorld().broadcast(src, src, NELEM, 0);
        for (int j = 0; j < NELEM; j++)
        {
            check.eq("broadcast (in place)", "longs", j, j, src.getLocal(j));
        }
        shmem.free(src);
    }
}
