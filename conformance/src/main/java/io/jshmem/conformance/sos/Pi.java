package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Monte Carlo π: every PE throws 10 000 points (seeded by its number) and counts those inside the unit
 * circle; PE 0 gets every other PE's two counters with get, sums them, and the estimate must be within
 * 0.1 of π. The port also checks the totals equal n × 10 000.
 */
public final class Pi implements Program
{
    private static final int POINTS = 10_000;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/pi.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_get", "shmem_barrier_all");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricLongs counts = shmem.allocateLongs(2);
        final SplittableRandom random = new SplittableRandom(1 + shmem.myPe());
        long inside = 0;
        for (int i = 0; i < POINTS; i++)
        {
            final double x = random.nextDouble();
            final double y = random.nextDouble();
            if (x * x + y * y < 1)
            {
                inside++;
            }
        }
        counts.setLocal(0, inside);
        counts.setLocal(1, POINTS);
        shmem.barrierAll();
        if (shmem.myPe() == 0)
        {
            long in = inside;
            long total = POINTS;
            final long[] remote = new long[2];
            for (int pe = 1; pe < shmem.nPes(); pe++)
            {
                shmem.get(remote, 0, counts, 0, 2, pe);
                in += remote[0];
                total += remote[1];
            }
            check.eq("shmem_get", "total", 0, (long)shmem.nPes() * POINTS, total);
            final double pi = 4.0 * in / total;
            check.isTrue(Math.abs(Math.PI - pi) <= 0.1, "shmem_get", "pi estimate " + pi);
        }
        shmem.barrierAll();
        shmem.free(counts);
    }
}
