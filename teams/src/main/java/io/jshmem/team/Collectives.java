package io.jshmem.team;

import io.jshmem.SymmetricArray;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Team sync, broadcast, collect/fcollect and alltoall(s), each in more than one algorithm, written
 * against {@link Channel}'s put/fence/signal/wait. Data moves straight into the members' {@code dest}
 * (the spec requires every member's dest to be ready for overwriting when the collective starts), so
 * these need no scratch. Ranks are team ranks. Each method runs one phase ({@link Channel#next()}
 * called by the caller).
 */
final class Collectives
{
    private Collectives()
    {
    }

    // ------------------------------------------------------------------ sync

    /** Flat: everyone tells rank 0, rank 0 releases everyone. 2(N-1) messages, 2 latencies. */
    static void syncLinear(final Channel c)
    {
        if (c.size == 1)
        {
            return;
        }
        if (c.me == 0)
        {
            for (int r = 1; r < c.size; r++)
            {
                c.await(r, 0);
            }
            for (int r = 1; r < c.size; r++)
            {
                c.signal(r, 1);
            }
        }
        else
        {
            c.signal(0, 0);
            c.await(0, 1);
        }
    }

    /** Dissemination (Hensgen, Finkel, Manber): ceil(log2 N) rounds, in round k signal me+2^k, wait for me-2^k. */
    static void syncDissemination(final Channel c)
    {
        for (int dist = 1; dist < c.size; dist <<= 1)
        {
            c.signal((c.me + dist) % c.size, 0);
            c.await((c.me - dist + c.size) % c.size, 0);
        }
    }

    // ------------------------------------------------------------------ broadcast

    /** The root puts to every member. */
    static void broadcastLinear(final Channel c, final SymmetricArray<?> dest, final MemorySegment data, final long bytes, final int root)
    {
        if (c.me == root)
        {
            for (int d = 1; d < c.size; d++)
            {
                c.putSignal(dest, 0, data, 0, bytes, (root + d) % c.size, 0);
            }
        }
        else
        {
            c.await(root, 0);
        }
    }

    /** Binomial tree rooted at root: receive from the parent, forward to the children, log2 N latencies. */
    static void broadcastTree(final Channel c, final SymmetricArray<?> dest, final MemorySegment rootData, final long bytes, final int root)
    {
        final int n = c.size;
        final int rel = (c.me - root + n) % n;
        int mask = 1;
        while (mask < n)
        {
            if ((rel & mask) != 0)
            {
                c.await((rel - mask + root) % n, 0);
                break;
            }
            mask <<= 1;
        }
        final MemorySegment data = rel == 0 ? rootData : dest.segment(); // its first bytes: no slice per call
        mask >>= 1;
        while (mask > 0)
        {
            if (rel + mask < n)
            {
                c.putSignal(dest, 0, data, 0, bytes, (rel + mask + root) % n, 0);
            }
            mask >>= 1;
        }
    }

    /**
     * Scatter then ring allgather (van de Geijn): the root sends block i to relative rank i, then the
     * blocks travel a ring; each link carries about the data once, for large messages.
     */
    static void broadcastScatterAllgather(final Channel c, final SymmetricArray<?> dest, final MemorySegment rootData,
        final long count, final int root)
    {
        final int n = c.size;
        final int eb = dest.elementBytes();
        final int rel = (c.me - root + n) % n;
        if (rel == 0)
        {
            for (int b = 1; b < n; b++)
            {
                final long from = block(count, n, b);
                c.putSignal(dest, from, rootData, from * eb, (block(count, n, b + 1) - from) * eb, (b + root) % n, 0);
            }
        }
        else
        {
            c.await(root, 0);
        }
        final MemorySegment mine = dest.segment();
        final int right = (c.me + 1) % n;
        final int left = (c.me - 1 + n) % n;
        for (int s = 1; s < n; s++)
        {
            final int b = (rel - s + 1 + n) % n;
            final long from = block(count, n, b);
            c.putSignal(dest, from, mine, from * eb, (block(count, n, b + 1) - from) * eb, right, s);
            c.await(left, s);
        }
    }

    private static long block(final long count, final int n, final int b)
    {
        return count * b / n;
    }

    // ------------------------------------------------------------------ collect / fcollect

    /**
     * Every member puts its block (already in its own dest at {@code offsets[me]}) to every other member.
     *
     * @param offsets element offset of each rank's block in dest, and the total at [size].
     */
    static void allgatherLinear(final Channel c, final SymmetricArray<?> dest, final long[] offsets)
    {
        final MemorySegment all = dest.segment();
        final int eb = dest.elementBytes();
        for (int d = 1; d < c.size; d++)
        {
            c.putSignal(dest, offsets[c.me], all, offsets[c.me] * eb, blocksBytes(offsets, c.me, 1, eb), (c.me + d) % c.size, 0);
        }
        for (int d = 1; d < c.size; d++)
        {
            c.await((c.me - d + c.size) % c.size, 0);
        }
    }

    /** Ring: in step s forward block me-s+1 to the right, receive block me-s from the left. N-1 latencies. */
    static void allgatherRing(final Channel c, final SymmetricArray<?> dest, final long[] offsets)
    {
        final int n = c.size;
        final int right = (c.me + 1) % n;
        final int left = (c.me - 1 + n) % n;
        final MemorySegment all = dest.segment();
        final int eb = dest.elementBytes();
        for (int s = 1; s < n; s++)
        {
            final int b = (c.me - s + 1 + n) % n;
            c.putSignal(dest, offsets[b], all, offsets[b] * eb, blocksBytes(offsets, b, 1, eb), right, s);
            c.await(left, s);
        }
    }

    /**
     * Recursive doubling for any N (Bruck's allgather with blocks kept at their final place): holding
     * blocks me..me+h-1, send min(h, N-h) of them to me-h and receive as many from me+h. ceil(log2 N)
     * latencies.
     */
    static void allgatherRecursiveDoubling(final Channel c, final SymmetricArray<?> dest, final long[] offsets)
    {
        final int n = c.size;
        final MemorySegment all = dest.segment();
        final int eb = dest.elementBytes();
        int have = 1;
        int round = 0;
        while (have < n)
        {
            final int cnt = Math.min(have, n - have);
            final int to = (c.me - have + n) % n;
            final int from = (c.me + have) % n;
            // blocks me .. me+cnt-1 (mod n): at most two contiguous runs
            final int first = c.me;
            final int run1 = Math.min(cnt, n - first);
            c.put(dest, offsets[first], all, offsets[first] * eb, blocksBytes(offsets, first, run1, eb), to);
            if (run1 < cnt)
            {
                c.put(dest, offsets[0], all, 0, blocksBytes(offsets, 0, cnt - run1, eb), to);
            }
            c.fence();
            c.signal(to, round);
            c.await(from, round);
            have += cnt;
            round++;
        }
    }

    /** @return the bytes of {@code blocks} consecutive blocks from {@code firstBlock} (they start at {@code offsets[firstBlock] * eb}). */
    static long blocksBytes(final long[] offsets, final int firstBlock, final int blocks, final int eb)
    {
        return (offsets[firstBlock + blocks] - offsets[firstBlock]) * eb;
    }

    // ------------------------------------------------------------------ alltoall

    /** Every member puts block j to member j, then waits for all. */
    static void alltoallLinear(final Channel c, final SymmetricArray<?> dest, final MemorySegment src, final long count)
    {
        final int eb = dest.elementBytes();
        for (int d = 1; d < c.size; d++)
        {
            final int j = (c.me + d) % c.size;
            c.putSignal(dest, c.me * count, src, j * count * eb, count * eb, j, 0);
        }
        for (int d = 1; d < c.size; d++)
        {
            c.await((c.me - d + c.size) % c.size, 0);
        }
    }

    /** Pairwise exchange: in step s send to one partner and wait for one (XOR partners when N is a power of two). */
    static void alltoallPairwise(final Channel c, final SymmetricArray<?> dest, final MemorySegment src, final long count)
    {
        final int n = c.size;
        final int eb = dest.elementBytes();
        final boolean pow2 = Integer.bitCount(n) == 1;
        for (int s = 1; s < n; s++)
        {
            final int to = pow2 ? c.me ^ s : (c.me + s) % n;
            final int from = pow2 ? c.me ^ s : (c.me - s + n) % n;
            c.putSignal(dest, c.me * count, src.asSlice(to * count * eb, count * eb), to, 0);
            c.await(from, 0);
        }
    }

    /** Strided alltoall: element-strided puts (iput), then wait for all. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void alltoallsLinear(final Channel c, final SymmetricArray dest, final MemorySegment src, final long dst,
        final long sst, final long count, final boolean pairwise)
    {
        final Object array = toArray(src, dest.elementLayout());
        final int n = c.size;
        final boolean pow2 = Integer.bitCount(n) == 1;
        for (int s = 0; s < n; s++)
        {
            final int to = pairwise && pow2 ? c.me ^ s : (c.me + s) % n;
            c.ctx.iput(dest, dst * c.me * count, dst, array, (int)(sst * to * count), sst, count, c.world(to));
            if (to != c.me)
            {
                c.ctx.fence();
                c.signal(to, 0);
                if (pairwise)
                {
                    c.await(pow2 ? to : (c.me - s + n) % n, 0);
                }
            }
        }
        if (!pairwise)
        {
            for (int d = 1; d < n; d++)
            {
                c.await((c.me - d + n) % n, 0);
            }
        }
    }

    /** Copies a segment into a new Java array of the layout's carrier type (long[] for longs, ...). */
    private static Object toArray(final MemorySegment s, final ValueLayout layout)
    {
        final int count = (int)(s.byteSize() / layout.byteSize());
        final Object array = java.lang.reflect.Array.newInstance(layout.carrier(), count);
        MemorySegment.copy(s, layout, 0, array, 0, count);
        return array;
    }
}
