package io.jshmem.examples;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;

/**
 * OpenSHMEM 1.6 re-initialization: the job is initialized, used and finalized several times in the
 * same processes. Each round, every PE puts {@code round * 1000 + me} into its right neighbour's box,
 * takes an atomic ticket on PE 0 and checks what arrived after a barrier; a handle kept from the
 * previous round must fail as freed. Run: {@code bin/shmemrun -np 4 reinit [rounds [late-pe]]}
 * (3 rounds by default); with a late PE, that PE waits a second before each later init, and the
 * others' init waits for it.
 */
public final class Reinit
{
    private Reinit()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        final int late = args.length > 1 ? Integer.parseInt(args[1]) : -1;
        int myPe = -1;
        SymmetricLongs previous = null;
        for (int round = 1; round <= rounds; round++)
        {
            if (round > 1 && myPe == late)
            {
                Thread.sleep(1000);
            }
            final long start = System.nanoTime();
            try (Shmem shmem = Shmem.init())
            {
                final long initMs = (System.nanoTime() - start) / 1_000_000;
                final int me = shmem.myPe();
                final int n = shmem.nPes();
                check(myPe < 0 || me == myPe, "round " + round + ": PE " + me + " was PE " + myPe + " in round 1");
                myPe = me;
                final SymmetricLongs box = shmem.allocateLongs(2);
                shmem.p(box, 0, round * 1000L + me, (me + 1) % n);
                final long ticket = shmem.atomicFetchInc(box, 1, 0);
                shmem.barrierAll();
                final int left = (me + n - 1) % n;
                check(box.getLocal(0) == round * 1000L + left, "round " + round + ": got " + box.getLocal(0) + " from PE " + left);
                if (previous != null)
                {
                    boolean refused = false;
                    try
                    {
                        previous.getLocal(0);
                    }
                    catch (final IllegalStateException expected)
                    {
                        refused = true; // the previous round's objects died with its finalize
                    }
                    check(refused, "round " + round + ": a handle of round " + (round - 1) + " still reads");
                }
                previous = box; // not freed: finalize ends it
                System.out.printf("pe %d/%d round %d ok: init %d ms, got %d from the left, ticket %d%n", me, n, round, initMs,
                    box.getLocal(0), ticket);
            }
        }
        check(!Shmem.isInitialized(), "initialized after the last close");
    }

    private static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException(what);
        }
    }
}
