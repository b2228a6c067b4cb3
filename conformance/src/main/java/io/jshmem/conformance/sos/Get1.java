package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/** PE 0 gets ten longs from PE 1's symmetric source and compares them with its own copy. */
public final class Get1 implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/get1.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_get", "shmem_barrier_all");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricLongs source = shmem.allocateLongs(10);
        for (int i = 0; i < 10; i++)
        {
            source.setLocal(i, i + 1);
        }
        shmem.barrierAll();
        if (shmem.myPe() == 0)
        {
            final long[] target = new long[10];
            shmem.get(target, 0, source, 0, 10, 1);
            for (int i = 0; i < 10; i++)
            {
                check.eq("shmem_get", "longs", i, i + 1, target[i]);
            }
        }
        shmem.barrierAll();
        shmem.free(source);
    }
}
