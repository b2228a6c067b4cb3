package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Ten rounds: PE 0 puts 128 words of 0xCafeBabe into every other PE's zeroed target; each waits until
 * the last word changes, then (after a barrier) finds all 128 words equal to the value and clears them.
 */
public final class Ping implements Program
{
    private static final int WORDS = 128;
    private static final long VAL = 0xCafeBabeL;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/ping.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put", "shmem_wait_until", "shmem_barrier_all");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final SymmetricLongs target = shmem.allocateLongs(8192);
        final long[] src = new long[WORDS];
        java.util.Arrays.fill(src, VAL);
        for (int loop = 0; loop < 10; loop++)
        {
            shmem.barrierAll();
            if (me == 0)
            {
                for (int pe = 1; pe < shmem.nPes(); pe++)
                {
                    shmem.put(target, 0, src, 0, WORDS, pe);
                }
            }
            else
            {
                target.waitUntil(WORDS - 1, Cmp.NE, 0);
            }
            shmem.barrierAll();
            if (me != 0)
            {
                for (int k = 0; k < WORDS; k++)
                {
                    check.eq("shmem_put", "longs loop " + loop, k, VAL, target.getLocal(k));
                    target.setLocal(k, 0);
                }
            }
        }
        shmem.barrierAll();
        shmem.free(target);
    }
}
