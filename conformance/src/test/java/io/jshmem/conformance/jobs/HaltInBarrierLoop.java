package io.jshmem.conformance.jobs;

import io.jshmem.JobFailedException;
import io.jshmem.Shmem;

/**
 * A barrier loop in which the last PE kills itself ({@code Runtime.halt(9)}, no shutdown hooks, no
 * goodbye) at iteration 200. The others must fail fast with a {@link JobFailedException}: they print
 * {@code caught JobFailedException} and exit 3. A PE that finishes the loop exits 1 (impossible).
 */
public final class HaltInBarrierLoop
{
    private HaltInBarrierLoop()
    {
    }

    /** @param args unused. */
    public static void main(final String[] args)
    {
        final Shmem s = Shmem.init();
        final int victim = s.nPes() - 1;
        final long start = System.nanoTime();
        try
        {
            for (int i = 0; i < 1_000_000; i++)
            {
                if (i == 200 && s.myPe() == victim)
                {
                    System.out.println("[HaltInBarrierLoop] pe " + victim + " halts at iteration " + i);
                    System.out.flush();
                    Runtime.getRuntime().halt(9);
                }
                s.barrierAll();
            }
            System.out.println("FAIL [pe " + s.myPe() + "] finished 1000000 barriers although pe " + victim + " died");
            System.exit(1);
        }
        catch (final JobFailedException ex)
        {
            System.out.printf("[HaltInBarrierLoop] pe %d caught JobFailedException after %d ms: %s (lostPe=%d)%n",
                s.myPe(), (System.nanoTime() - start) / 1_000_000, ex.getMessage(), ex.lostPe());
            System.out.flush();
            System.exit(3);
        }
    }
}
