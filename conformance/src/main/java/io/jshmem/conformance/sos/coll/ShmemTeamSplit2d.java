package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * split_2d of WORLD and of the even team with x ranges 1, 2 and 3: both teams are valid; every PE of
 * the x team (row) translates to parent PE y * xrange + i and to the same WORLD PE as that parent
 * PE; every PE of the y team (column) to i * xrange + x. The teams are destroyed afterwards.
 */
public final class ShmemTeamSplit2d extends CollProgram
{
    public ShmemTeamSplit2d()
    {
        super("tests-sos test/unit/shmem_team_split_2d.c",
            "shmem_team_split_2d", "shmem_team_split_strided", "shmem_team_my_pe", "shmem_team_n_pes", "shmem_team_translate_pe",
            "shmem_team_destroy");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        for (final int x : new int[] {1, 2, 3})
        {
            check2d(shmem, check, shmem.teamWorld(), x);
        }
        final Team even = shmem.teamWorld().splitStrided(0, 2, (n - 1) / 2 + 1);
        if (even.isValid())
        {
            for (final int x : new int[] {1, 2, 3})
            {
                check2d(shmem, check, even, x);
            }
        }
        even.close();
    }

    static void check2d(final Shmem shmem, final Check check, final Team parent, final int xdim)
    {
        check.section("parent " + parent.start() + "/" + parent.stride() + "/" + parent.nPes() + " xrange " + xdim);
        try (Team.Split2d grid = parent.split2d(xdim))
        {
            final Team x = grid.x();
            final Team y = grid.y();
            check.isTrue(x.isValid() && y.isValid(), "team_split_2d", "both teams valid");
            final int meX = x.myPe();
            final int meY = y.myPe();
            for (int i = 0; i < x.nPes(); i++)
            {
                final int expectedParent = meY * xdim + i;
                check.eq("team_translate_pe", "x team PE " + i + " in parent", expectedParent, x.translatePe(i, parent));
                check.eq("team_translate_pe", "x team PE " + i + " in WORLD", parent.translatePe(expectedParent, shmem.teamWorld()),
                    x.translatePe(i, shmem.teamWorld()));
            }
            for (int i = 0; i < y.nPes(); i++)
            {
                final int expectedParent = i * xdim + meX;
                check.eq("team_translate_pe", "y team PE " + i + " in parent", expectedParent, y.translatePe(i, parent));
                check.eq("team_translate_pe", "y team PE " + i + " in WORLD", parent.translatePe(expectedParent, shmem.teamWorld()),
                    y.translatePe(i, shmem.teamWorld()));
            }
        }
    }
}
