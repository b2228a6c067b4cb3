package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Strided put and get with one source PE and many workers, over a growing transfer size (the
 * original's defaults: 16 rounds, 16 words in the first, 16 more in each next one). Each round:
 * <ol>
 *   <li>grow the symmetric results area with {@code realloc} by (PEs − 1) × words longs, keeping what
 *       earlier rounds stored in it; {@code malloc} a source of 2 × words longs (1, 2, 3, ...) and a
 *       zeroed target of words longs;</li>
 *   <li>PE 0 {@code iput}s every second source element (source stride 2, target stride 1) into each
 *       worker's target; each worker finds 1, 3, 5, ... and adds its PE number to every element;</li>
 *   <li>PE 0 {@code iget}s each worker's target (strides 1) and finds 1 + pe, 3 + pe, 5 + pe, ...;
 *       it stores the words in its own results area at the round's and worker's slot;</li>
 *   <li>free source and target.</li>
 * </ol>
 * After the last round PE 0 checks every slot of the results area again, so data stored in early
 * rounds must have survived every later {@code realloc}. The original's realloc-per-round mode for
 * source and target ({@code -r}) is not ported (the default, malloc + free per round, is). Needs 2 PEs
 * (the original passes silently with 1). Java's {@code iget} takes a local array, so PE 0 gets into one
 * and copies it into the symmetric results area.
 */
public final class Ipgm implements Program
{
    private static final int NWORDS = 16;
    private static final int LOOPS = 16;
    private static final int INCR = 16;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/ipgm.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_iput", "shmem_iget", "shmem_realloc", "shmem_malloc", "shmem_free", "shmem_barrier_all");
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
        final int workers = n - 1;
        SymmetricMemory results = null;
        long resultBytes = 0;
        int ridx = 0;
        int nWords = NWORDS;
        for (int l = 0; l < LOOPS; l++)
        {
            resultBytes += (long)workers * nWords * Long.BYTES;
            results = shmem.realloc(results, resultBytes);
            final SymmetricLongs source = shmem.malloc(2L * nWords * Long.BYTES).asLongs();
            for (int j = 0; j < 2 * nWords; j++)
            {
                source.setLocal(j, j + 1);
            }
            final SymmetricLongs target = shmem.malloc((long)nWords * Long.BYTES).asLongs();
            target.segment().fill((byte)0);
            final long[] src = new long[2 * nWords];
            for (int j = 0; j < src.length; j++)
            {
                src[j] = source.getLocal(j);
            }
            shmem.barrierAll();

            if (me == 0)
            {
                for (int pe = 1; pe < n; pe++)
                {
                    shmem.iput(target, 0, 1, src, 0, 2, nWords, pe);
                }
            }
            shmem.barrierAll();

            if (me != 0)
            {
                if (!good(check, "shmem_iput", "round " + l + " target", target.segment(), 0, nWords, 0))
                {
                    check.fatal("iput delivered wrong data (round " + l + ")");
                }
                for (int j = 0; j < nWords; j++)
                {
                    target.setLocal(j, target.getLocal(j) + me);
                }
            }
            shmem.barrierAll();

            if (me == 0)
            {
                final long[] got = new long[nWords];
                for (int pe = 1; pe < n; pe++)
                {
                    shmem.iget(got, 0, 1, target, 0, 1, nWords, pe);
                    final MemorySegment slot = results.segment().asSlice((long)ridx * Long.BYTES, (long)nWords * Long.BYTES);
                    MemorySegment.copy(got, 0, slot, ValueLayout.JAVA_LONG_UNALIGNED, 0, nWords);
                    if (!good(check, "shmem_iget", "round " + l + " from PE " + pe, slot, 0, nWords, pe))
                    {
                        check.fatal("iget returned wrong data (round " + l + ", PE " + pe + ")");
                    }
                    ridx += nWords;
                }
            }
            shmem.barrierAll();
            shmem.free(source);
            shmem.free(target);
            nWords += INCR;
            shmem.barrierAll();
        }

        if (me == 0)
        {
            nWords = NWORDS;
            ridx = 0;
            for (int l = 0; l < LOOPS; l++)
            {
                for (int pe = 1; pe < n; pe++)
                {
                    good(check, "shmem_realloc", "results of round " + l + " from PE " + pe + " after the last realloc",
                        results.segment(), ridx, nWords, pe);
                    ridx += nWords;
                }
                nWords += INCR;
            }
            check.eq("shmem_realloc", "results words", (long)ridx * Long.BYTES, resultBytes);
        }
        shmem.free(results);
    }

    /** Checks words {@code from .. from + count - 1} of {@code data} hold 1 + id, 3 + id, 5 + id, ... (one check). */
    private static boolean good(final Check check, final String routine, final String what, final MemorySegment data, final int from,
        final int count, final int id)
    {
        for (int j = 0; j < count; j++)
        {
            final long v = data.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, from + j);
            if (v != 2L * j + 1 + id)
            {
                check.fail(routine, what + ": word " + j + " expected=" + (2L * j + 1 + id) + " actual=" + v);
                return false;
            }
        }
        return check.isTrue(true, routine, what);
    }
}
