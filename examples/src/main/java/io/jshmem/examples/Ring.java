package io.jshmem.examples;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricLongs;

/**
 * The ring of API.md: each PE writes its number into its right neighbour's box, takes a ticket from a
 * counter on PE 0 with an atomic, then passes a token around the ring with put-with-signal, each PE
 * adding its number, so PE 0 receives the sum of all PE numbers. Run: {@code bin/shmemrun -np 4 ring}.
 */
public final class Ring
{
    private Ring()
    {
    }

    public static void main(final String[] args)
    {
        try (Shmem shmem = Shmem.init())
        {
            final int me = shmem.myPe();
            final int n = shmem.nPes();
            final int right = (me + 1) % n;
            final SymmetricLongs box = shmem.allocateLongs(4); // collective, same offset on every PE

            shmem.p(box, 0, me, right);                        // shmem_long_p to the right neighbour
            shmem.barrierAll();                                // quiet + sync
            final long fromLeft = box.getLocal(0);

            final long ticket = shmem.atomicFetchInc(box, 1, 0); // a ticket from the counter on PE 0

            // The token: PE 0 starts it; each PE adds its number and passes it right with a signal.
            final long[] token = {0};
            if (me != 0)
            {
                box.signalWaitUntil(3, Cmp.EQ, 1);
                token[0] = box.getLocal(2);
            }
            token[0] += me;
            if (n > 1)
            {
                shmem.putSignal(box, 2, token, 0, 1, box, 3, 1, SignalOp.SET, right);
                if (me == 0)
                {
                    box.signalWaitUntil(3, Cmp.EQ, 1);
                    token[0] = box.getLocal(2);
                }
            }
            shmem.barrierAll();
            System.out.printf("pe %d/%d got %d from the left, ticket %d%s%n", me, n, fromLeft, ticket,
                me == 0 ? ", token sum " + token[0] + " (expected " + ((long)n * (n - 1) / 2) + ")" : "");
            if (me == 0 && token[0] != (long)n * (n - 1) / 2)
            {
                shmem.globalExit(1);
            }
            shmem.free(box);
        }
    }
}
