package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Ten rounds: every PE zeroes its counter, a barrier, every PE increments every PE's counter, waits
 * until its own reaches n, a barrier, and the counter is exactly n.
 */
public final class AtomicInc implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/atomic_inc.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_inc", "shmem_wait_until", "shmem_barrier_all");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final SymmetricInts count = shmem.allocateInts(1);
        for (int loop = 1; loop <= 10; loop++)
        {
            count.setLocal(0, 0);
            shmem.barrierAll();
            for (int pe = 0; pe < n; pe++)
            {
                shmem.atomicInc(count, 0, pe);
            }
            count.waitUntil(0, Cmp.GE, n);
            shmem.barrierAll();
            check.eq("shmem_atomic_inc", "ints loop " + loop, 0, n, count.getLocal(0));
        }
        shmem.barrierAll();
        shmem.free(count);
    }
}
