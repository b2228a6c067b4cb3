package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Teams of every second and every third PE: a PE in both gets valid numbers in both and translates
 * between them; a PE in one gets -1 for the other and for both translations; a PE in neither gets -1
 * everywhere (INVALID's my_pe and translate_pe are -1). The port also checks the numbers themselves.
 */
public final class ShmemTeamTranslate extends CollProgram
{
    public ShmemTeamTranslate()
    {
        super("tests-sos test/unit/shmem_team_translate.c", "shmem_team_split_strided", "shmem_team_my_pe", "shmem_team_translate_pe");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final Team twos = shmem.teamWorld().splitStrided(0, 2, (n - 1) / 2 + 1);
        final Team threes = shmem.teamWorld().splitStrided(0, 3, (n - 1) / 3 + 1);
        final int t2 = twos.myPe();
        final int t3 = threes.myPe();
        final int t3to2 = threes.translatePe(t3, twos);
        final int t2to3 = twos.translatePe(t2, threes);
        final String what = "t2=" + t2 + " t3=" + t3 + " t3to2=" + t3to2 + " t2to3=" + t2to3;
        check.eq("team_my_pe", what + " (team of 2s)", me % 2 == 0 ? me / 2 : -1, t2);
        check.eq("team_my_pe", what + " (team of 3s)", me % 3 == 0 ? me / 3 : -1, t3);
        check.eq("team_translate_pe", what + " (3s to 2s)", me % 6 == 0 ? me / 2 : -1, t3to2);
        check.eq("team_translate_pe", what + " (2s to 3s)", me % 6 == 0 ? me / 3 : -1, t2to3);
        threes.close();
        twos.close();
    }
}
