package io.jshmem.runtime;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;

/** A PE for multi-JVM tests: initializes, does one put + barrier round, prints its verdict. */
public final class InitProbe
{
    private InitProbe()
    {
    }

    public static void main(final String[] args)
    {
        try (Shmem shmem = Shmem.init())
        {
            final SymmetricLongs box = shmem.allocateLongs(1);
            shmem.p(box, 0, shmem.myPe() + 1L, (shmem.myPe() + 1) % shmem.nPes());
            shmem.barrierAll();
            final long expected = (shmem.myPe() + shmem.nPes() - 1) % shmem.nPes() + 1L;
            if (box.getLocal(0) != expected)
            {
                System.out.println("PROBE-FAIL got " + box.getLocal(0) + " expected " + expected);
                System.exit(1);
            }
            System.out.println("PROBE-OK pe " + shmem.myPe() + "/" + shmem.nPes());
        }
    }
}
