package io.jshmem.conformance.jobs;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;

/**
 * A barrier-heavy loop: in iteration i every PE puts {@code i * n + me} into slot {@code i % 2} of its
 * right neighbour, barriers, and checks what its left neighbour put (the slots alternate so a fast
 * PE's next put cannot overwrite a value not yet read). Prints the time per barrier. Exit 0 or 1.
 */
public final class BarrierLoop
{
    private BarrierLoop()
    {
    }

    /** @param args iterations (default 2000). */
    public static void main(final String[] args)
    {
        final int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int bad = 0;
        final int me;
        final int n;
        final long ns;
        try (Shmem s = Shmem.init())
        {
            me = s.myPe();
            n = s.nPes();
            final int right = (me + 1) % n;
            final int left = (me + n - 1) % n;
            final SymmetricLongs slot = s.allocateLongs(2);
            s.barrierAll();
            final long start = System.nanoTime();
            for (int i = 0; i < iterations; i++)
            {
                s.p(slot, i & 1, (long)i * n + me, right);
                s.barrierAll();
                final long got = slot.getLocal(i & 1);
                if (got != (long)i * n + left && bad++ < 10)
                {
                    System.out.println("FAIL [pe " + me + "/" + n + "] BarrierLoop p+barrierAll: iteration=" + i +
                        " expected=" + ((long)i * n + left) + " actual=" + got);
                }
            }
            ns = System.nanoTime() - start;
            s.free(slot);
        }
        System.out.printf("%s [pe %d/%d] BarrierLoop: %d iterations of p + barrierAll in %d ms (%.1f us each), %d wrong%n",
            bad == 0 ? "PASS" : "FAIL", me, n, iterations, ns / 1_000_000, ns / 1e3 / iterations, bad);
        System.exit(bad == 0 ? 0 : 1);
    }
}
