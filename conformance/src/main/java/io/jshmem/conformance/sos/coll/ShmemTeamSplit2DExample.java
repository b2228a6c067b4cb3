package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

/**
 * The spec's 3-D example (named with "Example" beside the unit test ShmemTeamSplit2d): the most
 * cubic x * y * z = nPes; split_2d of WORLD by x gives the x team and the yz team, split_2d of the
 * yz team by y gives the y and z teams; yz is destroyed right away. Each PE prints its coordinates in
 * order, one per WORLD sync. The port checks each PE's coordinates are (pe mod x, (pe div x) mod y,
 * pe div xy) and team sizes x, y, z.
 */
public final class ShmemTeamSplit2DExample extends CollProgram
{
    public ShmemTeamSplit2DExample()
    {
        super("tests-sos test/spec-example/shmem_team_split_2D.c", "shmem_team_split_2d", "shmem_team_destroy", "shmem_team_my_pe",
            "shmem_team_n_pes", "shmem_sync");
    }

    private static int[] xy(final int n)
    {
        for (int d = (int)Math.ceil(Math.sqrt(n)); d >= 1; d--)
        {
            if (n % d == 0)
            {
                return new int[] {d, n / d};
            }
        }
        return new int[] {1, n};
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        int x = 1;
        int[] yz = {1, 1};
        for (int d = (int)Math.ceil(Math.cbrt(n)); d >= 1; d--)
        {
            if (n % d == 0)
            {
                x = d;
                yz = xy(n / d);
                break;
            }
        }
        final int xdim = x;
        final int ydim = yz[0];
        final int zdim = yz[1];
        if (me == 0)
        {
            System.out.println("  xdim = " + xdim + ", ydim = " + ydim + ", zdim = " + zdim);
        }
        final Team.Split2d first = shmem.teamWorld().split2d(xdim);
        final Team xteam = first.x();
        final Team.Split2d second = first.y().split2d(ydim);
        first.y().close();
        final int myX = xteam.myPe();
        final int myY = second.x().myPe();
        final int myZ = second.y().myPe();
        check.eq("team_split_2d", "x of PE " + me, me % xdim, myX);
        check.eq("team_split_2d", "y of PE " + me, me / xdim % ydim, myY);
        check.eq("team_split_2d", "z of PE " + me, me / (xdim * ydim), myZ);
        check.eq("team_n_pes", "x team", xdim, xteam.nPes());
        check.eq("team_n_pes", "y team", ydim, second.x().nPes());
        check.eq("team_n_pes", "z team", zdim, second.y().nPes());
        for (int z = 0; z < zdim; z++)
        {
            for (int y = 0; y < ydim; y++)
            {
                for (int xx = 0; xx < xdim; xx++)
                {
                    if (myX == xx && myY == y && myZ == z)
                    {
                        System.out.println("  (" + myX + ", " + myY + ", " + myZ + ") is mype = " + me);
                        System.out.flush();
                    }
                    shmem.teamWorld().sync();
                }
            }
        }
        second.close();
        xteam.close();
    }
}
