package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricShorts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * {@link Pingpong} with 16-bit elements (value 0xCafe) and 100 rounds: PE 0 puts 128 shorts into every
 * worker, each worker checks them and puts its number back into its slot of PE 0's work vector. Java
 * has no wait_until on shorts (only ints and longs are wait-able words), so the port waits with a
 * bounded poll of plain loads where the original calls {@code shmem_short_wait_until}.
 */
public final class PingpongShort implements Program
{
    private static final int WORDS = 128;
    private static final short VAL = (short)0xCafe;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/pingpong-short.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put", "shmem_pe_accessible", "shmem_barrier_all");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    private static short read(final SymmetricShorts s, final long i)
    {
        return (short)ValueLayout.JAVA_SHORT.varHandle().getAcquire(s.segment(), i * 2);
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
        final SymmetricShorts work = shmem.allocateShorts((long)n * WORDS);
        final SymmetricShorts target = shmem.allocateShorts(WORDS);
        final short[] src = new short[WORDS];
        java.util.Arrays.fill(src, VAL);
        final short[] mine = new short[WORDS];
        java.util.Arrays.fill(mine, (short)me);
        for (int loop = 0; loop < 100; loop++)
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
                check.await("shmem_put", "the last short from PE 0", () -> read(target, WORDS - 1) == VAL);
            }
            shmem.barrierAll();
            if (me != 0)
            {
                for (int k = 0; k < WORDS; k++)
                {
                    if (!check.eq("shmem_put", "shorts to worker", k, VAL, read(target, k)))
                    {
                        break;
                    }
                }
                target.segment().fill((byte)0);
            }
            else
            {
                work.segment().fill((byte)0);
            }
            shmem.barrierAll();
            if (me != 0)
            {
                shmem.put(work, (long)me * WORDS, mine, 0, WORDS, 0);
            }
            else
            {
                for (int pe = 1; pe < n; pe++)
                {
                    final long last = (long)pe * WORDS + WORDS - 1;
                    check.await("shmem_put", "the last short from PE " + pe, () -> read(work, last) != 0);
                    for (int k = 0; k < WORDS; k++)
                    {
                        if (!check.eq("shmem_put", "shorts from worker " + pe, k, pe, read(work, (long)pe * WORDS + k)))
                        {
                            break;
                        }
                    }
                }
            }
        }
        shmem.barrierAll();
        shmem.free(target);
        shmem.free(work);
    }
}
