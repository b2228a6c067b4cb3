package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * sync_all, then rounds of 50 team syncs of WORLD (the original's replacement for the deprecated
 * active-set sync with a reused pSync, which it runs twice). The port checks what each sync promises
 * for stores that were completed before it: a member puts the round number to its right neighbour
 * and quiets; after the sync it must see its left neighbour's.
 */
public final class RepeatedSyncs extends CollProgram
{
    private static final int NREPS = 50;

    public RepeatedSyncs()
    {
        super("tests-sos test/unit/repeated_syncs.c", List.of("shmem_sync_all", "shmem_sync"), forced("BARRIER", BARRIER));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricLongs box = shmem.allocateLongs(2);
        shmem.syncAll();
        for (int i = 0; i <= 1; i++)
        {
            for (int j = 0; j < NREPS; j++)
            {
                shmem.p(box, j % 2, 1000L * i + j + check.me(), check.right());
                shmem.quiet();
                shmem.teamWorld().sync();
                check.eq("sync", "longs", j, 1000L * i + j + check.left(), box.getLocal(j % 2));
                shmem.syncAll();
            }
        }
        shmem.barrierAll();
        shmem.free(box);
    }
}
