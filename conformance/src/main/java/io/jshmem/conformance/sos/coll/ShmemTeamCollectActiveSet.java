package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Collect over a chain of teams, each split from the previous one by dropping its first PE: a copy of
 * WORLD, then for i = 1..nPes-1 split(previous, 1, 1, size-1) holds WORLD PEs i..nPes-1. Each PE
 * contributes its WORLD number that many times; members check dest (and that the rest stays -1) and
 * sync the new team. The original never destroys the intermediate teams; the port destroys each
 * parent once its child exists (collective over the parent), so the chain does not hold one slot
 * per step.
 */
public final class ShmemTeamCollectActiveSet extends CollProgram
{
    public ShmemTeamCollectActiveSet()
    {
        super("tests-sos test/unit/shmem_team_collect_active_set.c",
            List.of("shmem_collect", "shmem_team_split_strided", "shmem_team_n_pes", "shmem_sync", "shmem_team_destroy"),
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
        CollectActiveSet.reset(dst, n);
        Team old = shmem.teamWorld().splitStrided(0, 1, n);
        for (int i = 1; i < n; i++)
        {
            check.section("team of PEs " + i + ".." + (n - 1));
            if (!old.isValid())
            {
                break;
            }
            final Team next = old.splitStrided(1, 1, old.nPes() - 1);
            check.eq("team_split_strided", "member of PEs " + i + "..", me >= i, next.isValid());
            if (next.isValid())
            {
                check.eq("team_n_pes", "size", n - i, next.nPes());
                next.collect(dst, src, me);
                CollectActiveSet.validate(check, dst, i, n);
                next.sync();
            }
            old.close();
            old = next;
        }
        old.close();
        shmem.barrierAll();
        shmem.free(dst);
        shmem.free(src);
    }
}
