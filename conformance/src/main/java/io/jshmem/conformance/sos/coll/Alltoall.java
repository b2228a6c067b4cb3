package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Alltoall of one int per pair over strided teams of WORLD: all PEs, PE 0 alone (with a stride
 * beyond the job, ignored for a team of one), the even PEs, all but the last, all but PE 0 and the
 * odd PEs. Members receive every member's WORLD number in team order; non-members' dest stays -1.
 */
public final class Alltoall extends CollProgram
{
    public Alltoall()
    {
        super("tests-sos test/unit/alltoall.c", List.of("shmem_alltoall", "shmem_team_split_strided", "shmem_team_destroy"),
            forced("ALLTOALL", ALLTOALL));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final SymmetricInts in = shmem.allocateInts(n);
        final SymmetricInts out = shmem.allocateInts(n);
        one(shmem, check, in, out, 0, 1, n);
        one(shmem, check, in, out, 0, 13, 1);
        one(shmem, check, in, out, 0, 2, (n + 1) / 2);
        if (n > 1)
        {
            one(shmem, check, in, out, 0, 1, n - 1);
            one(shmem, check, in, out, 1, 1, n - 1);
            one(shmem, check, in, out, 1, 2, n / 2);
        }
        shmem.free(out);
        shmem.free(in);
    }

    static void one(final Shmem shmem, final Check check, final SymmetricInts in, final SymmetricInts out,
        final int start, final int stride, final int size)
    {
        final int n = shmem.nPes();
        final int me = shmem.myPe();
        check.section("team (" + start + ", " + stride + ", " + size + ")");
        for (int i = 0; i < n; i++)
        {
            in.setLocal(i, me);
            out.setLocal(i, -1);
        }
        shmem.barrierAll();
        final Team team = shmem.teamWorld().splitStrided(start, stride, size);
        if (team.isValid())
        {
            team.alltoall(out, in, 1);
        }
        for (int i = 0; i < n; i++)
        {
            final int expected = team.isValid() && i < size ? start + i * stride : -1;
            check.eq("alltoall", "ints", i, expected, out.getLocal(i));
        }
        team.close();
    }
}
