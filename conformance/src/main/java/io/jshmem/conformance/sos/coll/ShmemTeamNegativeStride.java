package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Teams with negative strides: WORLD reversed (start nPes-1, stride -1) and every other PE from the
 * last down (stride -2, nPes/2 PEs). On each, translate_pe from WORLD gives the reversed numbering
 * and a sum reduction of [0, 1, ..., nPes-1] gives i times the team size.
 */
public final class ShmemTeamNegativeStride extends CollProgram
{
    public ShmemTeamNegativeStride()
    {
        super("tests-sos test/unit/shmem_team_negative_stride.c",
            List.of("shmem_team_split_strided", "shmem_team_translate_pe", "shmem_sum_reduce", "shmem_team_destroy"),
            forced("REDUCE", REDUCE));
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricInts src = shmem.allocateInts(n);
        final SymmetricInts dst = shmem.allocateInts(n);
        for (int i = 0; i < n; i++)
        {
            src.setLocal(i, i);
        }
        for (final int stride : new int[] {-1, -2})
        {
            check.section("stride " + stride);
            for (int i = 0; i < n; i++)
            {
                dst.setLocal(i, -1);
            }
            final int size = stride == -1 ? n : n / 2;
            final Team team = shmem.teamWorld().splitStrided(n - 1, stride, size);
            final boolean member = (n - 1 - me) % -stride == 0 && (n - 1 - me) / -stride < size;
            check.eq("team_split_strided", "member", member, team.isValid());
            if (team.isValid())
            {
                check.eq("team_translate_pe", "WORLD " + me, (n - 1 - me) / -stride, shmem.teamWorld().translatePe(me, team));
                team.reduce(ReduceOp.SUM, dst, src, n);
                for (int i = 0; i < n; i++)
                {
                    check.eq("sum_reduce", "ints", i, i * size, dst.getLocal(i));
                }
            }
            team.close();
        }
        shmem.barrierAll();
        shmem.free(dst);
        shmem.free(src);
    }
}
