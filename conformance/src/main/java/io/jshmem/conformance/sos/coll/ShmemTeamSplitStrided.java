package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

/**
 * The spec's split_strided example: the even PEs form a team; members have number pe / 2 and the team
 * has (nPes + 1) / 2 PEs; odd PEs get INVALID, whose my_pe and n_pes are -1.
 */
public final class ShmemTeamSplitStrided extends CollProgram
{
    public ShmemTeamSplitStrided()
    {
        super("tests-sos test/spec-example/shmem_team_split_strided.c", "shmem_team_split_strided", "shmem_team_my_pe",
            "shmem_team_n_pes", "shmem_team_destroy");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int rank = shmem.myPe();
        final int n = shmem.nPes();
        final Team team = shmem.teamWorld().splitStrided(0, 2, (n + 1) / 2);
        check.eq("team_split_strided", "member", rank % 2 == 0, team.isValid());
        check.eq("team_my_pe", "PE " + rank, rank % 2 == 0 ? rank / 2 : -1, team.myPe());
        check.eq("team_n_pes", "PE " + rank, rank % 2 == 0 ? (n + 1) / 2 : -1, team.nPes());
        team.close();
    }
}
