package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * 100 back-to-back calls of each WORLD collective on 10 longs holding the PE's number, with no
 * synchronization between calls: broadcast, sum reduce, collect, fcollect, alltoall and alltoalls.
 * The original only checks return codes; the port checks every result after each run of 100.
 */
public final class ShmemTeamB2bCollectives extends CollProgram
{
    private static final int NITERS = 100;
    private static final int NELEMS = 10;

    public ShmemTeamB2bCollectives()
    {
        super("tests-sos test/unit/shmem_team_b2b_collectives.c",
            List.of("shmem_broadcast", "shmem_sum_reduce", "shmem_collect", "shmem_fcollect", "shmem_alltoall", "shmem_alltoalls"),
            forced("BROADCAST", BROADCAST, "REDUCE", REDUCE, "COLLECT", COLLECT, "FCOLLECT", COLLECT, "ALLTOALL", ALLTOALL));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final Team world = shmem.teamWorld();
        final SymmetricLongs dest = shmem.allocateLongs((long)NELEMS * n);
        final SymmetricLongs src = shmem.allocateLongs((long)NELEMS * n);
        for (int i = 0; i < NELEMS * n; i++)
        {
            src.setLocal(i, me);
        }
        shmem.barrierAll();
        for (int i = 0; i < NITERS; i++)
        {
            world.broadcast(dest, src, NELEMS, 0);
        }
        for (int i = 0; i < NELEMS; i++)
        {
            check.eq("broadcast", "longs", i, 0, dest.getLocal(i));
        }
        for (int i = 0; i < NITERS; i++)
        {
            world.reduce(ReduceOp.SUM, dest, src, NELEMS);
        }
        for (int i = 0; i < NELEMS; i++)
        {
            check.eq("sum_reduce", "longs", i, (long)n * (n - 1) / 2, dest.getLocal(i));
        }
        for (int i = 0; i < NITERS; i++)
        {
            world.collect(dest, src, NELEMS);
        }
        blocks(check, "collect", dest, n);
        for (int i = 0; i < NITERS; i++)
        {
            world.fcollect(dest, src, NELEMS);
        }
        blocks(check, "fcollect", dest, n);
        for (int i = 0; i < NITERS; i++)
        {
            world.alltoall(dest, src, NELEMS);
        }
        blocks(check, "alltoall", dest, n);
        for (int i = 0; i < NITERS; i++)
        {
            world.alltoalls(dest, src, 1, 1, NELEMS);
        }
        blocks(check, "alltoalls", dest, n);
        shmem.barrierAll();
        shmem.free(src);
        shmem.free(dest);
    }

    private static void blocks(final Check check, final String routine, final SymmetricLongs dest, final int n)
    {
        for (int i = 0; i < NELEMS * n; i++)
        {
            check.eq(routine, "longs", i, i / NELEMS, dest.getLocal(i));
        }
    }
}
