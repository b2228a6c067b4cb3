package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

/**
 * The spec's translate example (named with "Example" beside the unit test ShmemTeamTranslate): the
 * team of nPes/2 even PEs; a member's own number translates back to its WORLD number, a non-member's
 * (-1) translates to -1.
 */
public final class ShmemTeamTranslateExample extends CollProgram
{
    public ShmemTeamTranslateExample()
    {
        super("tests-sos test/spec-example/shmem_team_translate.c", "shmem_team_split_strided", "shmem_team_my_pe",
            "shmem_team_translate_pe");
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
        final Team team = shmem.teamWorld().splitStrided(0, 2, n / 2);
        final int tPe = team.myPe();
        final int tGlobal = team.translatePe(tPe, shmem.teamWorld());
        check.eq("team_translate_pe", "PE " + rank + " (team PE " + tPe + ")", team.isValid() ? rank : -1, tGlobal);
        check.eq("team_split_strided", "member", rank % 2 == 0 && rank / 2 < n / 2, team.isValid());
        team.close();
    }
}
