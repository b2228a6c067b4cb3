package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricShorts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * PE 0 sends source elements 0, 2, 4, 6, 8 to each other PE's target with {@code iput}; each checks
 * them; then PE 0 gathers every other PE's five target elements with {@code iget} into consecutive
 * slots of its result buffer and checks them.
 */
public final class IputIget implements Program
{
    private static final int WORDS = 5;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/iput-iget.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_iput", "shmem_iget");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final short[] source = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        final SymmetricShorts target = shmem.allocateShorts(2 * WORDS);
        shmem.barrierAll();
        if (me == 0)
        {
            for (int pe = 1; pe < n; pe++)
            {
                shmem.iput(target, 0, 1, source, 0, 2, WORDS, pe);
            }
        }
        final short[] results = new short[n * WORDS];
        shmem.barrierAll();
        if (me != 0)
        {
            for (int i = 0; i < WORDS; i++)
            {
                check.eq("shmem_iput", "shorts", i, 2 * i + 1, target.segment().getAtIndex(java.lang.foreign.ValueLayout.JAVA_SHORT, i));
            }
        }
        shmem.barrierAll();
        if (me == 0)
        {
            for (int pe = 1, k = 0; pe < n; pe++, k += WORDS)
            {
                shmem.iget(results, k, 1, target, 0, 1, WORDS, pe);
            }
            for (int pe = 1, k = 0; pe < n; pe++, k += WORDS)
            {
                for (int i = 0; i < WORDS; i++)
                {
                    check.eq("shmem_iget", "shorts from pe " + pe, i, 2 * i + 1, results[k + i]);
                }
            }
        }
        shmem.barrierAll();
        shmem.free(target);
    }
}
