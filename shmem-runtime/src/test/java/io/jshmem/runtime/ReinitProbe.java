package io.jshmem.runtime;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;

/**
 * A PE for ReinitIT: {@code args[0]} inits, each followed by its last close (OpenSHMEM 1.6). In each,
 * a put to the right neighbour, an atomic add on PE 0 and a barrier are checked, and the handle of
 * the previous init must fail as freed. The PE whose launcher rank is {@code args[1]} waits 1.5 s
 * before each init after the first, so the others come early. Prints {@code PE r init g ok} per init;
 * any wrong value throws (exit status 1).
 */
public final class ReinitProbe
{
    private ReinitProbe()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final int inits = Integer.parseInt(args[0]);
        final int slow = Integer.parseInt(args[1]);
        final int rank = Integer.parseInt(System.getenv("RANK"));
        SymmetricLongs previous = null;
        for (int init = 1; init <= inits; init++)
        {
            if (Shmem.isInitialized())
            {
                throw new IllegalStateException("isInitialized true before init " + init);
            }
            if (init > 1 && rank == slow)
            {
                Thread.sleep(1500);
            }
            try (Shmem shmem = Shmem.init())
            {
                final int me = shmem.myPe();
                final int n = shmem.nPes();
                check(me == rank, "init " + init + ": myPe " + me + " but RANK " + rank);
                final SymmetricLongs box = shmem.allocateLongs(2);
                shmem.p(box, 0, init * 1000L + me, (me + 1) % n);
                shmem.atomicAdd(box, 1, 1L, 0);
                shmem.barrierAll();
                final int left = (me + n - 1) % n;
                check(box.getLocal(0) == init * 1000L + left, "init " + init + ": got " + box.getLocal(0) + " from PE " + left);
                check(me != 0 || box.getLocal(1) == n, "init " + init + ": atomic adds " + box.getLocal(1) + " of " + n);
                if (previous != null)
                {
                    try
                    {
                        previous.getLocal(0);
                        check(false, "init " + init + ": a handle of init " + (init - 1) + " still reads");
                    }
                    catch (final IllegalArgumentException expected)
                    {
                        check(expected.getMessage().contains("freed"), expected.getMessage());
                    }
                }
                previous = box; // not freed: it dies with this init's finalize
                System.out.println("PE " + me + " init " + init + " ok");
            }
        }
        check(!Shmem.isInitialized(), "isInitialized true after the last close");
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException(what);
        }
    }
}
