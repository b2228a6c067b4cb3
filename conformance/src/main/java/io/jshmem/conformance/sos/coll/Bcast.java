package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Ten broadcasts of longs from WORLD PE 1, growing from 16 bytes by 1 KiB each loop, source and
 * dest in one fresh allocation per loop (dest first, then the source). Every PE's dest must equal
 * its own source, which every PE filled alike (element 0 left zero).
 */
public final class Bcast extends CollProgram
{
    public Bcast()
    {
        super("tests-sos test/unit/bcast.c", List.of("shmem_broadcast", "shmem_malloc", "shmem_free"), forced("BROADCAST", BROADCAST));
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        int nBytes = 16;
        for (int loop = 1; loop <= 10; loop++)
        {
            final int nLongs = nBytes / 8;
            final SymmetricLongs both = shmem.allocateLongs(2L * nLongs);
            final SymmetricLongs dst = both.slice(0, nLongs);
            final SymmetricLongs src = both.slice(nLongs, nLongs);
            for (int i = 1; i < nLongs; i++)
            {
                src.setLocal(i, i + 1);
            }
            shmem.barrierAll();
            shmem.teamWorld().broadcast(dst, src, nLongs, 1);
            for (int i = 0; i < nLongs; i++)
            {
                check.eq("broadcast", "longs", i, src.getLocal(i), dst.getLocal(i));
            }
            shmem.barrierAll();
            shmem.free(both);
            nBytes += 1024;
        }
    }
}
