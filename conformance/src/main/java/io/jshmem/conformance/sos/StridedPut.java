package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricShorts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * PE 0 puts source elements 0, 2, 4, 6, 8 into PE 1's contiguous target with a strided put. The
 * original runs only at exactly 2 PEs (and silently passes otherwise); the port runs between PE 0 and
 * PE 1 at any PE count ≥ 2 and checks that no other PE's target changed.
 */
public final class StridedPut implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/strided_put.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_iput");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final short[] source = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        final SymmetricShorts target = shmem.allocateShorts(10);
        shmem.barrierAll();
        if (shmem.myPe() == 0)
        {
            shmem.iput(target, 0, 1, source, 0, 2, 5, 1);
        }
        shmem.barrierAll();
        for (int i = 0; i < 10; i++)
        {
            final int expected = shmem.myPe() == 1 && i < 5 ? source[2 * i] : 0;
            check.eq("shmem_iput", "shorts", i, expected, target.segment().getAtIndex(ValueLayout.JAVA_SHORT, i));
        }
        shmem.barrierAll();
        shmem.free(target);
    }
}
