package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * For i = 0..nPes, the team of WORLD PEs i..nPes-1 (empty for i = nPes) runs 50 times quiet + team
 * sync (the original's replacement for the deprecated active-set barrier with a reused pSync); the
 * empty team (i = nPes) is an {@code IllegalArgumentException} on every PE, Java's form of C's
 * nonzero return with {@code SHMEM_TEAM_INVALID}. The
 * port checks what quiet + sync promises: before each round a member puts the round number to its
 * right neighbour in the team; after it, it must see its left neighbour's.
 */
public final class RepeatedBarriers extends CollProgram
{
    private static final int NREPS = 50;

    public RepeatedBarriers()
    {
        super("tests-sos test/unit/repeated_barriers.c", List.of("shmem_team_split_strided", "shmem_quiet", "shmem_sync"),
            forced("BARRIER", BARRIER));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final SymmetricLongs box = shmem.allocateLongs(2);
        shmem.barrierAll();
        for (int i = 0; i <= n; i++)
        {
            check.section("PEs " + i + ".." + (n - 1));
            if (i == n)
            {
                // the empty team: C returns nonzero and SHMEM_TEAM_INVALID; Java throws on every PE
                final int start = i;
                check.throwsOneOf("team_split_strided", "start=" + start + " stride=1 size=0",
                    () -> shmem.teamWorld().splitStrided(start, 1, 0), new String[] {"size"}, IllegalArgumentException.class);
                continue;
            }
            final Team team = shmem.teamWorld().splitStrided(i, 1, n - i);
            check.eq("team_split_strided", "member", shmem.myPe() >= i, team.isValid());
            if (team.isValid())
            {
                final int right = team.worldPe((team.myPe() + 1) % team.nPes());
                for (int j = 0; j < NREPS; j++)
                {
                    shmem.p(box, j % 2, 1000L * i + j, right);
                    shmem.quiet();
                    team.sync();
                    check.eq("sync", "longs", j, 1000L * i + j, box.getLocal(j % 2));
                    team.sync();
                }
            }
            team.close();
        }
        shmem.barrierAll();
        shmem.free(box);
    }
}
