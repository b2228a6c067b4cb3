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

    /** At most this many pieces of a pipelined two-level broadcast ({@link #broadcastPiece}). */
    static final int MAX_BROADCAST_PIECES = 64;

    /**
     * @return the bytes of each piece (the last may be shorter) a two-level broadcast of {@code bytes} moves in: half a
     *         scratch buffer ({@link Channel#halfBytes()}, 128 KiB with the default 256 KiB scratch), or more where that
     *         would make more than {@link #MAX_BROADCAST_PIECES}; a multiple of 64 bytes, so of any element's size
     */
    static long broadcastPiece(final long bytes, final long halfBytes)
    {
        final long piece = Math.max(halfBytes, (bytes + MAX_BROADCAST_PIECES - 1) / MAX_BROADCAST_PIECES);
        return Math.max(64, (piece + 63) & ~63L);
    }

    /**
     * Broadcast: a binomial tree over one representative per group (the root for its own group, the
     * leader for the others), then each representative puts to the rest of its group, or, with {@code pull}
     * ({@link Choice#pullRelease}), signals them and each loads the data from its representative's dest at once.
     * Between three or more groups the data moves in pieces ({@link #broadcastPiece}), pipelined: a representative
     * forwards piece k down the tree and releases it to its group as soon as piece k has reached it, so the levels of
     * the tree and the copies inside a node overlap instead of each waiting for the whole (at 64 PEs on 8 test hosts of
     * 16 cores, 256 KiB-1 MiB took 0.77-0.79x the time of one piece, medians of two alternating jobs). Piece k is step
     * k + 1 of every signal; a member that loaded the data signals {@code pieces + 1} back.
     */
    static void broadcast(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final MemorySegment rootData, final long bytes,
        final int root, final boolean pull)
    {
        // the groups' representatives: their leaders, the root in place of its group's (no copy per call)
        final int[] leaders = h.leaders();
        final int rootLeader = h.leaderOf()[root];
        int rootIdx = 0;
        while (leaders[rootIdx] != rootLeader)
        {
            rootIdx++;
        }
        // two representatives: one hop, nothing to pipeline but the node's copies, which measured no gain (docs/teams.md)
        final long piece = leaders.length > 2 ? broadcastPiece(bytes, c.halfBytes()) : Math.max(64, bytes);
        final int pieces = (int)((bytes + piece - 1) / piece);
        final int eb = dest.elementBytes();
        final int myRep = h.leaderOf()[c.me] == rootLeader ? root : h.leaderOf()[c.me];
        if (c.me != myRep)
        {
            if (!pull)
            {
                c.await(myRep, pieces); // the pieces arrive in order: the last one's signal follows every store
                return;
            }
            final MemorySegment theirs = repCopy(c, h, dest, myRep);
            for (int k = 0; k < pieces; k++)
            {
                c.await(myRep, k + 1);
                final long from = k * piece;
                MemorySegment.copy(theirs, from, dest.segment(), from, Math.min(piece, bytes - from));
            }
            c.signal(myRep, pieces + 1);
            return;
        }
        final int n = leaders.length;
        int myIdx = 0;
        while (representative(leaders, rootIdx, root, myIdx) != c.me)
        {
            myIdx++;
        }
        final int rel = (myIdx - rootIdx + n) % n;
        int mask = 1;
        int parent = -1;
        while (mask < n)
        {
            if ((rel & mask) != 0)
            {
                parent = representative(leaders, rootIdx, root, (rel - mask + rootIdx) % n);
                break;
            }
            mask <<= 1;
        }
        final int firstMask = mask >> 1;
        final MemorySegment data = c.me == root ? rootData : dest.segment(); // its first bytes
        final int[] group = h.group();
        for (int k = 0; k < pieces; k++)
        {
            if (parent >= 0)
            {
                c.await(parent, k + 1);
            }
            final long from = k * piece;
            final long len = Math.min(piece, bytes - from);
            for (int m = firstMask; m > 0; m >>= 1)
            {
                if (rel + m < n)
                {
                    c.putSignal(dest, from / eb, data, from, len, representative(leaders, rootIdx, root, (rel + m + rootIdx) % n), k + 1);
                }
            }
            for (final int member : group)
            {
                if (member == c.me)
                {
                    continue;
                }
                if (pull)
                {
                    c.signal(member, k + 1);
                }
                else
                {
                    c.putSignal(dest, from / eb, data, from, len, member, k + 1);
                }
            }
        }
        if (pull)
        {
            awaitMembers(c, h, pieces + 1);
        }
    }

    /** @return representative {@code rep}'s copy of {@code dest}, as this member of its group maps it. */
    private static MemorySegment repCopy(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final int rep)
    {
        final int[] group = h.group();
        int i = 0;
        while (group[i] != rep)
        {
            i++;
        }
        return c.copies(dest, group)[i];
    }

    /**
     * A representative's side of {@link Choice.Release#PULL}: signals {@code step} to every other member of its group (the
     * data is in its dest), then waits until each has signalled {@code copied}, so that nothing the caller does to its dest
     * after the collective returns reaches a member's copy.
     */
    private static void releaseForPull(final Channel c, final Hierarchy h, final int step, final int copied)
    {
        for (final int member : h.group())
        {
            if (member != c.me)
            {
                c.signal(member, step);
            }
        }
        awaitMembers(c, h, copied);
    }

    /** Waits for step {@code step} of every other member of this PE's group. */
    private static void awaitMembers(final Channel c, final Hierarchy h, final int step)
    {
        for (final int member : h.group())
        {
            if (member != c.me)
            {
                c.await(member, step);
            }
        }
    }

    /**
     * A member's side of {@link Choice.Release#PULL}: loads bytes {@code [0, bytes)} of its representative {@code rep}'s
     * dest into its own, except {@code [skipFrom, skipTo)} (bytes it holds already), then signals {@code copied} to it.
     */
    private static void pullFrom(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final int rep, final long bytes,
        final long skipFrom, final long skipTo, final int copied)
    {
        final MemorySegment theirs = repCopy(c, h, dest, rep);
        final MemorySegment mine = dest.segment();
        MemorySegment.copy(theirs, 0, mine, 0, skipFrom);
        MemorySegment.copy(theirs, skipTo, mine, skipTo, bytes - skipTo);
        c.signal(rep, copied);
    }

    /** @return group i's representative in {@link #broadcast}: its leader, or the root for the root's group. */
    private static int representative(final int[] leaders, final int rootIdx, final int root, final int i)
    {
        return i == rootIdx ? root : leaders[i];
    }

    /**
     * Allgather: every member puts its block into its leader's dest, each leader puts its group's blocks
     * into every other leader's dest (one put per run of consecutive ranks, so one put and its signal per leader
     * pair where ranks are placed block-wise), then puts the whole result into its members' dest, or, with {@code pull}
     * ({@link Choice#pullRelease}), signals them and each loads it from the leader's dest at once. Small results
     * of block-wise groups go between the leaders by Bruck's algorithm instead ({@link Choice#leaderDoubling}).
     * Blocks go straight to their final place; no scratch.
     *
     * @param offsets element offset of each rank's block in dest, and the total at [size]; every member's
     *                own block is already in its dest.
     */
    static void allgather(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final long[] offsets, final boolean pull)
    {
        final int[] group = h.group();
        final int eb = dest.elementBytes();
        final MemorySegment all = dest.segment();
        if (c.me != group[0])
        {
            c.putSignal(dest, offsets[c.me], all, offsets[c.me] * eb, Collectives.blocksBytes(offsets, c.me, 1, eb), group[0], 0);
            c.await(group[0], RELEASE);
            if (pull)
            {
                pullFrom(c, h, dest, group[0], offsets[c.size] * eb, offsets[c.me] * eb, offsets[c.me + 1] * eb, RELEASE + 1);
            }
            return;
        }
        for (int i = 1; i < group.length; i++)
        {
            c.await(group[i], 0);
        }
        if (Choice.leaderDoubling(h.leaders().length, offsets[c.size] * eb, h.blockwise()))
        {
            leadersByDoubling(c, h, dest, all, offsets);
        }
        else
        {
            leadersByPairs(c, h, dest, all, offsets);
        }
        if (pull)
        {
            releaseForPull(c, h, RELEASE, RELEASE + 1);
        }
        else
        {
            release(c, h, dest, all, offsets);
        }
    }

    /**
     * Bruck's doubling between the leaders of block-wise groups: after round k a leader holds the 2^k groups from its own
     * on (modulo the leaders); in round k it sends the leader 2^k before it the groups that one lacks, and gets its own
     * from the leader 2^k after it: ceil(log2 leaders) messages each, not leaders - 1, straight into dest.
     */
    private static void leadersByDoubling(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final MemorySegment all,
        final long[] offsets)
    {
        final int[] leaders = h.leaders();
        final int n = leaders.length;
        final int li = h.leaderIndex();
        int step = 1;
        for (int dist = 1; dist < n; dist <<= 1, step++)
        {
            final int count = Math.min(dist, n - dist);
            final int to = leaders[(li - dist + n) % n];
            boolean viaCtx = putGroups(c, h, dest, all, offsets, li, Math.min(n, li + count), to);
            if (li + count > n)
            {
                viaCtx |= putGroups(c, h, dest, all, offsets, 0, li + count - n, to); // the groups past the last, from the first
            }
            signalAfter(c, viaCtx, to, step);
            c.await(leaders[(li + dist) % n], step);
        }
    }

    /** Every leader puts its group's blocks to every other leader: one put per run of consecutive ranks, then a signal. */
    private static void leadersByPairs(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final MemorySegment all,
        final long[] offsets)
    {
        final int[] group = h.group();
        final int eb = dest.elementBytes();
        final int[] leaders = h.leaders();
        final int n = leaders.length;
        // the group's blocks as runs of consecutive ranks (one run where ranks are placed block-wise): a message per run
        final int[] runStart = new int[group.length];
        final int[] runLength = new int[group.length];
        int runs = 0;
        for (final int member : group)
        {
            if (runs > 0 && runStart[runs - 1] + runLength[runs - 1] == member)
            {
                runLength[runs - 1]++;
            }
            else
            {
                runStart[runs] = member;
                runLength[runs++] = 1;
            }
        }
        for (int d = 1; d < n; d++)
        {
            final int to = leaders[(h.leaderIndex() + d) % n];
            boolean viaCtx = false;
            for (int r = 0; r < runs; r++)
            {
                final int first = runStart[r];
                viaCtx |= c.put(dest, offsets[first], all, offsets[first] * eb, Collectives.blocksBytes(offsets, first, runLength[r], eb), to);
            }
            signalAfter(c, viaCtx, to, 1);
        }
        for (int d = 1; d < n; d++)
        {
            c.await(leaders[(h.leaderIndex() - d + n) % n], 1);
        }
    }

    /**
     * Puts groups [from, to) of a block-wise layout (consecutive ranks) from this leader's dest into leader {@code leader}'s
     * dest.
     *
     * @return whether the put went through the context ({@link Channel#put})
     */
    private static boolean putGroups(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final MemorySegment all,
        final long[] offsets, final int from, final int to, final int leader)
    {
        final int[][] groups = h.groups();
        final int first = groups[from][0];
        final int[] last = groups[to - 1];
        final int eb = dest.elementBytes();
        return c.put(dest, offsets[first], all, offsets[first] * eb, (offsets[last[last.length - 1] + 1] - offsets[first]) * eb, leader);
    }

    /** Signals {@code step} to {@code rank} after this PE's puts to it: the context's fence first where any went through it. */
    private static void signalAfter(final Channel c, final boolean viaCtx, final int rank, final int step)
    {
        if (viaCtx)
        {
            c.ctx.fence();
        }
        c.signal(rank, step);
    }

    /** A leader puts the gathered result into its members' dest. */
    private static void release(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final MemorySegment all,
        final long[] offsets)
    {
        final int[] group = h.group();
        for (int i = 1; i < group.length; i++)
        {
            c.putSignal(dest, 0, all, 0, offsets[c.size] * dest.elementBytes(), group[i], RELEASE);
        }
    }

    /**
     * @return elements per chunk of a two-level alltoall: a leader's half of the scratch holds the blocks its
     *         group sends ({@code groups x maxGroup x maxGroup}, area A) and those it receives from the other
     *         groups (as many, area B).
     */
    static long alltoallChunk(final Channel c, final Hierarchy h, final int elementBytes)
    {
        final long mg = h.maxGroup();
        return c.halfBytes() / (2L * h.leaders().length * mg * mg * elementBytes);
    }

    /**
     * Alltoall, one chunk of elements [from, from + k) of every block. Areas A (the blocks this group sends) and B
     * (those it receives) of a leader's scratch half are indexed {@code [group][index in the destination's
     * group][index in the source's group]}, so that what one group sends another is one contiguous slice:
     * members put their outgoing pieces into A of their leader; each leader puts its slice of A for every other
     * group into that group's leader's B, one message per leader pair (the only messages between nodes); then
     * each leader puts into every member's dest the pieces addressed to it, one put per source group where
     * that group's ranks are consecutive (the contiguous runs of a member's row).
     */
    static void alltoallChunk(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final MemorySegment src, final long count,
        final long from, final long k)
    {
        final long half = c.nextScratch();
        c.next();
        final int n = c.size;
        final int eb = dest.elementBytes();
        final long piece = k * eb;
        final int mg = h.maxGroup();
        final int[] leaders = h.leaders();
        final int nl = leaders.length;
        final long groupSlice = (long)mg * mg * piece;
        final long areaB = half + nl * groupSlice;
        final int[] group = h.group();
        final int[] groupIdx = new int[n];
        final int[] inGroup = new int[n];
        positions(h, groupIdx, inGroup);
        final int myGroup = groupIdx[c.me];
        final int mi = h.myIndex();
        if (c.me != group[0])
        {
            for (int j = 0; j < n; j++)
            {
                if (j == c.me)
                {
                    continue;
                }
                final long at = half + ((long)(groupIdx[j] * mg + inGroup[j]) * mg + mi) * piece;
                c.put(c.scratch, at, src.asSlice((j * count + from) * eb, piece), group[0]);
            }
            c.ctx.fence();
            c.signal(group[0], 0);
            c.await(group[0], RELEASE);
            return;
        }
        final MemorySegment scratch = c.scratch.segment();
        for (int j = 0; j < n; j++)
        {
            final long at = half + ((long)(groupIdx[j] * mg + inGroup[j]) * mg) * piece; // mi = 0: the leader is its group's first
            MemorySegment.copy(src, (j * count + from) * eb, scratch, at, piece);
        }
        for (int i = 1; i < group.length; i++)
        {
            c.await(group[i], 0);
        }
        final int li = h.leaderIndex();
        for (int d = 1; d < nl; d++)
        {
            final int g = (li + d) % nl;
            c.putSignal(c.scratch, areaB + (long)myGroup * groupSlice, scratch.asSlice(half + g * groupSlice, groupSlice),
                leaders[g], 1);
        }
        for (int d = 1; d < nl; d++)
        {
            c.await(leaders[(li - d + nl) % nl], 1);
        }
        final MemorySegment mine = dest.segment();
        for (int t = 0; t < group.length; t++)
        {
            final int m = group[t];
            long runFrom = -1;
            long runTo = 0;
            long runBytes = 0;
            for (int i = 0; i < n; i++)
            {
                if (i == m)
                {
                    continue; // a member's own block: copied by itself before the collective
                }
                final long at = (groupIdx[i] == myGroup ? half : areaB) + ((long)(groupIdx[i] * mg + t) * mg + inGroup[i]) * piece;
                final long to = (i * count + from) * eb;
                if (runBytes > 0 && at == runFrom + runBytes && to == runTo + runBytes)
                {
                    runBytes += piece;
                    continue;
                }
                release(c, dest, mine, scratch, runFrom, runTo, runBytes, m);
                runFrom = at;
                runTo = to;
                runBytes = piece;
            }
            release(c, dest, mine, scratch, runFrom, runTo, runBytes, m);
            if (m != c.me)
            {
                c.ctx.fence();
                c.signal(m, RELEASE);
            }
        }
    }

    /** Copies (to this PE) or puts (to member m) a run of bytes of the scratch into m's dest. */
    private static void release(final Channel c, final SymmetricArray<?> dest, final MemorySegment mine, final MemorySegment scratch,
        final long from, final long to, final long bytes, final int m)
    {
        if (bytes == 0)
        {
            return;
        }
        if (m == c.me)
        {
            MemorySegment.copy(scratch, from, mine, to, bytes);
        }
        else
        {
            c.put(dest, to / dest.elementBytes(), scratch.asSlice(from, bytes), m);
        }
    }

    /** Fills every team rank's group index (in {@code h.leaders()} order) and its index inside its group. */
    private static void positions(final Hierarchy h, final int[] groupIdx, final int[] inGroup)
    {
        final int[] leaders = h.leaders();
        final int[] filled = new int[leaders.length];
        final int[] leaderOf = h.leaderOf();
        for (int r = 0; r < groupIdx.length; r++)
        {
            final int g = java.util.Arrays.binarySearch(leaders, leaderOf[r]);
            groupIdx[r] = g;
            inGroup[r] = filled[g]++;
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
        recursiveDoubling(c, h.leaders(), h.leaderIndex(), m, op, acc, half, h.maxGroup(), bufBytes, count, 1); // between the leaders
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

    /**
     * Recursive doubling among {@code peers} (team PEs; this PE is {@code peers[idx]}) with Rabenseifner's fold for a
     * non-power-of-two count, leaving the reduction of every peer's {@code acc} (its first {@code count} elements; acc may
     * be longer) in {@code acc}. Messages go into the peers' scratch buffers {@code base..base+rounds+1} of {@code half};
     * steps {@code step..step+rounds+1}.
     */
    private static void recursiveDoubling(final Channel c, final int[] peers, final int idx, final ElementMath m, final ReduceOp op,
        final MemorySegment acc, final long half, final int base, final long bufBytes, final long count, final int step)
    {
        final int n = peers.length;
        final long bytes = count * m.bytes;
        final int p2 = Integer.highestOneBit(n);
        final int rem = n - p2;
        final int k = Integer.numberOfTrailingZeros(p2);
        final MemorySegment scratch = c.scratch.segment();
        final int newRank;
        if (idx < 2 * rem)
        {
            if ((idx & 1) == 0)
            {
                c.putSignal(c.scratch, half + base * bufBytes, acc, 0, bytes, peers[idx + 1], step);
                c.await(peers[idx + 1], step + 1 + k);
                MemorySegment.copy(scratch, half + (base + 1 + k) * bufBytes, acc, 0, bytes);
                return;
            }
            c.await(peers[idx - 1], step);
            m.combine(op, acc, 0, scratch, half + base * bufBytes, count);
            newRank = idx / 2;
        }
        else
        {
            newRank = idx - rem;
        }
        for (int i = 0; i < k; i++)
        {
            final int partnerNew = newRank ^ (1 << i);
            final int partner = peers[partnerNew < rem ? partnerNew * 2 + 1 : partnerNew + rem];
            c.putSignal(c.scratch, half + (base + 1 + i) * bufBytes, acc, 0, bytes, partner, step + 1 + i);
            c.await(partner, step + 1 + i);
            m.combine(op, acc, 0, scratch, half + (base + 1 + i) * bufBytes, count);
        }
        if (idx < 2 * rem)
        {
            c.putSignal(c.scratch, half + (base + 1 + k) * bufBytes, acc, 0, bytes, peers[idx - 1], step + 1 + k);
        }
    }

    /** Scratch buffers per half of {@link #reduceSplit}'s exchange between nodes by recursive doubling. */
    static int splitBuffers(final Hierarchy h)
    {
        return Reductions.rounds(h.groups().length) + 2;
    }

    /**
     * Split (two-level, the node's members share the work; for groups whose members map each other's heaps):
     * the elements are cut into {@code slices} slices (at most the smallest group's size) and member i of every
     * group owns slice i. After the group's members signal their owners that their sources are ready, each owner
     * loads its slice from every member's source of its group and combines them (no scratch, no copies through
     * the network); the owners of the same slice on every group reduce it between groups ({@link Choice#splitExchange}):
     * by recursive doubling through the scratch when the slice fits one buffer, else by recursive halving and
     * doubling ({@link #halving}: reduce-scatter through the scratch, allgather into dest) or by a ring that lands in
     * the owners' dest ({@link #ringIntoDest}); then each owner stores its slice of the result into every member's
     * dest of its group and signals them. Only owners' messages cross nodes, and a node sends {@code slices} of them
     * at once, each a {@code 1/slices} share of the data, where {@link #reduceChunk} sends all of it through one
     * leader in scratch-sized chunks. In place is safe: slice i of any member's source is read only by owner i,
     * before anything writes slice i of that member's dest.
     *
     * @param dests    every member's copy of dest in this PE's group (group order), mapped
     * @param srcs     every member's copy of src in this PE's group (group order), mapped
     * @param exchange the exchange between groups the test hook forces, {@code AUTO} for {@link Choice#splitExchange}'s
     */
    static void reduceSplit(final Channel c, final Hierarchy h, final ElementMath m, final ReduceOp op, final SymmetricArray<?> dest,
        final MemorySegment[] dests, final MemorySegment[] srcs, final long count, final int slices, final long bufBytes,
        final Choice.SplitExchange exchange)
    {
        c.next();
        final long half = c.nextScratch();
        final int[] group = h.group();
        final int me = h.myIndex();
        final int eb = m.bytes;
        for (int i = 0; i < slices; i++)
        {
            if (i != me)
            {
                c.signal(group[i], 0); // this member's source is ready
            }
        }
        if (me < slices)
        {
            for (int j = 0; j < group.length; j++)
            {
                if (j != me)
                {
                    c.await(group[j], 0);
                }
            }
            final long lo = Reductions.from(count, slices, me);
            final long len = Reductions.length(count, slices, me);
            final long bytes = len * eb;
            // the team's accumulator (at least bytes long; every use below names its length): nothing allocated per call
            final MemorySegment acc = c.acc(bytes);
            MemorySegment.copy(srcs[0], lo * eb, acc, 0, bytes);
            for (int j = 1; j < group.length; j++)
            {
                m.combine(op, acc, 0, srcs[j], lo * eb, len);
            }
            final int[][] groups = h.groups();
            final int[] peers = h.sameIndex(); // me < slices <= the smallest group: an owner in every group
            final MemorySegment result;
            // from the largest slice, this slice and the group count: the same answer on every owner of this slice
            final long chunk = halvingChunk(c.halfBytes(), groups.length, eb, len);
            final Choice.SplitExchange how = Choice.splitExchange(exchange, groups.length, (count + slices - 1) / slices * eb, bufBytes,
                halvingRounds(groups.length, len, chunk));
            if (how == Choice.SplitExchange.DOUBLING)
            {
                recursiveDoubling(c, peers, h.groupIndex(), m, op, acc, half, 0, bufBytes, len, 2);
                result = acc;
            }
            else if (how == Choice.SplitExchange.HALVING)
            {
                halving(c, peers, h.groupIndex(), m, op, dest, lo, acc, len, half, chunk);
                result = dests[me].asSlice(lo * eb, bytes);
            }
            else
            {
                ringIntoDest(c, peers, h.groupIndex(), m, op, dest, lo, acc, len);
                result = dests[me].asSlice(lo * eb, bytes);
            }
            for (int j = 0; j < group.length; j++)
            {
                if (j != me || result == acc)
                {
                    MemorySegment.copy(result, 0, dests[j], lo * eb, bytes);
                }
            }
            c.ctx.fence(); // the stores are visible before the signals that announce them
            for (int j = 0; j < group.length; j++)
            {
                if (j != me)
                {
                    c.signal(group[j], RELEASE);
                }
            }
        }
        for (int i = 0; i < slices; i++)
        {
            if (i != me)
            {
                c.await(group[i], RELEASE);
            }
        }
    }

    /**
     * A ring reduction (reduce-scatter, then allgather) of {@code acc} among {@code peers} whose messages land in
     * the peers' dest at {@code [lo, lo + len)}, where the result ends: no scratch, so no chunks. Each received
     * block lands where no earlier message of the call is still unread (a block's partial sum arrives once, its
     * result after the receiver forwarded its partial), and step 1 tells the peer before this one that this PE's
     * dest may be written (it has left the previous collective and read its own source). Steps 1..2n-1.
     */
    private static void ringIntoDest(final Channel c, final int[] peers, final int idx, final ElementMath m, final ReduceOp op,
        final SymmetricArray<?> dest, final long lo, final MemorySegment acc, final long len)
    {
        final int n = peers.length;
        final int eb = m.bytes;
        final int right = peers[(idx + 1) % n];
        final int left = peers[(idx - 1 + n) % n];
        final MemorySegment mine = dest.segment();
        c.signal(left, 1);
        c.await(right, 1);
        for (int s = 0; s < n - 1; s++)
        {
            final int sb = (idx - s + n) % n;
            c.putSignal(dest, lo + Reductions.from(len, n, sb), acc.asSlice(Reductions.from(len, n, sb) * eb, Reductions.length(len, n, sb) * eb),
                right, 2 + s);
            final int rb = (idx - s - 1 + n) % n;
            c.await(left, 2 + s);
            final long k = Reductions.length(len, n, rb);
            final long at = Reductions.from(len, n, rb);
            m.combine(op, acc.asSlice(at * eb, k * eb), mine.asSlice((lo + at) * eb, k * eb), k);
        }
        final int own = (idx + 1) % n;
        MemorySegment.copy(acc, Reductions.from(len, n, own) * eb, mine, (lo + Reductions.from(len, n, own)) * eb,
            Reductions.length(len, n, own) * eb);
        for (int s = 0; s < n - 1; s++)
        {
            final int b = (own - s + n) % n;
            final long at = lo + Reductions.from(len, n, b);
            c.putSignal(dest, at, mine.asSlice(at * eb, Reductions.length(len, n, b) * eb), right, n + 1 + s);
            c.await(left, n + 1 + s);
        }
    }

    /**
     * @param halfBytes the bytes of a scratch half
     * @param n         the peers of the exchange
     * @param len       the elements to reduce
     * @return the elements per chunk of {@link #halving} ({@code len} when one chunk holds them all), or 0 where it
     *         cannot run: a half too small for an element per block, or more chunks than the phase has steps for
     */
    static long halvingChunk(final long halfBytes, final int n, final int eb, final long len)
    {
        final int p2 = Integer.highestOneBit(n);
        final boolean fold = n > p2;
        final long blockMax = (len + p2 - 1) / p2;
        if ((fold ? len : 0) + (p2 - 1) * blockMax <= halfBytes / eb)
        {
            return Math.max(len, 1);
        }
        final long perBlock = halfBytes / eb / (fold ? 2L * p2 - 1 : p2 - 1); // fold: a chunk, plus (p2 - 1) blocks
        final long chunk = perBlock * p2;
        if (perBlock < 1 || 2 + (len + chunk - 1) / chunk * halvingSteps(n) >= RELEASE)
        {
            return 0;
        }
        return chunk;
    }

    /**
     * @return the dependent rounds of {@link #halving} of {@code len} elements among n peers in chunks of
     *         {@code chunk}: per chunk 2 log2 p2, and 2 more for the fold beyond a power of two; 0 where it cannot
     *         run ({@code chunk} 0)
     */
    static long halvingRounds(final int n, final long len, final long chunk)
    {
        if (chunk == 0)
        {
            return 0;
        }
        final int p2 = Integer.highestOneBit(n);
        return Math.max(1, (len + chunk - 1) / chunk) * (2L * Integer.numberOfTrailingZeros(p2) + (n > p2 ? 2 : 0));
    }

    /** @return the signal steps of one chunk of {@link #halving} among n peers (the fold's two counted at any n). */
    private static int halvingSteps(final int n)
    {
        return 2 * Integer.numberOfTrailingZeros(Integer.highestOneBit(n)) + 2;
    }

    /**
     * Rabenseifner's reduction of {@code acc} among {@code peers} (this PE is {@code peers[idx]}), in chunks of
     * {@code chunk} elements, leaving the result in the peers' dest at {@code [lo, lo + len)}. With p2 the largest
     * power of two up to n, the first {@code 2 (n - p2)} peers pair up: the even one sends its chunk into the odd
     * one's scratch, which combines it and takes part for both (the fold), then puts the result into the even one's
     * dest. The p2 remaining peers cut the chunk into p2 blocks and reduce-scatter it by recursive halving: at
     * distance p2/2, p2/4 .. 1 each sends the half of its current blocks that its partner keeps into the partner's
     * scratch and combines the half it keeps, so that virtual rank v ends with block v reduced; then they allgather
     * by recursive doubling, each message landing in the partner's dest where it belongs. log2 p2 rounds of each, the
     * reduce-scatter's of a half, a quarter .. of the chunk.
     * <p>
     * Scratch: the fold's chunk, then one area per reduce-scatter round, sized for p2/2, p2/4 .. 1 of the largest
     * block, so no round's message lands where an earlier one may still be unread, and no synchronisation precedes a
     * message: a peer writes another's dest only after that one's first message to it (sent once it loaded its own
     * sources, after which its dest slice is not read), and a chunk reuses the areas of the one before only after
     * every peer combined it (a peer finishes a chunk only with every block reduced, the last of each peer's
     * combines). Steps {@code 2 + chunk x (2 log2 p2 + 2)} on, fold first and return last.
     */
    private static void halving(final Channel c, final int[] peers, final int idx, final ElementMath m, final ReduceOp op,
        final SymmetricArray<?> dest, final long lo, final MemorySegment acc, final long len, final long half, final long chunk)
    {
        final int n = peers.length;
        final int eb = m.bytes;
        final int p2 = Integer.highestOneBit(n);
        final int rem = n - p2;
        final int k = Integer.numberOfTrailingZeros(p2);
        final int perChunk = halvingSteps(n);
        final boolean folded = idx < 2 * rem; // one of a pair that folds into one peer
        final int v = folded ? idx / 2 : idx - rem; // virtual rank, for the odd one of a pair and the rest
        final MemorySegment mine = dest.segment();
        final MemorySegment scratch = c.scratch.segment();
        int step = 2;
        for (long from = 0; from < len; from += chunk, step += perChunk)
        {
            final long cl = Math.min(chunk, len - from);
            final MemorySegment part = acc.asSlice(from * eb, cl * eb);
            final long at = lo + from; // dest element of the chunk's first
            if (folded && (idx & 1) == 0)
            {
                c.putSignal(c.scratch, half, part, peers[idx + 1], step);
                c.await(peers[idx + 1], step + perChunk - 1); // the result is in dest
                continue;
            }
            if (folded)
            {
                c.await(peers[idx - 1], step);
                m.combine(op, part, scratch.asSlice(half, cl * eb), cl);
            }
            final long blockMax = (cl + p2 - 1) / p2;
            long area = half + (rem > 0 ? cl * eb : 0);
            int low = 0; // the first of this peer's current blocks
            for (int s = 0; s < k; s++)
            {
                final int d = p2 >> (s + 1);
                final int partner = peers[real(v ^ d, rem)];
                final boolean lower = (v & d) == 0;
                final int keep = lower ? low : low + d;
                final long sendFrom = Reductions.from(cl, p2, lower ? low + d : low);
                final long sendTo = Reductions.from(cl, p2, (lower ? low + d : low) + d);
                c.putSignal(c.scratch, area, part.asSlice(sendFrom * eb, (sendTo - sendFrom) * eb), partner, step + 1 + s);
                final long keepFrom = Reductions.from(cl, p2, keep);
                final long keepLen = Reductions.from(cl, p2, keep + d) - keepFrom;
                c.await(partner, step + 1 + s);
                m.combine(op, part.asSlice(keepFrom * eb, keepLen * eb), scratch.asSlice(area, keepLen * eb), keepLen);
                area += d * blockMax * eb;
                low = keep;
            }
            final long own = Reductions.from(cl, p2, v);
            MemorySegment.copy(part, own * eb, mine, (at + own) * eb, Reductions.length(cl, p2, v) * eb);
            for (int s = 0; s < k; s++)
            {
                final int d = 1 << s;
                final int partner = peers[real(v ^ d, rem)];
                final long f = Reductions.from(cl, p2, v & -d); // this peer's 2^s blocks, reduced
                final long t = Reductions.from(cl, p2, (v & -d) + d);
                c.putSignal(dest, at + f, mine.asSlice((at + f) * eb, (t - f) * eb), partner, step + 1 + k + s);
                c.await(partner, step + 1 + k + s);
            }
            if (folded)
            {
                c.putSignal(dest, at, mine.asSlice(at * eb, cl * eb), peers[idx - 1], step + perChunk - 1);
            }
        }
    }

    /** @return the peer index of virtual rank v of a fold of the first {@code 2 rem} peers. */
    private static int real(final int v, final int rem)
    {
        return v < rem ? 2 * v + 1 : v + rem;
    }
}
