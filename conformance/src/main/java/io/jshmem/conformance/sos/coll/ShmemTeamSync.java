package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * The spec's team sync example: teams of WORLD PEs 2, 4, ... and 3, 6, ... (PE 0 excluded); each member
 * puts 2 (or 3) to its right neighbour in the team, quiets, syncs its team; with a WORLD sync between
 * the two teams' rounds. Afterwards multiples of 3 hold 3, other even PEs 2, the rest the initial
 * 10101.
 */
public final class ShmemTeamSync extends CollProgram
{
    public ShmemTeamSync()
    {
        super("tests-sos test/spec-example/shmem_team_sync.c", List.of("shmem_team_split_strided", "shmem_p", "shmem_quiet", "shmem_sync",
            "shmem_team_translate_pe"), forced("BARRIER", BARRIER));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricInts x = shmem.allocateInts(1);
        x.setLocal(0, 10101);
        shmem.barrierAll();
        final Team twos = n > 2 ? shmem.teamWorld().splitStrided(2, 2, (n - 1) / 2) : Team.INVALID;
        final Team threes = n > 3 ? shmem.teamWorld().splitStrided(3, 3, (n - 1) / 3) : Team.INVALID;
        if (twos.isValid())
        {
            shmem.p(x, 0, 2, twos.translatePe((twos.myPe() + 1) % twos.nPes(), shmem.teamWorld()));
            shmem.quiet();
            twos.sync();
        }
        shmem.teamWorld().sync();
        if (threes.isValid())
        {
            shmem.p(x, 0, 3, threes.translatePe((threes.myPe() + 1) % threes.nPes(), shmem.teamWorld()));
            shmem.quiet();
            threes.sync();
        }
        final int expected = me != 0 && me % 3 == 0 ? 3 : me != 0 && me % 2 == 0 ? 2 : 10101;
        check.eq("sync", "ints", 0, expected, x.getLocal(0));
        threes.close();
        twos.close();
        shmem.barrierAll();
        shmem.free(x);
    }
}
