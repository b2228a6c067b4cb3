package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.Team;
import io.jshmem.TeamExhaustedException;
import io.jshmem.conformance.Check;

import java.util.ArrayList;
import java.util.List;

/**
 * Creates up to 64 teams (sizes 1..nPes in turn, every PE a member of the first) until team creation
 * fails, then frees the oldest team and retries, as the original does. Creation must fail on every PE
 * alike (a sum reduction of the per-PE failure flags is 0 or nPes); after freeing a team the retry
 * must succeed; at the end every team is destroyed and a new one can be made.
 */
public final class ShmemTeamMax extends CollProgram
{
    private static final int NUM_TEAMS = 64;

    public ShmemTeamMax()
    {
        super("tests-sos test/unit/shmem_team_max.c", List.of("shmem_team_split_strided", "shmem_team_destroy", "shmem_sync",
            "shmem_sum_reduce"), List.of(java.util.Map.of()));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final SymmetricInts ret = shmem.allocateInts(1);
        final SymmetricInts destRet = shmem.allocateInts(1);
        final List<Team> teams = new ArrayList<>();
        int freed = 0;
        int failures = 0;
        for (int i = 0; i < NUM_TEAMS; )
        {
            Team t = null;
            try
            {
                t = shmem.teamWorld().splitStrided(0, 1, 1 + i % n);
                ret.setLocal(0, 0);
            }
            catch (final TeamExhaustedException e)
            {
                ret.setLocal(0, 1);
            }
            shmem.teamWorld().sync();
            shmem.teamWorld().reduce(ReduceOp.SUM, destRet, ret, 1);
            final int failed = destRet.getLocal(0);
            check.isTrue(failed == 0 || failed == n, "team_split_strided", "creation failed on " + failed + " of " + n + " PEs");
            if (failed != 0)
            {
                failures++;
                if (freed == teams.size())
                {
                    check.fail("team_split_strided", "no team can be created although none is live");
                    break;
                }
                teams.get(freed).close();
                freed++;
            }
            else
            {
                teams.add(t);
                i++;
            }
        }
        if (shmem.myPe() == 0)
        {
            System.out.println("  ShmemTeamMax: " + teams.size() + " teams created, " + failures + " creations refused");
        }
        for (int j = freed; j < teams.size(); j++)
        {
            teams.get(j).close();
        }
        final Team again = shmem.teamWorld().splitStrided(0, 1, n);
        check.isTrue(again.isValid(), "team_split_strided", "a team after destroying them all");
        again.close();
        shmem.free(destRet);
        shmem.free(ret);
    }
}
