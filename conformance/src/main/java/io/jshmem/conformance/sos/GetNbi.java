package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.Arrays;
import java.util.List;

/** PE 0 gets ten longs from every PE with {@code get_nbi}; after {@code quiet} they are in place. */
public final class GetNbi implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/get_nbi.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_get_nbi", "shmem_quiet");
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
            for (int pe = 0; pe < shmem.nPes(); pe++)
            {
                Arrays.fill(target, 0);
                shmem.getNbi(target, 0, source, 0, 10, pe);
                shmem.quiet();
                for (int i = 0; i < 10; i++)
                {
                    check.eq("shmem_get_nbi", "longs from pe " + pe, i, i + 1, target[i]);
                }
            }
        }
        shmem.barrierAll();
        shmem.free(source);
    }
}
