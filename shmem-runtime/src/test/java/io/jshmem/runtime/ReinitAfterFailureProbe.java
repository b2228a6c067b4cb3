package io.jshmem.runtime;

import io.jshmem.JobFailedException;
import io.jshmem.Shmem;

/**
 * A PE for {@link ReinitAfterFailureIT}: PE 2 dies in the first init; the others see the job fail in a barrier, catch
 * it, close normally (a finalize after a known failure) and initialize again, which must be refused at once.
 */
public final class ReinitAfterFailureProbe
{
    private ReinitAfterFailureProbe()
    {
    }

    public static void main(final String[] args)
    {
        try (Shmem shmem = Shmem.init())
        {
            if (shmem.myPe() == 2)
            {
                Runtime.getRuntime().halt(3); // dies without a word
            }
            try
            {
                shmem.barrierAll();
                System.out.println("PASSED-BARRIER pe " + shmem.myPe()); // must never happen: PE 2 never entered it
            }
            catch (final JobFailedException expected)
            {
                System.out.println("FIRST-INIT-FAILED " + expected.getMessage());
            }
        } // reached normally: the finalize of a job known to have failed
        try (Shmem shmem = Shmem.init())
        {
            System.out.println("SECOND-INIT pe " + shmem.myPe()); // must never happen
        }
    }
}
