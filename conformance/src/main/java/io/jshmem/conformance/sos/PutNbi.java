package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * PE 0 sends ten longs to every PE (itself included) with {@code put_nbi}, then a fence and an atomic
 * increment of the PE's flag; each PE waits for its flag and then must see the data (the fence orders
 * the nbi put before the increment).
 */
public final class PutNbi implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/put_nbi.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put_nbi", "shmem_fence", "shmem_atomic_inc", "shmem_wait_until");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final long[] source = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        final SymmetricLongs target = shmem.allocateLongs(10);
        final SymmetricInts flag = shmem.allocateInts(1);
        shmem.barrierAll();
        if (shmem.myPe() == 0)
        {
            for (int pe = 0; pe < shmem.nPes(); pe++)
            {
                shmem.putNbi(target, 0, source, 0, 10, pe);
                shmem.fence();
                shmem.atomicInc(flag, 0, pe);
            }
        }
        flag.waitUntil(0, Cmp.EQ, 1);
        for (int i = 0; i < 10; i++)
        {
            check.eq("shmem_put_nbi", "longs", i, source[i], target.getLocal(i));
        }
        shmem.barrierAll();
        shmem.free(target);
        shmem.free(flag);
    }
}
