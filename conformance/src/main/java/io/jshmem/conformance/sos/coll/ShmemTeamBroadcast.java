package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/** The spec's broadcast example: PE 0's source 0, 1, 2, 3 broadcast over WORLD; every PE, PE 0 included, prints and checks dest. */
public final class ShmemTeamBroadcast extends CollProgram
{
    public ShmemTeamBroadcast()
    {
        super("tests-sos test/spec-example/shmem_team_broadcast.c", List.of("shmem_broadcast"), forced("BROADCAST", BROADCAST));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricLongs source = shmem.allocateLongs(4);
        final SymmetricLongs dest = shmem.allocateLongs(4);
        if (shmem.myPe() == 0)
        {
            for (int i = 0; i < 4; i++)
            {
                source.setLocal(i, i);
            }
        }
        shmem.teamWorld().broadcast(dest, source, 4, 0);
        for (int i = 0; i < 4; i++)
        {
            check.eq("broadcast", "longs", i, i, dest.getLocal(i));
        }
        shmem.free(dest);
        shmem.free(source);
    }
}
