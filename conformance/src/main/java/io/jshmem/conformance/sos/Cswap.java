package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Five rounds: every PE allocates one int and one long and stores 4 (ints) or 8 (longs); PE 0 then, on
 * PE 1: compare-swaps (value → 0), which must fetch the old value and leave 0; compare-swaps (0 →
 * old) back; and a compare-swap with a false condition (0 → 0), which must fetch the value and leave it.
 * The other PEs check the objects are accessible from PE 0. C's long long is a Java long.
 */
public final class Cswap implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/cswap.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_compare_swap", "shmem_g", "shmem_addr_accessible", "shmem_malloc", "shmem_free");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final String r = "shmem_atomic_compare_swap";
        for (int loop = 0; loop < 5; loop++)
        {
            for (final Word w : Word.ALL)
            {
                final long v = w == Word.INTS ? 4 : 8;
                final SymmetricArray<?> src = w.allocate(shmem, 1);
                w.setLocal(src, 0, v);
                shmem.barrierAll();
                if (shmem.myPe() == 0)
                {
                    check.eq("shmem_g", w.name(), 0, v, w.atomic(shmem, AtomicOp.FETCH, src, 0, 0, 0, 1));
                    long old = w.atomic(shmem, AtomicOp.COMPARE_SWAP, src, 0, 0, w.local(src, 0), 1);
                    check.eq(r, w.name() + " fetched", 0, v, old);
                    check.eq(r, w.name() + " remote", 0, 0, w.atomic(shmem, AtomicOp.FETCH, src, 0, 0, 0, 1));
                    old = w.atomic(shmem, AtomicOp.COMPARE_SWAP, src, 0, old, 0, 1);
                    check.eq(r, w.name() + " fetched", 1, 0, old);
                    check.eq(r, w.name() + " remote", 1, v, w.atomic(shmem, AtomicOp.FETCH, src, 0, 0, 0, 1));
                    old = w.atomic(shmem, AtomicOp.COMPARE_SWAP, src, 0, 0, 0, 1);
                    check.eq(r, w.name() + " no-swap fetched", 2, v, old);
                    check.eq(r, w.name() + " no-swap remote", 2, v, w.atomic(shmem, AtomicOp.FETCH, src, 0, 0, 0, 1));
                }
                else
                {
                    check.isTrue(shmem.addrAccessible(src, 0), "shmem_addr_accessible", w.name() + " from pe 0");
                }
                shmem.barrierAll();
                shmem.free(src);
            }
        }
    }
}
