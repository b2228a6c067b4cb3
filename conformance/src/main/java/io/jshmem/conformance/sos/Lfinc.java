package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Every PE fetch-increments the middle of three zeroed longs on its right neighbour many times; the j-th
 * fetch must return j (only this PE touches that word), the word ends at the loop count and its two
 * neighbours stay zero. The original's 25 000 loops (a latency run) become 5 000.
 */
public final class Lfinc implements Program
{
    private static final int LOOPS = 5000;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/lfinc.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_fetch_inc");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricLongs data = shmem.allocateLongs(3);
        shmem.barrierAll();
        final int right = (shmem.myPe() + 1) % shmem.nPes();
        for (int j = 0; j < LOOPS; j++)
        {
            final long v = shmem.atomicFetchInc(data, 1, right);
            if (!check.eq("shmem_atomic_fetch_inc", "longs fetched", j, j, v))
            {
                break;
            }
        }
        shmem.barrierAll();
        check.eq("shmem_atomic_fetch_inc", "longs", 1, LOOPS, data.getLocal(1));
        check.eq("shmem_atomic_fetch_inc", "longs untouched", 0, 0, data.getLocal(0));
        check.eq("shmem_atomic_fetch_inc", "longs untouched", 2, 0, data.getLocal(2));
        shmem.barrierAll();
        shmem.free(data);
    }
}
