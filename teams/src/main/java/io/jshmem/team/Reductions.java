package io.jshmem.team;

import io.jshmem.ReduceOp;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricMemory;

import java.lang.foreign.MemorySegment;

/**
 * Reductions and scans. {@link #reduceDirect} (members that map each other's heaps) loads the members'
 * sources directly and needs no scratch. In the other algorithms contributions travel through the team
 * slot's scratch in chunks that fit it
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
    static int buffers(final Algorithm.Reduce algorithm, final int n)
    {
        return switch (algorithm)
        {
            case LINEAR -> n;
            case RING -> Math.max(1, n - 1);
            default -> rounds(n) + 2;
        };
    }

    /** @return elements per chunk: the ring splits a chunk into n blocks, one buffer each. */
    static long chunkElements(final Algorithm.Reduce algorithm, final int n, final long bufBytes, final int elementBytes)
    {
        return algorithm == Algorithm.Reduce.RING ? n * (bufBytes / elementBytes) : bufBytes / elementBytes;
    }

    static int rounds(final int n)
    {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    private static SymmetricMemory buffer(final Channel c, final long half, final int index, final long bufBytes, final long bytes)
    {
        return c.scratch.slice(half + index * bufBytes, bytes);
    }

    /**
     * Reduces {@code count} elements of {@code src} into every member's {@code dest}, {@code chunk} elements at a time
     * through scratch buffers of {@code bufBytes}, with {@code alg} (not DIRECT; {@code h} only for HIERARCHICAL).
     */
    static void reduceChunked(final Channel c, final Algorithm.Reduce alg, final Hierarchy h, final ElementMath m, final ReduceOp op,
        final SymmetricArray<?> dest, final MemorySegment src, final long count, final long chunk, final long bufBytes)
    {
        for (long from = 0; from < count; from += chunk)
        {
            final long n = Math.min(chunk, count - from);
            switch (alg)
            {
                case LINEAR -> reduceLinearChunk(c, m, op, dest, src, from, n, bufBytes);
                case RING -> reduceRingChunk(c, m, op, dest, src.asSlice(from * m.bytes, n * m.bytes), from, n, bufBytes);
                case HIERARCHICAL -> Hierarchical.reduceChunk(c, h, m, op, dest, src.asSlice(from * m.bytes, n * m.bytes), from, n, bufBytes);
                default -> reduceRecursiveDoublingChunk(c, m, op, dest, src, from, n, bufBytes);
            }
        }
    }

    /** The sum scan of {@code count} elements, {@code chunk} at a time: linear, or recursive doubling. */
    static void scanChunked(final Channel c, final boolean linear, final ElementMath m, final boolean inclusive, final SymmetricArray<?> dest,
        final MemorySegment src, final long count, final long chunk, final long bufBytes)
    {
        for (long from = 0; from < count; from += chunk)
        {
            final long n = Math.min(chunk, count - from);
            final MemorySegment piece = src.asSlice(from * m.bytes, n * m.bytes);
            if (linear)
            {
                scanLinearChunk(c, m, inclusive, dest, piece, from, n, bufBytes);
            }
            else
            {
                scanRecursiveDoublingChunk(c, m, inclusive, dest, piece, from, n, bufBytes);
            }
        }
    }

    // ------------------------------------------------------------------ reduce

    /**
     * Linear: every member puts its chunk into buffer [me] of every member; each combines them in rank
     * order. N-1 messages per member, one latency. Allocates nothing (offsets, {@link Channel#acc}).
     *
     * @param src the whole source: this chunk is {@code count} elements from element {@code destIndex}
     */
    static void reduceLinearChunk(final Channel c, final ElementMath m, final ReduceOp op, final SymmetricArray<?> dest,
        final MemorySegment src, final long destIndex, final long count, final long bufBytes)
    {
        final long half = c.nextScratch();
        c.next();
        final long bytes = count * m.bytes;
        final long srcOff = destIndex * m.bytes;
        for (int d = 1; d < c.size; d++)
        {
            final int r = (c.me + d) % c.size;
            c.putSignal(c.scratch, half + c.me * bufBytes, src, srcOff, bytes, r, 0);
        }
        final MemorySegment acc = c.acc(bytes);
        final MemorySegment scratch = c.scratch.segment();
        for (int r = 0; r < c.size; r++)
        {
            final MemorySegment in;
            final long inOff;
            if (r == c.me)
            {
                in = src;
                inOff = srcOff;
            }
            else
            {
                c.await(r, 0);
                in = scratch;
                inOff = half + r * bufBytes;
            }
            if (r == 0)
            {
                MemorySegment.copy(in, inOff, acc, 0, bytes);
            }
            else
            {
                m.combine(op, acc, 0, in, inOff, count);
            }
        }
        MemorySegment.copy(acc, 0, dest.segment(), destIndex * m.bytes, bytes);
    }

    /**
     * Recursive doubling (Rabenseifner's non-power-of-two handling): the first 2r members (r = N - 2^k)
     * fold pairwise into r, the 2^k remaining exchange and combine with partners me XOR 2^i for k
     * rounds, and the folded members get the result back. log2 N latencies. Allocates nothing (offsets,
     * {@link Channel#acc}): the small reductions run back to back, and on a fresh JVM every allocated page is a
     * first-touch fault (measured at 8 PEs on 16 cores: 2.6 µs per 8-byte reduce while the young generation was still
     * being touched, 1.2 µs once it was).
     *
     * @param src the whole source: this chunk is {@code count} elements from element {@code destIndex}
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
        final MemorySegment acc = c.acc(bytes);
        final MemorySegment scratch = c.scratch.segment();
        MemorySegment.copy(src, destIndex * m.bytes, acc, 0, bytes);
        final int newRank;
        if (c.me < 2 * rem)
        {
            if ((c.me & 1) == 0)
            {
                c.putSignal(c.scratch, half, acc, 0, bytes, c.me + 1, 0); // buffer 0: the fold
                c.await(c.me + 1, k + 1);                                 // the result, straight into dest
                return;
            }
            c.await(c.me - 1, 0);
            m.combine(op, acc, 0, scratch, half, count);
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
            c.putSignal(c.scratch, half + (i + 1) * bufBytes, acc, 0, bytes, partner, i + 1);
            c.await(partner, i + 1);
            m.combine(op, acc, 0, scratch, half + (i + 1) * bufBytes, count);
        }
        MemorySegment.copy(acc, 0, dest.segment(), destIndex * m.bytes, bytes);
        if (c.me < 2 * rem)
        {
            c.putSignal(dest, destIndex, acc, 0, bytes, c.me - 1, k + 1);
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

    /**
     * Direct, for teams whose members all map each other's heaps (the p2p path): after a sync (every
     * member's source is ready), member r reduces block r of the elements by loading it from every
     * member's source, in rank order, into an accumulator of {@link Channel#work()} size, and stores each
     * piece of the result into every member's dest; then it signals every member, and a member returns
     * once all the others have signalled (its dest is complete and nobody reads its source any more).
     * Two synchronisations whatever the size, no scratch and no chunking, every element loaded N times
     * and stored N times across the team, and the members work on their blocks in parallel. In place
     * (dest == src) is safe: block r of any member's source is read only by member r, before it stores
     * block r. Each element is combined by one member in rank order, so float results are identical on
     * every member.
     *
     * @param dests every member's copy of dest (team rank order), each starting at element 0 of the result
     * @param srcs every member's copy of src (team rank order), each starting at element 0
     */
    static void reduceDirect(final Channel c, final ElementMath m, final ReduceOp op, final MemorySegment[] dests,
        final MemorySegment[] srcs, final long count)
    {
        c.next();
        Collectives.syncDissemination(c);
        final int n = c.size;
        final int eb = m.bytes;
        final MemorySegment work = c.work();
        final long piece = work.byteSize() / eb;
        final long lo = from(count, n, c.me);
        final long len = length(count, n, c.me);
        for (long p = 0; p < len; p += piece)
        {
            final long k = Math.min(piece, len - p);
            final long off = (lo + p) * eb;
            final long bytes = k * eb;
            MemorySegment.copy(srcs[0], off, work, 0, bytes);
            for (int r = 1; r < n; r++)
            {
                m.combine(op, work, 0, srcs[r], off, k); // offsets, no slices: nothing allocated per call
            }
            for (int d = 0; d < n; d++)
            {
                MemorySegment.copy(work, 0, dests[(c.me + d) % n], off, bytes);
            }
        }
        c.fence(); // the stores into the members' dest are visible before the signals (release stores) that announce them
        for (int d = 1; d < n; d++)
        {
            c.signal((c.me + d) % n, 1);
        }
        for (int d = 1; d < n; d++)
        {
            c.await((c.me - d + n) % n, 1);
        }
    }

    static long from(final long count, final int n, final int block)
    {
        return count * block / n;
    }

    static long length(final long count, final int n, final int block)
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
