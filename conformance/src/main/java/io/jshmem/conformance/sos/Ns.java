package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * 50 laps of allocate, swap, free: each lap every PE allocates one long (set to −1 − me here, the
 * original leaves it undefined), and every odd PE swaps its number into its right neighbour's; the
 * swap returns the neighbour's initial value and, after a barrier, the neighbour holds the odd PE's
 * number (unless the neighbour is the odd PE itself or was swapped by nobody).
 */
public final class Ns implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/ns.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_swap", "shmem_malloc", "shmem_free");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        for (int lap = 0; lap < 50; lap++)
        {
            final SymmetricLongs target = shmem.malloc(8).asLongs();
            target.setLocal(0, -1 - me);
            shmem.barrierAll();
            if ((me & 1) != 0)
            {
                check.eq("shmem_atomic_swap", "longs fetched", lap, -1 - right, shmem.atomicSwap(target, 0, me, right));
            }
            shmem.barrierAll();
            final long expected = (left & 1) != 0 ? left : -1 - me;
            check.eq("shmem_atomic_swap", "longs target", lap, expected, target.getLocal(0));
            shmem.free(target);
        }
    }
}
