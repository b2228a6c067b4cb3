package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricFloats;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricShorts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Repeatedly allocates one short, int, float, double and long per PE, stores 2, 4, 4.0, 8.0, 8, and
 * reads each from every PE with {@code g} after checking the object is accessible there; then frees.
 */
public final class GetG implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/get_g.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_g", "shmem_addr_accessible", "shmem_malloc", "shmem_free");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final int loops = Math.max(5, 100 / n);
        for (int l = 0; l < loops; l++)
        {
            final SymmetricShorts s = shmem.malloc(2).asShorts();
            final SymmetricInts i = shmem.malloc(4).asInts();
            final SymmetricFloats f = shmem.malloc(4).asFloats();
            final SymmetricDoubles d = shmem.malloc(8).asDoubles();
            final SymmetricLongs lo = shmem.malloc(8).asLongs();
            s.segment().set(java.lang.foreign.ValueLayout.JAVA_SHORT, 0, (short)2);
            i.setLocal(0, 4);
            f.segment().set(java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, 4.0f);
            d.segment().set(java.lang.foreign.ValueLayout.JAVA_DOUBLE, 0, 8.0);
            lo.setLocal(0, 8);
            shmem.barrierAll();
            for (int pe = 0; pe < n; pe++)
            {
                check.isTrue(shmem.addrAccessible(s, pe), "shmem_addr_accessible", "pe=" + pe);
                check.eq("shmem_g", "short", pe, 2, shmem.g(s, 0, pe));
                check.eq("shmem_g", "int", pe, 4, shmem.g(i, 0, pe));
                check.isTrue(shmem.g(f, 0, pe) == 4.0f, "shmem_g", "float from pe " + pe);
                check.isTrue(shmem.g(d, 0, pe) == 8.0, "shmem_g", "double from pe " + pe);
                check.eq("shmem_g", "long", pe, 8, shmem.g(lo, 0, pe));
            }
            shmem.barrierAll();
            shmem.free(s);
            shmem.free(i);
            shmem.free(f);
            shmem.free(d);
            shmem.free(lo);
        }
    }
}
