package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Collect over shrinking teams (the original's replacement for the deprecated active-set collect):
 * for i = 0..nPes-1 the team of WORLD PEs i..nPes-1 collects, each PE contributing as many elements
 * as its WORLD number, all equal to it. dest holds i+j repeated i+j times for each member j, and the
 * rest of dest stays -1.
 */
public final class CollectActiveSet extends CollProgram
{
    public CollectActiveSet()
    {
        super("tests-sos test/unit/collect_active_set.c", List.of("shmem_collect", "shmem_team_split_strided"),
            forced("COLLECT", COLLECT));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricLongs src = shmem.allocateLongs(n);
        final SymmetricLongs dst = shmem.allocateLongs((long)n * n);
        for (int i = 0; i < n; i++)
        {
            src.setLocal(i, me);
        }
        reset(dst, n);
        shmem.barrierAll();
        for (int i = 0; i < n; i++)
        {
            check.section("team of PEs " + i + ".." + (n - 1));
            final Team team = shmem.teamWorld().splitStrided(i, 1, n - i);
            if (team.isValid())
            {
                team.collect(dst, src, me);
                validate(check, dst, i, n);
            }
            team.close();
            shmem.barrierAll();
        }
        shmem.free(dst);
        shmem.free(src);
    }

    static void reset(final SymmetricLongs dst, final int n)
    {
        for (int j = 0; j < n * n; j++)
        {
            dst.setLocal(j, -1);
        }
    }

    /** Checks the collect of WORLD PEs i..n-1, PE p contributing p copies of p, then resets dst. */
    static void validate(final Check check, final SymmetricLongs dst, final int i, final int n)
    {
        int idx = 0;
        for (int j = 0; j < n - i; j++)
        {
            for (int k = 0; k < i + j; k++, idx++)
            {
                check.eq("collect", "longs", idx, i + j, dst.getLocal(idx));
            }
        }
        for (; idx < n * n; idx++)
        {
            check.eq("collect (past the data)", "longs", idx, -1, dst.getLocal(idx));
        }
        reset(dst, n);
    }
}
