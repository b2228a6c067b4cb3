package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Every PE atomically sets flag me of every PE's zeroed int array to 1, then polls {@code test_all(EQ 1)}
 * with no status array (every element included) until it holds; every flag is then 1.
 */
public final class CxxShmemTestAll implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/cxx_shmem_test_all.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_test_all", "shmem_atomic_set", "shmem_calloc");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final var mem = shmem.calloc(n, 4);
        final SymmetricInts flags = mem.asInts();
        for (int pe = 0; pe < n; pe++)
        {
            shmem.atomicSet(flags, me, 1, pe);
        }
        final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
        while (!flags.testAll(null, Cmp.EQ, 1))
        {
            if (System.nanoTime() - deadline > 0)
            {
                check.fatal("test_all never became true");
            }
        }
        for (int i = 0; i < n; i++)
        {
            check.eq("shmem_test_all", "ints", i, 1, flags.getLocal(i));
        }
        shmem.barrierAll();
        shmem.free(mem);
    }
}
