package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Max and min reductions over shrinking teams (the original's replacement for the deprecated
 * active-set to_all): for i = 0..nPes-1 the team of WORLD PEs i..nPes-1 reduces 10 longs holding the
 * WORLD PE number; max is nPes-1 and min is i on every member.
 */
public final class ReduceActiveSet extends CollProgram
{
    private static final int NELEM = 10;

    public ReduceActiveSet()
    {
        super("tests-sos test/unit/reduce_active_set.c", List.of("shmem_max_reduce", "shmem_min_reduce", "shmem_team_split_strided"),
            forced("REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricLongs src = shmem.allocateLongs(NELEM);
        final SymmetricLongs max = shmem.allocateLongs(NELEM);
        final SymmetricLongs min = shmem.allocateLongs(NELEM);
        for (int i = 0; i < NELEM; i++)
        {
            src.setLocal(i, me);
            max.setLocal(i, -1);
            min.setLocal(i, -1);
        }
        shmem.barrierAll();
        for (int i = 0; i < n; i++)
        {
            check.section("team of PEs " + i + ".." + (n - 1));
            final Team team = shmem.teamWorld().splitStrided(i, 1, n - i);
            if (team.isValid())
            {
                team.reduce(ReduceOp.MAX, max, src, NELEM);
                team.reduce(ReduceOp.MIN, min, src, NELEM);
                for (int j = 0; j < NELEM; j++)
                {
                    check.eq("max_reduce", "longs", j, n - 1, max.getLocal(j));
                    check.eq("min_reduce", "longs", j, i, min.getLocal(j));
                }
            }
            team.close();
        }
        shmem.barrierAll();
        shmem.free(min);
        shmem.free(max);
        shmem.free(src);
    }
}
