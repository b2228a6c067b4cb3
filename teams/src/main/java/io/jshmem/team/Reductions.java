package io.jshmem.team;

import io.jshmem.ReduceOp;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricMemory;

import java.lang.foreign.MemorySegment;

/**
 * Reductions and scans. Contributions travel through the team slot's scratch in chunks that fit it
 * (pipelined: one scratch phase per chunk); partial results are combined in this PE's Java heap and the
 * result is stored into this PE's dest at the end of each chunk, which makes {@code dest == src} (in
 * place) safe. Every member computes the result with the same combination tree, so floating-point
 * results are identical on every member.
 */
final class Reductions
{
    private Reductions()
    {
    }

    /** A chunk of elements [from, from + count) of the operation. */
    static MemorySegment copyOf(final MemorySegment s)
    {
        final MemorySegment heap = MemorySegment.ofArray(new long[(int)((s.byteSize() + 7) >>> 3)]).asSlice(0, s.byteSize());
        heap.copyFrom(s);
        return heap;
    }

    /** Buffers each algorithm needs per scratch half. */
    static int buffers(final String algorithm, final int n)
    {
        return switch (algorithm)
        {
            case "linear" -> n;
            case "ring" -> Math.max(1, n - 1);
            default -> rounds(n) + 2;
        };
    }

    /** @return elements per chunk: the ring splits a chunk into n blocks, one buffer each. */
    static long chunkElements(final String algorithm, final int n, final long bufBytes, final int elementBytes)
    {
        return algorithm.equals("ring") ? n * (bufBytes / elementBytes) : bufBytes / elementBytes;
    }

