package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/** PE 0 swaps 1..10 into PE 1's target (11..20) one element at a time; PE 0 gets 11..20 back, PE 1 holds 1..10. */
public final class Swap1 implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/swap1.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_swap");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final long[] source = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        final SymmetricLongs target = shmem.allocateLongs(10);
        for (int i = 0; i < 10; i++)
        {
            target.setLocal(i, 11 + i);
        }
        shmem.barrierAll();
        if (shmem.myPe() == 0)
        {
            for (int i = 0; i < 10; i++)
            {
                source[i] = shmem.atomicSwap(target, i, source[i], 1);
            }
        }
        shmem.barrierAll();
        for (int i = 0; i < 10; i++)
        {
            if (shmem.myPe() == 0)
            {
                check.eq("shmem_atomic_swap", "longs fetched", i, 11 + i, source[i]);
            }
            else
            {
                check.eq("shmem_atomic_swap", "longs target", i, shmem.myPe() == 1 ? i + 1 : 11 + i, target.getLocal(i));
            }
        }
        shmem.barrierAll();
        shmem.free(target);
    }
}
