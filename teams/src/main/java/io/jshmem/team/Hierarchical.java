package io.jshmem.team;

import io.jshmem.ReduceOp;
import io.jshmem.SymmetricArray;

import java.lang.foreign.MemorySegment;

/**
 * Node-aware (two-level) sync, broadcast, allgather (fcollect, collect), alltoall and reduction: inside each group
 * (node) to its leader, between the leaders (dissemination, a binomial tree, all to all, recursive
 * doubling), and back out to the group. Only the leaders' messages cross nodes. Steps: member to leader 0, between leaders 1.., leader to member {@link #RELEASE}.
 */
final class Hierarchical
{
    private static final int RELEASE = 1 << 19;

    private Hierarchical()
    {
    }

    static void sync(final Channel c, final Hierarchy h)
    {
        final int leader = h.group()[0];
        if (c.me != leader)
        {
            c.signal(leader, 0);
            c.await(leader, RELEASE);
            return;
        }
        for (int i = 1; i < h.group().length; i++)
        {
            c.await(h.group()[i], 0);
        }
        final int[] leaders = h.leaders();
        final int n = leaders.length;
        int step = 1;
        for (int dist = 1; dist < n; dist <<= 1, step++)
        {
            c.signal(leaders[(h.leaderIndex() + dist) % n], step);
            c.await(leaders[(h.leaderIndex() - dist + n) % n], step);
        }
        for (int i = 1; i < h.group().length; i++)
        {
            c.signal(h.group()[i], RELEASE);
        }
    }

    /**
     * Broadcast: a binomial tree over one representative per group (the root for its own group, the
     * leader for the others), then each representative puts to the rest of its group.
     */
    static void broadcast(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final MemorySegment rootData, final long bytes,
        final int root)
    {
        final int[] reps = h.leaders().clone();
        final int rootLeader = h.leaderOf()[root];
        int rootIdx = 0;
        while (reps[rootIdx] != rootLeader)
        {
            rootIdx++;
        }
        reps[rootIdx] = root;
        final int myRep = h.leaderOf()[c.me] == rootLeader ? root : h.leaderOf()[c.me];
        if (c.me != myRep)
        {
            c.await(myRep, 1);
            return;
        }
        final int n = reps.length;
        int myIdx = 0;
        while (reps[myIdx] != c.me)
        {
            myIdx++;
        }
        final int rel = (myIdx - rootIdx + n) % n;
        int mask = 1;
        while (mask < n)
        {
            if ((rel & mask) != 0)
            {
                c.await(reps[(rel - mask + rootIdx) % n], 0);
                break;
            }
            mask <<= 1;
        }
        final MemorySegment data = c.me == root ? rootData : dest.segment().asSlice(0, bytes);
        mask >>= 1;
        while (mask > 0)
        {
            if (rel + mask < n)
            {
                c.putSignal(dest, 0, data, reps[(rel + mask + rootIdx) % n], 0);
            }
            mask >>= 1;
        }
        for (final int member : h.group())
        {
            if (member != c.me)
            {
                c.putSignal(dest, 0, data, member, 1);
            }
        }
    }

    /**
     * Allgather: every member puts its block into its leader's dest, each leader puts its group's blocks
     * into every other leader's dest (one message per leader pair), then puts the whole result into its
     * members' dest. Blocks go straight to their final place; no scratch.
     *
     * @param offsets element offset of each rank's block in dest, and the total at [size]; every member's
     *                own block is already in its dest.
     */
    static void allgather(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final long[] offsets)
    {
        final int[] group = h.group();
        final int eb = dest.elementBytes();
        final MemorySegment all = dest.segment();
        if (c.me != group[0])
        {
            c.putSignal(dest, offsets[c.me], block(all, offsets, c.me, eb), group[0], 0);
            c.await(group[0], RELEASE);
            return;
        }
        for (int i = 1; i < group.length; i++)
        {
            c.await(group[i], 0);
        }
        final int[] leaders = h.leaders();
        final int n = leaders.length;
        for (int d = 1; d < n; d++)
        {
            final int to = leaders[(h.leaderIndex() + d) % n];
            for (final int member : group)
            {
                c.put(dest, offsets[member], block(all, offsets, member, eb), to);
            }
            c.ctx.fence();
            c.signal(to, 1);
        }
        for (int d = 1; d < n; d++)
        {
            c.await(leaders[(h.leaderIndex() - d + n) % n], 1);
        }
        final MemorySegment whole = all.asSlice(0, offsets[c.size] * eb);
        for (int i = 1; i < group.length; i++)
        {
            c.putSignal(dest, 0, whole, group[i], RELEASE);
        }
    }

