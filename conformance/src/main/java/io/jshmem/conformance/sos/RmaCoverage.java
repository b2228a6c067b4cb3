package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Kind;
import io.jshmem.conformance.Program;

import java.util.List;
import java.util.SplittableRandom;

/**
 * For every Java element type (the original's float, double, char, short, int, long, long long; long
 * double has no Java type), each PE writes 40 pseudo-random values into its right neighbour's array
 * in four chunks of ten: put; p element by element; two iputs (stride 2 destination, the even then the
 * odd source elements); put_nbi; then quiet and a barrier, and reads them back from the same PE with
 * the mirror routines (get; g; two igets with stride 2 into the result; get_nbi), quiet, barrier. The
 * result must equal what was written.
 */
public final class RmaCoverage implements Program
{
    private static final int CHUNK = 10;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/rma_coverage.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put", "shmem_p", "shmem_iput", "shmem_put_nbi", "shmem_get", "shmem_g", "shmem_iget",
            "shmem_get_nbi", "shmem_quiet");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SplittableRandom random = new SplittableRandom(1 + shmem.myPe());
        for (final Kind<?> kind : Kind.ALL)
        {
            body(shmem, check, kind, random);
        }
    }

    private static <A> void body(final Shmem shmem, final Check check, final Kind<A> kind, final SplittableRandom random)
    {
        final int next = (shmem.myPe() + 1) % shmem.nPes();
        final SymmetricArray<A> shared = kind.allocate(shmem, 4 * CHUNK);
        final A mine = kind.newArray(4 * CHUNK);
        final long[] pattern = new long[4 * CHUNK];
        for (int i = 0; i < 4 * CHUNK; i++)
        {
            pattern[i] = random.nextInt();
            kind.set(mine, i, pattern[i]);
        }
        shmem.put(shared, 0, mine, 0, CHUNK, next);
        for (int i = 0; i < CHUNK; i++)
        {
            kind.p(shmem, shared, CHUNK + i, pattern[CHUNK + i], next);
        }
        shmem.iput(shared, 2 * CHUNK, 1, mine, 2 * CHUNK, 2, CHUNK / 2, next);
        shmem.iput(shared, 2 * CHUNK + CHUNK / 2, 1, mine, 2 * CHUNK + 1, 2, CHUNK / 2, next);
        shmem.putNbi(shared, 3 * CHUNK, mine, 3 * CHUNK, CHUNK, next);
        shmem.quiet();
        shmem.barrierAll();

        final A result = kind.newArray(4 * CHUNK);
        shmem.get(result, 0, shared, 0, CHUNK, next);
        final long[] viaG = new long[CHUNK];
        for (int i = 0; i < CHUNK; i++)
        {
            viaG[i] = kind.g(shmem, shared, CHUNK + i, next);
        }
        shmem.iget(result, 2 * CHUNK, 2, shared, 2 * CHUNK, 1, CHUNK / 2, next);
        shmem.iget(result, 2 * CHUNK + 1, 2, shared, 2 * CHUNK + CHUNK / 2, 1, CHUNK / 2, next);
        shmem.getNbi(result, 3 * CHUNK, shared, 3 * CHUNK, CHUNK, next);
        shmem.quiet();
        shmem.barrierAll();
        for (int i = 0; i < 4 * CHUNK; i++)
        {
            final long got = i >= CHUNK && i < 2 * CHUNK ? viaG[i - CHUNK] : kind.bits(result, i);
            check.eq("rma " + (i / CHUNK == 0 ? "put/get" : i / CHUNK == 1 ? "g" : i / CHUNK == 2 ? "iput/iget" : "put_nbi/get_nbi"),
                kind.name(), i, kind.bits(mine, i), got);
        }
        shmem.barrierAll();
        shmem.free(shared);
    }
}
