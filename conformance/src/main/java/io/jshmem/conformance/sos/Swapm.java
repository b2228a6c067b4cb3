package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricFloats;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Ten rounds: every PE allocates, per type, an array of n sources (ints 4, floats 4.0, doubles 8.0,
 * longs 8, and longs 16 for C's long long). The other PEs check the arrays are accessible from PE 0.
 * PE 0 swaps 0 into element j of PE j (j ≥ 1), which must fetch the initial value; PE j waits for its
 * element to become 0 (ints and longs); PE 0 reads it back with g, swaps the old value back (fetching
 * 0) and reads it again.
 */
public final class Swapm implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/swapm.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_swap", "shmem_g", "shmem_wait_until", "shmem_addr_accessible", "shmem_quiet");
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
        final String r = "shmem_atomic_swap";
        for (int loop = 0; loop < 10; loop++)
        {
            final SymmetricInts si = shmem.allocateInts(n);
            final SymmetricFloats sf = shmem.allocateFloats(n);
            final SymmetricDoubles sd = shmem.allocateDoubles(n);
            final SymmetricLongs sl = shmem.allocateLongs(n);
            final SymmetricLongs sll = shmem.allocateLongs(n);
            for (int j = 0; j < n; j++)
            {
                si.setLocal(j, 4);
                sf.segment().setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, j, 4f);
                sd.segment().setAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, j, 8.0);
                sl.setLocal(j, 8);
                sll.setLocal(j, 16);
            }
            shmem.barrierAll();
            if (me != 0)
            {
                check.isTrue(shmem.addrAccessible(si, 0) && shmem.addrAccessible(sf, 0) && shmem.addrAccessible(sd, 0) &&
                    shmem.addrAccessible(sl, 0) && shmem.addrAccessible(sll, 0), "shmem_addr_accessible", "sources from pe 0");
            }
            shmem.barrierAll();
            if (me == 0)
            {
                shmem.quiet();
                for (int j = 1; j < n; j++)
                {
                    check.eq(r, "ints fetched", j, 4, shmem.atomicSwap(si, j, 0, j));
                }
                shmem.barrierAll();
                for (int j = 1; j < n; j++)
                {
                    check.eq("shmem_g", "ints", j, 0, shmem.g(si, j, j));
                    check.eq(r, "ints fetched back", j, 0, shmem.atomicSwap(si, j, 4, j));
                    check.eq("shmem_g", "ints", j, 4, shmem.g(si, j, j));
                }
                for (int j = 1; j < n; j++)
                {
                    check.isTrue(shmem.atomicSwap(sf, j, 0f, j) == 4f, r, "floats fetched from pe " + j);
                    check.isTrue(shmem.g(sf, j, j) == 0f, "shmem_g", "floats at pe " + j);
                    check.isTrue(shmem.atomicSwap(sf, j, 4f, j) == 0f, r, "floats fetched back from pe " + j);
                    check.isTrue(shmem.g(sf, j, j) == 4f, "shmem_g", "floats at pe " + j);
                    check.isTrue(shmem.atomicSwap(sd, j, 0.0, j) == 8.0, r, "doubles fetched from pe " + j);
                    check.isTrue(shmem.g(sd, j, j) == 0.0, "shmem_g", "doubles at pe " + j);
                    check.isTrue(shmem.atomicSwap(sd, j, 8.0, j) == 0.0, r, "doubles fetched back from pe " + j);
                    check.isTrue(shmem.g(sd, j, j) == 8.0, "shmem_g", "doubles at pe " + j);
                }
                for (final SymmetricLongs s : List.of(sl, sll))
                {
                    final long v = s == sl ? 8 : 16;
                    for (int j = 1; j < n; j++)
                    {
                        check.eq(r, "longs fetched", j, v, shmem.atomicSwap(s, j, 0, j));
                    }
                    shmem.barrierAll();
                    for (int j = 1; j < n; j++)
                    {
                        check.eq("shmem_g", "longs", j, 0, shmem.g(s, j, j));
                        check.eq(r, "longs fetched back", j, 0, shmem.atomicSwap(s, j, v, j));
                        check.eq("shmem_g", "longs", j, v, shmem.g(s, j, j));
                    }
                }
            }
            else
            {
                si.waitUntil(me, Cmp.EQ, 0);
                shmem.barrierAll();
                sl.waitUntil(me, Cmp.EQ, 0);
                shmem.barrierAll();
                sll.waitUntil(me, Cmp.EQ, 0);
                shmem.barrierAll();
            }
            shmem.barrierAll();
            shmem.free(si);
            shmem.free(sf);
            shmem.free(sd);
            shmem.free(sl);
            shmem.free(sll);
        }
    }
}
