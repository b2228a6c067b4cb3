package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Ten rounds: PE 0 puts 128 words of 0xCafeBabe into every worker's target; each worker waits for the
 * last word, checks every word and overwrites them with its number; PE 0 clears its work vector; then
 * every worker puts its 128 words back into its own slot of PE 0's work vector, and PE 0 waits for each
 * slot's last word and checks the slot holds the worker's number. Every PE is accessible from every PE.
 */
public final class Pingpong implements Program
{
    private static final int WORDS = 128;
    private static final long VAL = 0xCafeBabeL;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/pingpong.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put", "shmem_wait_until", "shmem_pe_accessible", "shmem_barrier_all");
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
        final int n = shmem.nPes();
        for (int pe = 0; pe < n; pe++)
        {
            check.isTrue(shmem.peAccessible(pe), "shmem_pe_accessible", "pe " + pe);
        }
        final SymmetricLongs work = shmem.allocateLongs((long)n * WORDS);
        final SymmetricLongs target = shmem.allocateLongs(WORDS);
        final long[] src = new long[WORDS];
        java.util.Arrays.fill(src, VAL);
        for (int loop = 0; loop < 10; loop++)
        {
            shmem.barrierAll();
            if (me == 0)
            {
                for (int pe = 1; pe < n; pe++)
                {
                    shmem.put(target, 0, src, 0, WORDS, pe);
                }
            }
            else
            {
                target.waitUntil(WORDS - 1, Cmp.EQ, VAL);
            }
            shmem.barrierAll();
            if (me != 0)
            {
                for (int k = 0; k < WORDS; k++)
                {
                    check.eq("shmem_put", "longs to worker", k, VAL, target.getLocal(k));
                    target.setLocal(k, me);
                }
            }
            else
            {
                for (long k = 0; k < (long)n * WORDS; k++)
                {
                    work.setLocal(k, 0);
                }
            }
            shmem.barrierAll();
            if (me != 0)
            {
                final long[] mine = new long[WORDS];
                java.util.Arrays.fill(mine, me);
                shmem.put(work, (long)me * WORDS, mine, 0, WORDS, 0);
            }
            else
            {
                for (int pe = 1; pe < n; pe++)
                {
                    work.waitUntil((long)pe * WORDS + WORDS - 1, Cmp.NE, 0);
                    for (int k = 0; k < WORDS; k++)
                    {
                        check.eq("shmem_put", "longs from worker " + pe, k, pe, work.getLocal((long)pe * WORDS + k));
                    }
                }
            }
            shmem.barrierAll();
            if (me != 0)
            {
                for (int k = 0; k < WORDS; k++)
                {
                    target.setLocal(k, 0);
                }
            }
        }
        shmem.barrierAll();
        shmem.free(target);
        shmem.free(work);
    }
}
