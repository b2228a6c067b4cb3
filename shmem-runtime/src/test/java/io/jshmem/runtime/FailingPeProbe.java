package io.jshmem.runtime;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;

/**
 * A PE for FailFastFinalizeIT: the README's pattern, where the PE named by {@code args[0]} throws
 * inside {@code try (Shmem shmem = Shmem.init())} while the others enter a barrier.
 */
public final class FailingPeProbe
{
    private FailingPeProbe()
    {
    }

    public static void main(final String[] args)
    {
        final int failing = Integer.parseInt(args[0]);
        try (Shmem shmem = Shmem.init())
        {
            final SymmetricLongs box = shmem.allocateLongs(1);
            if (shmem.myPe() == failing)
            {
                throw new IllegalStateException("pe " + failing + " failed on purpose");
            }
            shmem.barrierAll();
            System.out.println("PASSED-BARRIER pe " + shmem.myPe()); // must never happen: pe 'failing' never entered it
            shmem.barrierAll();
            shmem.free(box);
        }
    }
}