    private static MemorySegment block(final MemorySegment all, final long[] offsets, final int rank, final int eb)
    {
        return all.asSlice(offsets[rank] * eb, (offsets[rank + 1] - offsets[rank]) * eb);
    }

    /**
     * @return elements per chunk of a two-level alltoall: a leader's half of the scratch holds its group's
     *         outgoing blocks ({@code maxGroup x n}) and the blocks coming into its group ({@code n x maxGroup}).
     */
    static long alltoallChunk(final Channel c, final Hierarchy h, final int elementBytes)
    {
        return c.halfBytes() / (2L * h.maxGroup() * c.size * elementBytes);
    }

    /**
     * Alltoall, one chunk of elements [from, from + k) of every block: members put their outgoing blocks
     * into their leader's scratch (area A: [member index][destination rank]); each leader puts to every
     * other leader the blocks its group sends to that leader's group (area B: [source rank][member index]),
     * one message per leader pair; then each leader puts into every member's dest the blocks addressed to
     * it, from A (sources in its group) or B (the others). Only leaders' messages cross nodes.
     */
    static void alltoallChunk(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final MemorySegment src, final long count,
        final long from, final long k)
    {
        final long half = c.nextScratch();
        c.next();
        final int n = c.size;
        final int eb = dest.elementBytes();
        final long piece = k * eb;
        final long areaB = (long)h.maxGroup() * n * piece;
        final int[] group = h.group();
        if (c.me != group[0])
        {
            for (int j = 0; j < n; j++)
            {
                c.put(c.scratch, half + ((long)h.myIndex() * n + j) * piece, src.asSlice((j * count + from) * eb, piece), group[0]);
            }
            c.ctx.fence();
            c.signal(group[0], 0);
            c.await(group[0], RELEASE);
            return;
        }
        for (int i = 1; i < group.length; i++)
        {
            c.await(group[i], 0);
        }
        final MemorySegment scratch = c.scratch.segment();
        final int[] leaders = h.leaders();
        final int[] leaderOf = h.leaderOf();
        final int nl = leaders.length;
        for (int d = 1; d < nl; d++)
        {
            final int to = leaders[(h.leaderIndex() + d) % nl];
            int toIndex = 0;
            for (int r = 0; r < n; r++)
            {
                if (leaderOf[r] == to)
                {
                    for (int si = 0; si < group.length; si++)
                    {
                        final int s = group[si];
                        final MemorySegment data = s == c.me ? src.asSlice((r * count + from) * eb, piece)
                            : scratch.asSlice(half + ((long)si * n + r) * piece, piece);
                        c.put(c.scratch, half + areaB + ((long)s * h.maxGroup() + toIndex) * piece, data, to);
                    }
                    toIndex++;
                }
            }
            c.ctx.fence();
            c.signal(to, 1);
        }
        for (int d = 1; d < nl; d++)
        {
            c.await(leaders[(h.leaderIndex() - d + nl) % nl], 1);
        }
        final MemorySegment mine = dest.segment();
        for (int j = 0; j < group.length; j++)
        {
            final int m = group[j];
            int si = 0;
            for (int i = 0; i < n; i++)
            {
                final MemorySegment data;
                if (leaderOf[i] == c.me)
                {
                    data = i == c.me ? src.asSlice((m * count + from) * eb, piece) : scratch.asSlice(half + ((long)si * n + m) * piece, piece);
                    si++;
                }
                else
                {
                    data = scratch.asSlice(half + areaB + ((long)i * h.maxGroup() + j) * piece, piece);
                }
                if (m == c.me)
                {
                    MemorySegment.copy(data, 0, mine, (i * count + from) * eb, piece);
                }
                else
                {
                    c.put(dest, i * count + from, data, m);
                }
            }
            if (m != c.me)
            {
                c.ctx.fence();
                c.signal(m, RELEASE);
            }
        }
    }

