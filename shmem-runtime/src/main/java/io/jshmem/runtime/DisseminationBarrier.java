package io.jshmem.runtime;

import io.jshmem.spi.SymmetricSpace;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A dissemination barrier (Hensgen, Finkel and Manber) over the symmetric heap: ceil(log2 N) rounds; in
 * round k a PE stores the barrier's epoch into word k of PE (me + 2^k) mod N and waits for its own word
 * k to reach the epoch. Each word has exactly one writer, and epochs only grow, so words never need
 * resetting and a fast PE's next barrier cannot be mistaken for this one. Words sit on their own cache
 * lines. It only synchronizes: callers that must complete operations quiet first (barrier_all).
 * <p>
 * Threads: one barrier at a time per PE (the spec's rule for collectives on a team).
 */
final class DisseminationBarrier
{
    /** Bytes between the sync words (one cache line each). */
    static final long WORD_STRIDE = 64;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment[] heaps;
    private final SymmetricSpace space;
    private final int me;
    private final int n;
    private final long syncOffset;
    private long epoch;

    DisseminationBarrier(final MemorySegment[] heaps, final SymmetricSpace space, final long syncOffset)
    {
        this.heaps = heaps;
        this.space = space;
        this.me = space.myPe();
        this.n = space.nPes();
        this.syncOffset = syncOffset;
    }

    /** @return bytes of sync words a barrier over n PEs needs (at least one word). */
    static long regionBytes(final int n)
    {
        return Math.max(1, rounds(n)) * WORD_STRIDE;
    }

    static int rounds(final int n)
    {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    void sync()
    {
        final long e = ++epoch;
        final MemorySegment mine = heaps[me];
        long word = syncOffset;
        for (int dist = 1; dist < n; dist <<= 1, word += WORD_STRIDE)
        {
            // Release: everything this PE did before the barrier is visible to the peer that acquires the epoch.
            LONG.setRelease(heaps[(me + dist) % n], word, e);
            if ((long)LONG.getAcquire(mine, word) < e)
            {
                int idle = 0;
                do
                {
                    idle = space.idle(idle);
                }
                while ((long)LONG.getAcquire(mine, word) < e);
            }
        }
    }
}
