package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * 20 fcollects of longs over WORLD, 16 longs per PE growing by 32 each loop, source and dest in one
 * fresh allocation per loop: PE p contributes p * n + j, so dest holds 0, 1, 2, ... in order.
 */
public final class Fcollect64 extends CollProgram
{
    public Fcollect64()
    {
        super("tests-sos test/unit/fcollect64.c", List.of("shmem_fcollect", "shmem_malloc", "shmem_free"), forced("FCOLLECT", COLLECT));
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        int nWords = 16;
        for (int loop = 1; loop <= 20; loop++)
        {
            final SymmetricLongs all = shmem.allocateLongs((long)nWords * (n + 1));
            final SymmetricLongs src = all.slice(0, nWords);
            final SymmetricLongs dst = all.slice(nWords, (long)nWords * n);
            for (int j = 0; j < nWords; j++)
            {
                src.setLocal(j, j + (long)shmem.myPe() * nWords);
            }
            shmem.barrierAll();
            shmem.teamWorld().fcollect(dst, src, nWords);
            for (int j = 0; j < nWords * n; j++)
            {
                if (!check.eq("fcollect", "longs", j, j, dst.getLocal(j)))
                {
                    break;
                }
            }
            shmem.barrierAll();
            shmem.free(all);
            nWords += 32;
        }
    }
}
