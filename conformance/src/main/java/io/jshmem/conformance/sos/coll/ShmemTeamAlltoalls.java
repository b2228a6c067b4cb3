package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * The spec's strided alltoall example: 2 elements per pair, dest stride 2, source stride 3; element
 * dst * (pe * 2 + i) of dest must hold pe + me. The port also checks the gaps between strided dest
 * elements stay 9999.
 */
public final class ShmemTeamAlltoalls extends CollProgram
{
    private static final int COUNT = 2;
    private static final int DST = 2;
    private static final int SST = 3;

    public ShmemTeamAlltoalls()
    {
        super("tests-sos test/spec-example/shmem_team_alltoalls.c", List.of("shmem_sync", "shmem_alltoalls"),
            forced("ALLTOALL", ALLTOALL));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricLongs dest = shmem.allocateLongs((long)COUNT * DST * n);
        final SymmetricLongs source = shmem.allocateLongs((long)COUNT * SST * n);
        for (int j = 0; j < COUNT * DST * n; j++)
        {
            dest.setLocal(j, 9999);
        }
        for (int pe = 0; pe < n; pe++)
        {
            for (int i = 0; i < COUNT; i++)
            {
                source.setLocal(SST * (pe * COUNT + i), me + pe);
            }
        }
        shmem.teamWorld().sync();
        shmem.teamWorld().alltoalls(dest, source, DST, SST, COUNT);
        for (int j = 0; j < COUNT * DST * n; j++)
        {
            final long expected = j % DST == 0 ? j / DST / COUNT + me : 9999;
            check.eq("alltoalls", "longs", j, expected, dest.getLocal(j));
        }
        shmem.free(dest);
        shmem.free(source);
    }
}
