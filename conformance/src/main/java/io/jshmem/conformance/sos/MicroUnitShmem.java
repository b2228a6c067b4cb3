package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Small two-PE protocols, 7 iterations each, each on its own slot of the target, source and sync arrays:
 * p + fence in sequence (the last value wins), g after p + fence, atomic add and inc with fences
 * (the waiter sees iterations + 1), swap ping-pong (the parity of the iteration count decides who
 * ends with which value), compare-swap chains (0 → 1 → ... → iterations, each fetching the previous),
 * fetch_add and fetch_inc with fences (the last fetch returns the count before it). The original runs
 * only at exactly 2 PEs and silently passes otherwise; here PEs 0 and 1 run it at any count ≥ 2 and the
 * others only take part in the barriers.
 */
public final class MicroUnitShmem implements Program
{
    private static final int IT = 7;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/micro_unit_shmem.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_p", "shmem_g", "shmem_fence", "shmem_atomic_add", "shmem_atomic_inc", "shmem_atomic_swap",
            "shmem_atomic_compare_swap", "shmem_atomic_fetch_add", "shmem_atomic_fetch_inc", "shmem_wait_until");
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
        final SymmetricInts target = shmem.allocateInts(8);
        final SymmetricInts source = shmem.allocateInts(8);
        final SymmetricInts sync = shmem.allocateInts(8);
        for (int i = 0; i < 8; i++)
        {
            target.setLocal(i, -1);
            source.setLocal(i, -1);
            sync.setLocal(i, -1);
        }
        shmem.barrierAll();

        // put + fence
        if (me == 0)
        {
            for (int i = 1; i <= IT; i++)
            {
                shmem.p(target, 0, i, 1);
                shmem.fence();
            }
        }
        else if (me == 1)
        {
            target.waitUntil(0, Cmp.EQ, IT);
            check.eq("shmem_p", "ints putfence", 0, IT, target.getLocal(0));
        }
        shmem.barrierAll();

        // get
        if (me == 1)
        {
            shmem.p(source, 0, IT, 0);
            shmem.fence();
            int got = -1;
            for (int i = 0; i < IT; i++)
            {
                got = shmem.g(source, 0, 0);
            }
            shmem.p(sync, 0, IT, 0);
            check.eq("shmem_g", "ints gettest", 1, IT, got);
        }
        else if (me == 0)
        {
            sync.waitUntil(0, Cmp.EQ, IT);
        }
        shmem.barrierAll();

        // atomic add (PE 1 → PE 0) and inc (PE 0 → PE 1)
        target.setLocal(2, 0);
        target.setLocal(3, 0);
        shmem.barrierAll();
        if (me == 1)
        {
            for (int i = 0; i <= IT; i++)
            {
                shmem.atomicAdd(target, 2, 1, 0);
                shmem.fence();
            }
            target.waitUntil(3, Cmp.EQ, IT + 1);
            check.eq("shmem_atomic_inc", "ints", 3, IT + 1, target.getLocal(3));
        }
        else if (me == 0)
        {
            for (int i = 0; i <= IT; i++)
            {
                shmem.atomicInc(target, 3, 1);
                shmem.fence();
            }
            target.waitUntil(2, Cmp.EQ, IT + 1);
            check.eq("shmem_atomic_add", "ints", 2, IT + 1, target.getLocal(2));
        }
        shmem.barrierAll();

        // swap
        target.setLocal(4, 5);
        source.setLocal(4, 2);
        shmem.barrierAll();
        if (me == 0)
        {
            int s = 2;
            for (int i = 0; i < IT; i++)
            {
                s = shmem.atomicSwap(target, 4, s, 1);
            }
            shmem.p(sync, 4, IT, 1);
            check.eq("shmem_atomic_swap", "ints fetched", 4, IT % 2 == 1 ? 5 : 2, s);
        }
        else if (me == 1)
        {
            sync.waitUntil(4, Cmp.EQ, IT);
            check.eq("shmem_atomic_swap", "ints target", 4, IT % 2 == 1 ? 2 : 5, target.getLocal(4));
        }
        shmem.barrierAll();

        // compare-swap chain (PE 1 on PE 0)
        target.setLocal(5, 0);
        shmem.barrierAll();
        if (me == 1)
        {
            int s = -100;
            for (int i = 0; i < IT; i++)
            {
                s = shmem.atomicCompareSwap(target, 5, i, i + 1, 0);
            }
            shmem.p(sync, 5, IT, 0);
            check.eq("shmem_atomic_compare_swap", "ints fetched", 5, IT - 1, s);
        }
        else if (me == 0)
        {
            sync.waitUntil(5, Cmp.EQ, IT);
            check.eq("shmem_atomic_compare_swap", "ints target", 5, IT, target.getLocal(5));
        }
        shmem.barrierAll();

        // fetch_add (PE 0 on PE 1) and fetch_inc (PE 1 on PE 0)
        target.setLocal(6, 0);
        target.setLocal(7, 0);
        shmem.barrierAll();
        if (me == 0)
        {
            int s = -1;
            for (int i = 0; i <= IT; i++)
            {
                s = shmem.atomicFetchAdd(target, 6, 1, 1);
                shmem.fence();
            }
            check.eq("shmem_atomic_fetch_add", "ints fetched", 6, IT, s);
            target.waitUntil(7, Cmp.EQ, IT);
        }
        else if (me == 1)
        {
            int s = -1;
            for (int i = 0; i < IT; i++)
            {
                s = shmem.atomicFetchInc(target, 7, 0);
                shmem.fence();
            }
            check.eq("shmem_atomic_fetch_inc", "ints fetched", 7, IT - 1, s);
            target.waitUntil(6, Cmp.EQ, IT + 1);
        }
        shmem.barrierAll();
        shmem.free(sync);
        shmem.free(source);
        shmem.free(target);
    }
}