    static int rounds(final int n)
    {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    private static SymmetricMemory buffer(final Channel c, final long half, final int index, final long bufBytes, final long bytes)
    {
        return c.scratch.slice(half + index * bufBytes, bytes);
    }

    // ------------------------------------------------------------------ reduce

    /**
     * Linear: every member puts its chunk into buffer [me] of every member; each combines them in rank
     * order. N-1 messages per member, one latency.
     */
    static void reduceLinearChunk(final Channel c, final ElementMath m, final ReduceOp op, final SymmetricArray<?> dest,
        final MemorySegment src, final long destIndex, final long count, final long bufBytes)
    {
        final long half = c.nextScratch();
        c.next();
        final long bytes = count * m.bytes;
        for (int d = 1; d < c.size; d++)
        {
            final int r = (c.me + d) % c.size;
            c.putSignal(c.scratch, half + c.me * bufBytes, src, r, 0);
        }
        MemorySegment acc = null;
        for (int r = 0; r < c.size; r++)
        {
            final MemorySegment in;
            if (r == c.me)
            {
                in = src;
            }
            else
            {
                c.await(r, 0);
                in = buffer(c, half, r, bufBytes, bytes).segment();
            }
            if (acc == null)
            {
                acc = copyOf(in);
            }
            else
            {
                m.combine(op, acc, in, count);
            }
        }
        dest.segment().asSlice(destIndex * m.bytes, bytes).copyFrom(acc);
    }

    /**
     * Recursive doubling (Rabenseifner's non-power-of-two handling): the first 2r members (r = N - 2^k)
     * fold pairwise into r, the 2^k remaining exchange and combine with partners me XOR 2^i for k
     * rounds, and the folded members get the result back. log2 N latencies.
     */
    static void reduceRecursiveDoublingChunk(final Channel c, final ElementMath m, final ReduceOp op, final SymmetricArray<?> dest,
        final MemorySegment src, final long destIndex, final long count, final long bufBytes)
    {
        final long half = c.nextScratch();
        c.next();
        final int n = c.size;
        final long bytes = count * m.bytes;
        final int p2 = Integer.highestOneBit(n);
        final int rem = n - p2;
        final int k = Integer.numberOfTrailingZeros(p2);
        final MemorySegment acc = copyOf(src);
        final int newRank;
        if (c.me < 2 * rem)
        {
            if ((c.me & 1) == 0)
            {
                c.putSignal(c.scratch, half, acc, c.me + 1, 0); // buffer 0: the fold
                c.await(c.me + 1, k + 1);                       // the result, straight into dest
                return;
            }
            c.await(c.me - 1, 0);
            m.combine(op, acc, buffer(c, half, 0, bufBytes, bytes).segment(), count);
            newRank = c.me / 2;
        }
        else
        {
            newRank = c.me - rem;
        }
        for (int i = 0; i < k; i++)
        {
            final int partnerNew = newRank ^ (1 << i);
            final int partner = partnerNew < rem ? partnerNew * 2 + 1 : partnerNew + rem;
            c.putSignal(c.scratch, half + (i + 1) * bufBytes, acc, partner, i + 1);
            c.await(partner, i + 1);
            m.combine(op, acc, buffer(c, half, i + 1, bufBytes, bytes).segment(), count);
        }
        dest.segment().asSlice(destIndex * m.bytes, bytes).copyFrom(acc);
        if (c.me < 2 * rem)
        {
            c.putSignal(dest, destIndex, acc, c.me - 1, k + 1);
        }
    }

    /**
     * Ring (reduce-scatter, then allgather; Patarasuk and Yuan): the chunk is cut into N blocks; in N-1
     * steps each member passes a partial block to its right neighbour and folds in the one from its
     * left, after which it holds one block fully reduced; N-1 more steps circulate the reduced blocks
     * straight into the members' dest. Each link carries about 2 (N-1)/N of the data: for large counts.
     */
    static void reduceRingChunk(final Channel c, final ElementMath m, final ReduceOp op, final SymmetricArray<?> dest,
        final MemorySegment src, final long destIndex, final long count, final long bufBytes)
    {
        final long half = c.nextScratch();
        c.next();
        final int n = c.size;
        final int eb = m.bytes;
        final int right = (c.me + 1) % n;
        final int left = (c.me - 1 + n) % n;
        final MemorySegment acc = copyOf(src);
        for (int s = 0; s < n - 1; s++)
        {
            final int sb = (c.me - s + n) % n;
            c.putSignal(c.scratch, half + s * bufBytes, acc.asSlice(from(count, n, sb) * eb, length(count, n, sb) * eb), right, s);
            final int rb = (c.me - s - 1 + n) % n;
            c.await(left, s);
            final long len = length(count, n, rb);
            m.combine(op, acc.asSlice(from(count, n, rb) * eb, len * eb), buffer(c, half, s, bufBytes, len * eb).segment(), len);
        }
        final int own = (c.me + 1) % n;
        final MemorySegment mine = dest.segment();
        final MemorySegment reduced = acc.asSlice(from(count, n, own) * eb, length(count, n, own) * eb);
        MemorySegment.copy(reduced, 0, mine, (destIndex + from(count, n, own)) * eb, reduced.byteSize());
        for (int s = 0; s < n - 1; s++)
        {
            final int b = (own - s + n) % n;
            final MemorySegment data = mine.asSlice((destIndex + from(count, n, b)) * eb, length(count, n, b) * eb);
            c.putSignal(dest, destIndex + from(count, n, b), data, right, n - 1 + s);
            c.await(left, n - 1 + s);
        }
    }

    private static long from(final long count, final int n, final int block)
    {
        return count * block / n;
    }

    private static long length(final long count, final int n, final int block)
    {
        return from(count, n, block + 1) - from(count, n, block);
    }

    // ------------------------------------------------------------------ scans

    /**
     * Linear scan: every member puts its chunk to every member (so that every scratch phase depends on
     * every member), and each sums the chunks of the members before it in rank order.
     */
    static void scanLinearChunk(final Channel c, final ElementMath m, final boolean inclusive, final SymmetricArray<?> dest,
        final MemorySegment src, final long destIndex, final long count, final long bufBytes)
    {
        final long half = c.nextScratch();
        c.next();
        final long bytes = count * m.bytes;
        for (int d = 1; d < c.size; d++)
        {
            c.putSignal(c.scratch, half + c.me * bufBytes, src, (c.me + d) % c.size, 0);
        }
        final MemorySegment acc = MemorySegment.ofArray(new long[(int)((bytes + 7) >>> 3)]).asSlice(0, bytes); // zeros: the identity of SUM
        final int last = inclusive ? c.me : c.me - 1;
        for (int r = 0; r < c.size; r++)
        {
            if (r != c.me)
            {
                c.await(r, 0);
            }
            if (r <= last)
            {
                m.combine(ReduceOp.SUM, acc, r == c.me ? src : buffer(c, half, r, bufBytes, bytes).segment(), count);
            }
        }
        dest.segment().asSlice(destIndex * m.bytes, bytes).copyFrom(acc);
    }

    /**
     * Recursive doubling scan (Hillis and Steele): in round i send the partial sum of
     * [me - 2^i + 1, me] to me + 2^i and add what me - 2^i sends; log2 N latencies, then a dissemination
     * sync, because a member's result does not depend on the members above it.
     */
    static void scanRecursiveDoublingChunk(final Channel c, final ElementMath m, final boolean inclusive, final SymmetricArray<?> dest,
        final MemorySegment src, final long destIndex, final long count, final long bufBytes)
    {
        final long half = c.nextScratch();
        c.next();
        final long bytes = count * m.bytes;
        final MemorySegment acc = copyOf(src);
        final MemorySegment below = MemorySegment.ofArray(new long[(int)((bytes + 7) >>> 3)]).asSlice(0, bytes);
        int round = 0;
        for (int dist = 1; dist < c.size; dist <<= 1, round++)
        {
            if (c.me + dist < c.size)
            {
                c.putSignal(c.scratch, half + round * bufBytes, acc, c.me + dist, round);
            }
            if (c.me - dist >= 0)
            {
                c.await(c.me - dist, round);
                final MemorySegment in = buffer(c, half, round, bufBytes, bytes).segment();
                m.combine(ReduceOp.SUM, acc, in, count);
                m.combine(ReduceOp.SUM, below, in, count);
            }
        }
        dest.segment().asSlice(destIndex * m.bytes, bytes).copyFrom(inclusive ? acc : below);
        c.next();
        Collectives.syncDissemination(c);
    }
}
