package io.jshmem.conformance.sos;

import io.jshmem.MallocHint;
import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricMemory;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Objects allocated with every hint combination (none, ATOMICS_REMOTE, SIGNAL_REMOTE, both) work as
 * the source and destination of a sum reduction over the world team: every element is
 * 0 + 1 + ... + (nPes − 1). The original's invalid-hint case has no Java form ({@link MallocHint} is
 * an enum).
 */
public final class ShmemMallocWithHints implements Program
{
    private static final int N = 64;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/shmem_malloc_with_hints.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_malloc_with_hints", "shmem_sum_reduce", "shmem_free");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final MallocHint[][] cases = {{}, {MallocHint.ATOMICS_REMOTE}, {MallocHint.SIGNAL_REMOTE},
            {MallocHint.ATOMICS_REMOTE, MallocHint.SIGNAL_REMOTE}};
        final int n = shmem.nPes();
        for (final MallocHint[] hints : cases)
        {
            final SymmetricMemory d = shmem.mallocWithHints(N * 4L, hints);
            final SymmetricMemory s = shmem.mallocWithHints(N * 4L, hints);
            final SymmetricInts dst = d.asInts();
            final SymmetricInts src = s.asInts();
            for (int i = 0; i < N; i++)
            {
                src.setLocal(i, shmem.myPe());
                dst.setLocal(i, -1);
            }
            shmem.barrierAll();
            shmem.teamWorld().reduce(ReduceOp.SUM, dst, src, N);
            for (int i = 0; i < N; i++)
            {
                check.eq("shmem_malloc_with_hints", "ints " + java.util.Arrays.toString(hints), i, n * (n - 1) / 2, dst.getLocal(i));
            }
            shmem.barrierAll();
            shmem.free(d);
            shmem.free(s);
        }
    }
}
