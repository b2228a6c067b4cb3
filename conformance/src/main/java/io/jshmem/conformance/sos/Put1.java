package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/** PE 0 puts ten longs into PE 1's symmetric target; after a barrier PE 1 finds them. */
public final class Put1 implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/put1.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put", "shmem_barrier_all");
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
        if (shmem.myPe() == 0)
        {
            shmem.put(target, 0, source, 0, 10, 1);
        }
        shmem.barrierAll();
        if (shmem.myPe() == 1)
        {
            for (int i = 0; i < 10; i++)
            {
                check.eq("shmem_put", "longs", i, source[i], target.getLocal(i));
            }
        }
        shmem.barrierAll();
        shmem.free(target);
    }
}
