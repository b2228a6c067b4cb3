package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Barrier, broadcast, fcollect and max reduction back to back over WORLD on 3 longs holding the PE's
 * number (the original checks that the collectives' pSync sizes suffice): broadcast from PE 0 gives
 * zeros, fcollect gives each PE's number in its block, the max gives nPes - 1.
 */
public final class SyncSize extends CollProgram
{
    private static final int N = 3;

    public SyncSize()
    {
        super("tests-sos test/unit/sync-size.c", List.of("shmem_barrier_all", "shmem_broadcast", "shmem_fcollect", "shmem_max_reduce"),
            forced("BARRIER", BARRIER, "BROADCAST", BROADCAST, "FCOLLECT", COLLECT, "REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricLongs src = shmem.allocateLongs(N);
        final SymmetricLongs dst = shmem.allocateLongs(N);
        for (int i = 0; i < N; i++)
        {
            src.setLocal(i, me);
            dst.setLocal(i, -1);
        }
        shmem.barrierAll();
        shmem.teamWorld().broadcast(dst, src, N, 0);
        for (int i = 0; i < N; i++)
        {
            check.eq("broadcast", "longs", i, 0, dst.getLocal(i));
        }
        shmem.barrierAll();
        final SymmetricLongs all = shmem.allocateLongs((long)n * N);
        shmem.teamWorld().fcollect(all, src, N);
        for (int i = 0; i < n * N; i++)
        {
            check.eq("fcollect", "longs", i, i / N, all.getLocal(i));
        }
        shmem.free(all);
        shmem.barrierAll();
        shmem.teamWorld().reduce(ReduceOp.MAX, dst, src, N);
        for (int i = 0; i < N; i++)
        {
            check.eq("max_reduce", "longs", i, n - 1, dst.getLocal(i));
        }
        shmem.free(dst);
        shmem.free(src);
    }
}
