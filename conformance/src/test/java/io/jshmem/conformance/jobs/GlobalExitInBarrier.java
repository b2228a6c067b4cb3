package io.jshmem.conformance.jobs;

import io.jshmem.Shmem;

/**
 * The last PE calls {@code globalExit(5)} while every other PE is blocked in a barrier it will never
 * complete; the job must end with status 5. A PE that leaves the barrier prints so and exits 1.
 */
public final class GlobalExitInBarrier
{
    private GlobalExitInBarrier()
    {
    }

    /** @param args unused. */
    public static void main(final String[] args) throws InterruptedException
    {
        final Shmem s = Shmem.init();
        s.barrierAll();
        if (s.myPe() == s.nPes() - 1)
        {
            Thread.sleep(500); // let the others block first
            System.out.println("[GlobalExitInBarrier] pe " + s.myPe() + " calls globalExit(5)");
            System.out.flush();
            s.globalExit(5);
            System.out.println("FAIL globalExit returned");
            System.exit(1);
        }
        try
        {
            s.barrierAll();
            System.out.println("FAIL [pe " + s.myPe() + "] left a barrier the last PE never entered");
        }
        catch (final RuntimeException ex)
        {
            System.out.println("[GlobalExitInBarrier] pe " + s.myPe() + " barrier ended by: " + ex);
        }
        System.exit(1);
    }
}
