package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLock;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * The procedure of tests-sos {@code set_lock.c} and {@code test_lock.c}: 40 rounds; in each, every PE
 * zeroes its counter, a barrier, then takes the lock (blocking set, or by polling test), adds 1 to every
 * PE's counter while holding it, clears it, and waits until its own counter reaches n; after a barrier
 * the counter is exactly n. A lock that let two PEs in at once would still total n, so the port also
 * keeps an owner word on PE 0: each holder swaps its number in (expecting −1) and back out.
 */
abstract class LockCase implements Program
{
    private final boolean polling;

    LockCase(final boolean polling)
    {
        this.polling = polling;
    }

    @Override
    public final List<String> routines()
    {
        return List.of(polling ? "shmem_test_lock" : "shmem_set_lock", "shmem_clear_lock", "shmem_atomic_add", "shmem_wait_until");
    }

    @Override
    public final int minPes()
    {
        return 2;
    }

    @Override
    public final void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final String r = polling ? "shmem_test_lock" : "shmem_set_lock";
        final SymmetricLock lock = shmem.allocateLock();
        final SymmetricInts count = shmem.allocateInts(1);
        final SymmetricInts owner = shmem.allocateInts(1);
        owner.setLocal(0, -1);
        for (int loop = 1; loop <= 40; loop++)
        {
            count.setLocal(0, 0);
            shmem.barrierAll();
            if (polling)
            {
                final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
                while (!lock.test())
                {
                    if (System.nanoTime() - deadline > 0)
                    {
                        check.fatal("test_lock never succeeded");
                    }
                }
            }
            else
            {
                lock.set();
            }
            check.eq(r, "owner before", loop, -1, shmem.atomicSwap(owner, 0, me, 0));
            for (int pe = 0; pe < n; pe++)
            {
                shmem.atomicAdd(count, 0, 1, pe);
            }
            check.eq(r, "owner after", loop, me, shmem.atomicSwap(owner, 0, -1, 0));
            lock.clear();
            count.waitUntil(0, Cmp.GE, n);
            shmem.barrierAll();
            check.eq(r, "ints count", loop, n, count.getLocal(0));
        }
        shmem.barrierAll();
        shmem.free(owner);
        shmem.free(count);
        shmem.free(lock);
    }
}
