package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * A copy of WORLD, then nPes-1 times: split the current team without its first PE, destroy the
 * current team, continue with the new one (so team slots are released and reused). Each split must
 * succeed on the current team's members, give the expected membership and size, and translate its
 * PE 0 to the expected WORLD PE.
 */
public final class ShmemTeamReuseTeams extends CollProgram
{
    public ShmemTeamReuseTeams()
    {
        super("tests-sos test/unit/shmem_team_reuse_teams.c",
            "shmem_team_split_strided", "shmem_team_destroy", "shmem_team_n_pes", "shmem_team_translate_pe");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        Team old = shmem.teamWorld().splitStrided(0, 1, n);
        check.isTrue(old.isValid(), "team_split_strided", "copy of WORLD");
        for (int i = 1; i < n; i++)
        {
            Team next = Team.INVALID;
            if (old.isValid())
            {
                check.eq("team_translate_pe", "old team PE 1 in WORLD", i, old.translatePe(1, shmem.teamWorld()));
                next = old.splitStrided(1, 1, old.nPes() - 1);
            }
            check.eq("team_split_strided", "member of PEs " + i + "..", me >= i, next.isValid());
            if (next.isValid())
            {
                check.eq("team_n_pes", "size", n - i, next.nPes());
                check.eq("team_translate_pe", "PE 0 in WORLD", i, next.translatePe(0, shmem.teamWorld()));
            }
            old.close();
            old = next;
        }
        old.close();
    }
}
