package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Broadcast over shrinking teams and changing roots (the original's replacement for the deprecated
 * active-set broadcast): for i = 0..nPes-1 the team of WORLD PEs i..nPes-1 broadcasts from its PE 0
 * (WORLD PE i), and every member, the root included, must hold i; then WORLD broadcasts from every
 * root i in turn.
 */
public final class BroadcastActiveSet extends CollProgram
{
    private static final int NELEM = 10;

    public BroadcastActiveSet()
    {
        super("tests-sos test/unit/broadcast_active_set.c", List.of("shmem_broadcast", "shmem_team_split_strided"),
            forced("BROADCAST", BROADCAST));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricLongs src = shmem.allocateLongs(NELEM);
        final SymmetricLongs dst = shmem.allocateLongs(NELEM);
        for (int i = 0; i < NELEM; i++)
        {
            src.setLocal(i, me);
            dst.setLocal(i, -1);
        }
        shmem.barrierAll();
        for (int i = 0; i < n; i++)
        {
            check.section("team of PEs " + i + ".." + (n - 1));
            final Team team = shmem.teamWorld().splitStrided(i, 1, n - i);
            if (team.isValid())
            {
                team.broadcast(dst, src, NELEM, 0);
                validate(check, dst, i);
            }
            team.close();
            shmem.barrierAll();
        }
        for (int i = 0; i < NELEM; i++)
        {
            dst.setLocal(i, -1);
        }
        shmem.barrierAll();
        for (int i = 0; i < n; i++)
        {
            check.section("WORLD root " + i);
            shmem.teamWorld().broadcast(dst, src, NELEM, i);
            validate(check, dst, i);
            shmem.barrierAll();
        }
        shmem.free(dst);
        shmem.free(src);
    }

    private static void validate(final Check check, final SymmetricLongs dst, final int expected)
    {
        for (int j = 0; j < NELEM; j++)
        {
            check.eq("broadcast", "longs", j, expected, dst.getLocal(j));
        }
    }
}
