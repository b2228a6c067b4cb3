package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/** The spec's alltoall example: blocks of 2 longs, block pe of PE me's source holding me + pe; dest block pe must hold pe + me. */
public final class ShmemTeamAlltoall extends CollProgram
{
    private static final int COUNT = 2;

    public ShmemTeamAlltoall()
    {
        super("tests-sos test/spec-example/shmem_team_alltoall.c", List.of("shmem_sync", "shmem_alltoall"), forced("ALLTOALL", ALLTOALL));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricLongs dest = shmem.allocateLongs((long)COUNT * n);
        final SymmetricLongs source = shmem.allocateLongs((long)COUNT * n);
        for (int pe = 0; pe < n; pe++)
        {
            for (int i = 0; i < COUNT; i++)
            {
                source.setLocal(pe * COUNT + i, me + pe);
                dest.setLocal(pe * COUNT + i, 9999);
            }
        }
        shmem.teamWorld().sync();
        shmem.teamWorld().alltoall(dest, source, COUNT);
        for (int pe = 0; pe < n; pe++)
        {
            for (int i = 0; i < COUNT; i++)
            {
                check.eq("alltoall", "longs", pe * COUNT + i, pe + me, dest.getLocal(pe * COUNT + i));
            }
        }
        shmem.free(dest);
        shmem.free(source);
    }
}