    /** Scratch buffers per half: one per group member at the leader, then the leaders' recursive doubling. */
    static int buffers(final Hierarchy h)
    {
        return h.maxGroup() + Reductions.rounds(h.leaders().length) + 2;
    }

    static void reduceChunk(final Channel c, final Hierarchy h, final ElementMath m, final ReduceOp op, final SymmetricArray<?> dest,
        final MemorySegment src, final long destIndex, final long count, final long bufBytes)
    {
        final long half = c.nextScratch();
        c.next();
        final long bytes = count * m.bytes;
        final int[] group = h.group();
        if (c.me != group[0])
        {
            c.putSignal(c.scratch, half + h.myIndex() * bufBytes, src, group[0], 0);
            c.await(group[0], RELEASE); // the leader puts the result into this PE's dest
            return;
        }
        final MemorySegment acc = Reductions.copyOf(src);
        for (int i = 1; i < group.length; i++)
        {
            c.await(group[i], 0);
            m.combine(op, acc, buffer(c, half, i, bufBytes, bytes), count);
        }
        betweenLeaders(c, h, m, op, acc, half, bufBytes, count);
        dest.segment().asSlice(destIndex * m.bytes, bytes).copyFrom(acc);
        for (int i = 1; i < group.length; i++)
        {
            c.putSignal(dest, destIndex, acc, group[i], RELEASE);
        }
    }

    private static MemorySegment buffer(final Channel c, final long half, final int index, final long bufBytes, final long bytes)
    {
        return c.scratch.slice(half + index * bufBytes, bytes).segment();
    }

    /** Recursive doubling among the leaders (Rabenseifner's fold for a non-power-of-two count), into acc. */
    private static void betweenLeaders(final Channel c, final Hierarchy h, final ElementMath m, final ReduceOp op, final MemorySegment acc,
        final long half, final long bufBytes, final long count)
    {
        final int[] leaders = h.leaders();
        final int n = leaders.length;
        final int idx = h.leaderIndex();
        final int base = h.maxGroup();
        final long bytes = count * m.bytes;
        final int p2 = Integer.highestOneBit(n);
        final int rem = n - p2;
        final int k = Integer.numberOfTrailingZeros(p2);
        final int newRank;
        if (idx < 2 * rem)
        {
            if ((idx & 1) == 0)
            {
                c.putSignal(c.scratch, half + base * bufBytes, acc, leaders[idx + 1], 1);
                c.await(leaders[idx + 1], 2 + k);
                acc.copyFrom(buffer(c, half, base + 1 + k, bufBytes, bytes));
                return;
            }
            c.await(leaders[idx - 1], 1);
            m.combine(op, acc, buffer(c, half, base, bufBytes, bytes), count);
            newRank = idx / 2;
        }
        else
        {
            newRank = idx - rem;
        }
        for (int i = 0; i < k; i++)
        {
            final int partnerNew = newRank ^ (1 << i);
            final int partner = leaders[partnerNew < rem ? partnerNew * 2 + 1 : partnerNew + rem];
            c.putSignal(c.scratch, half + (base + 1 + i) * bufBytes, acc, partner, 2 + i);
            c.await(partner, 2 + i);
            m.combine(op, acc, buffer(c, half, base + 1 + i, bufBytes, bytes), count);
        }
        if (idx < 2 * rem)
        {
            c.putSignal(c.scratch, half + (base + 1 + k) * bufBytes, acc, leaders[idx - 1], 2 + k);
        }
    }
}
