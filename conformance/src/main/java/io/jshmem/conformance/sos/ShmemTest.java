package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Every PE writes me + 1 into word me of every PE's zeroed array with {@code p}; each PE then finds
 * the words one at a time by cycling {@code test(NE 0)} over the array, checks word w holds w + 1 and
 * clears it, until it has received from every PE.
 */
public final class ShmemTest implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/shmem_test.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_test", "shmem_p", "shmem_calloc");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final var mem = shmem.calloc(n, 8);
        final SymmetricLongs vars = mem.asLongs();
        for (int pe = 0; pe < n; pe++)
        {
            shmem.p(vars, me, me + 1, pe);
        }
        final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
        int idx = 0;
        for (int received = 0; received < n; received++)
        {
            while (!vars.test(idx, Cmp.NE, 0))
            {
                idx = (idx + 1) % n;
                if (System.nanoTime() - deadline > 0)
                {
                    check.fatal("shmem_test: only " + received + " of " + n + " words arrived");
                }
            }
            check.eq("shmem_test", "longs", idx, idx + 1, vars.getLocal(idx));
            vars.setLocal(idx, 0);
        }
        shmem.barrierAll();
        shmem.free(mem);
    }
}
