package io.jshmem.team;

import io.jshmem.ReduceOp;
import io.jshmem.ShmemException;
import io.jshmem.SymmetricArray;

import java.lang.foreign.MemorySegment;

/**
 * The collective dispatch of one team on one member: argument checks, the SHMEM_DEBUG fingerprint,
 * the algorithm choice ({@link Choice} over the forced {@link Algorithm}s and the team's layout), and
 * chunking; the algorithms themselves are in {@link Collectives}, {@link Reductions} and
 * {@link Hierarchical}. {@link TeamImpl} calls it inside its one-collective-at-a-time guard, so its lazily
 * computed layout needs no synchronisation.
 */
final class TeamCollectives
{
    static final int SYNC = 1;
    static final int BROADCAST = 2;
    static final int COLLECT = 3;
    static final int FCOLLECT = 4;
    static final int ALLTOALL = 5;
    static final int ALLTOALLS = 6;
    static final int REDUCE = 7;
    static final int SCAN = 8;
    static final int SPLIT = 9;
    static final int DESTROY = 10;

    private final TeamImpl team;
    private final TeamRegistry registry;
    private final Channel channel;
    private final String prefix;
    private final int size;
    private final int myRank;
    private Hierarchy hierarchy;
    private Boolean allMapped;
    private Boolean groupsMapped;
    /** fcollect's block offsets for the last count (read only by the algorithms): back-to-back calls allocate nothing. */
    private long[] fcollectOffsets;

    TeamCollectives(final TeamImpl team, final TeamRegistry registry, final Channel channel, final int size, final int myRank)
    {
        this.team = team;
        this.registry = registry;
        this.channel = channel;
        this.prefix = registry.prefix;
        this.size = size;
        this.myRank = myRank;
    }

    void debugCheck(final String what, final int kind, final long detail, final long count)
    {
        if (registry.debug)
        {
            channel.check(what, ((long)kind << 56) ^ detail, count);
        }
    }

    /** The two-level layout (computed once, the same on every member). */
    Hierarchy hierarchy()
    {
        if (hierarchy == null)
        {
            final int g = registry.groupSize;
            final NodeLayout layout = registry.layout;
            hierarchy = Hierarchy.of(size, myRank, g > 0 ? r -> r / g : r -> layout.node(team.worldPe(r)));
        }
        return hierarchy;
    }

    /**
     * @return whether every member maps every other member's heap (all pairs p2p in the job's layout, so
     *         the same answer on every member): then one-round algorithms (linear fcollect and alltoall,
     *         direct reductions) beat the multi-round ones, most of all when PEs outnumber cores and every
     *         extra round can cost a context switch. Never true for members on different nodes.
     */
    boolean allMapped()
    {
        if (allMapped == null)
        {
            final NodeLayout layout = registry.layout;
            boolean all = true;
            for (int a = 0; a < size && all; a++)
            {
                for (int b = 0; b < size && all; b++)
                {
                    all = layout.p2p(team.worldPe(a), team.worldPe(b));
                }
            }
            allMapped = all;
        }
        return allMapped;
    }

    /**
     * @return whether the members of every group of {@link #hierarchy()} map each other's heaps (every pair inside a
     *         group p2p in the job's layout: the same answer on every member), the condition of the split reduction.
     */
    boolean groupsMapped()
    {
        if (groupsMapped == null)
        {
            final NodeLayout layout = registry.layout;
            boolean all = true;
            for (final int[] g : hierarchy().groups())
            {
                for (int a = 0; a < g.length && all; a++)
                {
                    for (int b = 0; b < g.length && all; b++)
                    {
                        all = layout.p2p(team.worldPe(g[a]), team.worldPe(g[b]));
                    }
                }
            }
            groupsMapped = all;
        }
        return groupsMapped;
    }

    // ------------------------------------------------------------------ checks

    private void checkOwn(final SymmetricArray<?> h, final String what, final long elements)
    {
        if (h == null && elements == 0)
        {
            return; // a zero-count collective may name no object (as shmem_malloc(0) gives NULL): a no-op for it
        }
        if (h == null)
        {
            throw new NullPointerException(prefix + what + " is null");
        }
        if (h.allocation().space() != channel.sig.allocation().space())
        {
            throw new IllegalArgumentException(prefix + what + " " + h + " was not allocated by this PE's job (a foreign handle)");
        }
        h.checkRange(0, elements);
    }

    /** {@link #checkOwn(SymmetricArray, String, long)} naming the handle {@code what op role} (built only on failure). */
    private void checkOwn(final SymmetricArray<?> h, final String what, final ReduceOp op, final String role, final long elements)
    {
        if (h == null && elements == 0)
        {
            return;
        }
        if (h == null || h.allocation().space() != channel.sig.allocation().space())
        {
            checkOwn(h, what + " " + op + role, elements);
        }
        h.checkRange(0, elements);
    }

        private void checkCount(final long count)
    {
        if (count < 0)
        {
            throw new IllegalArgumentException(prefix + "count=" + count + " is negative");
        }
    }

    private static long span(final long stride, final long n)
    {
        return n == 0 ? 0 : (n - 1) * stride + 1;
    }

    private long chunk(final long chunk, final long bufBytes)
    {
        if (chunk < 1)
        {
            throw new ShmemException(prefix + "team scratch too small for " + size + " PEs: " + bufBytes +
                " bytes per buffer; raise SHMEM_TEAM_SCRATCH_SIZE");
        }
        return chunk;
    }

    // ------------------------------------------------------------------ observation (JFR's jshmem.Collective)

    /** The algorithm the running collective chose ("" until it chooses), for its JFR event. */
    String algorithm = "";
    /** The bytes of the running collective's destination on this PE, for its JFR event. */
    long bytes;

    /** Notes a collective's choice for its event and returns it (one call around each Choice). */
    private <E extends Enum<E>> E chosen(final E alg, final long destBytes)
    {
        algorithm = alg.name();
        bytes = destBytes;
        return alg;
    }

    // ------------------------------------------------------------------ sync

    void sync()
    {
        if (registry.debug)
        {
            debugCheck("sync", SYNC, 0, 0);
        }
        channel.next();
        barrier();
    }

    private void barrier()
    {
        switch (chosen(Choice.sync(registry.syncAlgorithm, hierarchy().isTwoLevel()), 0))
        {
            case LINEAR -> Collectives.syncLinear(channel);
            case HIERARCHICAL -> Hierarchical.sync(channel, hierarchy());
            default -> Collectives.syncDissemination(channel);
        }
    }

    // ------------------------------------------------------------------ broadcast

    <A> void broadcast(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count, final int root)
    {
        checkCount(count);
        if (root < 0 || root >= size)
        {
            throw new IndexOutOfBoundsException(prefix + "broadcast root=" + root + " out of range [0, " + size + ") of " + team);
        }
        checkOwn(dest, "broadcast dest", count);
        if (myRank == root)
        {
            checkOwn(src, "broadcast source", count);
        }
        if (registry.debug)
        {
            debugCheck("broadcast(count=" + count + ", root=" + root + ")", BROADCAST, ((long)dest.elementBytes() << 32) | root, count);
        }
        if (count == 0)
        {
            return;
        }
        channel.next();
        final long bytes = count * dest.elementBytes();
        final MemorySegment data = myRank == root ? src.segment() : null; // its first bytes (the algorithms name them)
        if (myRank == root)
        {
            MemorySegment.copy(data, 0, dest.segment(), 0, bytes);
        }
        final boolean twoLevel = hierarchy().isTwoLevel();
        switch (chosen(Choice.broadcast(registry.broadcastAlgorithm, size, bytes, twoLevel, !twoLevel && size > 2 && allMapped(),
            registry.spareCores), bytes))
        {
            case LINEAR -> Collectives.broadcastLinear(channel, dest, data, bytes, root);
            case HIERARCHICAL -> Hierarchical.broadcast(channel, hierarchy(), dest, data, bytes, root,
                Choice.pullRelease(registry.release, groupsMapped(), registry.sharedCores, bytes));
            case TREE -> Collectives.broadcastTree(channel, dest, data, bytes, root);
            default -> Collectives.broadcastScatterAllgather(channel, dest, data, count, root);
        }
    }

    // ------------------------------------------------------------------ collect, fcollect

    <A> void collect(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        checkCount(count);
        checkOwn(src, "collect source", count);
        checkOwn(dest, "collect dest", 0);
        if (registry.debug)
        {
            debugCheck("collect", COLLECT, dest.elementBytes(), -1);
        }
        final long[][] counts = channel.exchange(count, 0);
        final long[] offsets = new long[size + 1];
        for (int r = 0; r < size; r++)
        {
            offsets[r + 1] = offsets[r] + counts[r][0];
        }
        checkOwn(dest, "collect dest (total " + offsets[size] + " elements)", offsets[size]);
        allgather(registry.collectAlgorithm, dest, src, offsets);
    }

    <A> void fcollect(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        checkCount(count);
        checkOwn(src, "fcollect source", count);
        checkOwn(dest, "fcollect dest", count * size);
        if (registry.debug)
        {
            debugCheck("fcollect(count=" + count + ")", FCOLLECT, dest.elementBytes(), count);
        }
        if (fcollectOffsets == null || fcollectOffsets[1] != count)
        {
            final long[] offsets = new long[size + 1]; // kept for the next call of the same count
            for (int r = 0; r <= size; r++)
            {
                offsets[r] = r * count;
            }
            fcollectOffsets = offsets;
        }
        allgather(registry.fcollectAlgorithm, dest, src, fcollectOffsets);
    }

    private void allgather(final Algorithm.Allgather forced, final SymmetricArray<?> dest, final SymmetricArray<?> src, final long[] offsets)
    {
        if (offsets[size] == 0)
        {
            return;
        }
        final int eb = dest.elementBytes();
        final long mine = offsets[myRank + 1] - offsets[myRank];
        MemorySegment.copy(src.segment(), 0, dest.segment(), offsets[myRank] * eb, mine * eb);
        channel.next();
        switch (chosen(Choice.allgather(forced, size, offsets[size] * eb, hierarchy().isTwoLevel(), allMapped(), registry.spareCores),
            offsets[size] * eb))
        {
            case LINEAR -> Collectives.allgatherLinear(channel, dest, offsets);
            case RING -> Collectives.allgatherRing(channel, dest, offsets);
            case HIERARCHICAL -> Hierarchical.allgather(channel, hierarchy(), dest, offsets,
                Choice.pullRelease(registry.release, groupsMapped(), registry.sharedCores, offsets[size] * eb));
            default -> Collectives.allgatherRecursiveDoubling(channel, dest, offsets);
        }
    }

    // ------------------------------------------------------------------ alltoall, alltoalls

    <A> void alltoall(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        checkCount(count);
        checkOwn(src, "alltoall source", count * size);
        checkOwn(dest, "alltoall dest", count * size);
        if (registry.debug)
        {
            debugCheck("alltoall(count=" + count + ")", ALLTOALL, dest.elementBytes(), count);
        }
        if (count == 0)
        {
            return;
        }
        final int eb = dest.elementBytes();
        final MemorySegment s = src.segment();
        MemorySegment.copy(s, myRank * count * eb, dest.segment(), myRank * count * eb, count * eb);
        switch (chosen(alltoallAlgorithm(eb, count), count * eb * size))
        {
            case PAIRWISE ->
            {
                channel.next();
                Collectives.alltoallPairwise(channel, dest, s, count);
            }
            case AGGREGATE -> Aggregate.alltoall(channel, hierarchy(), dest, channel.copies(src, hierarchy().group()), count);
            case HIERARCHICAL ->
            {
                final long chunk = Hierarchical.alltoallChunk(channel, hierarchy(), eb);
                for (long from = 0; from < count; from += chunk)
                {
                    Hierarchical.alltoallChunk(channel, hierarchy(), dest, s, count, from, Math.min(chunk, count - from));
                }
            }
            default ->
            {
                channel.next();
                Collectives.alltoallLinear(channel, dest, s, count);
            }
        }
    }

    /**
     * @param count elements per block (0: alltoalls, which has no hierarchical form, so auto never takes it)
     * @return the alltoall algorithm; hierarchical only when the scratch holds a chunk of at least one
     *         element per block (else pairwise), and by auto only in few chunks ({@link Choice#alltoall}).
     */
    private Algorithm.Alltoall alltoallAlgorithm(final int elementBytes, final long count)
    {
        final boolean twoLevel = hierarchy().isTwoLevel();
        final long chunk = Hierarchical.alltoallChunk(channel, hierarchy(), elementBytes);
        final long chunks = count > 0 && chunk >= 1 ? (count + chunk - 1) / chunk : Long.MAX_VALUE;
        final Algorithm.Alltoall alg = Choice.alltoall(registry.alltoallAlgorithm, size, twoLevel, (twoLevel || size > 4) && allMapped(),
            groupsMapped(), hierarchy().minGroup(), hierarchy().maxGroup(), hierarchy().groups().length, count * elementBytes, chunks,
            registry.sharedCores);
        return alg == Algorithm.Alltoall.HIERARCHICAL && chunk < 1 ? Algorithm.Alltoall.PAIRWISE : alg;
    }

    /** alltoalls: linear, or pairwise when alltoall would be (the hierarchical alltoall has no strided form: across nodes, linear). */
    private boolean pairwise()
    {
        return alltoallAlgorithm(1, 0) == Algorithm.Alltoall.PAIRWISE;
    }

    <A> void alltoalls(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long dst, final long sst, final long count)
    {
        checkCount(count);
        if (dst < 1 || sst < 1)
        {
            throw new IllegalArgumentException(prefix + "alltoalls strides dst=" + dst + " sst=" + sst + " must be at least 1");
        }
        checkOwn(src, "alltoalls source (sst=" + sst + ")", span(sst, count * size));
        checkOwn(dest, "alltoalls dest (dst=" + dst + ")", span(dst, count * size));
        if (registry.debug)
        {
            debugCheck("alltoalls(count=" + count + ")", ALLTOALLS, (dst * 31 + sst) * 8 + dest.elementBytes(), count);
        }
        if (count == 0)
        {
            return;
        }
        channel.next();
        Collectives.alltoallsLinear(channel, dest, src.segment().asSlice(0, span(sst, count * size) * src.elementBytes()),
            dst, sst, count, pairwise());
    }

    // ------------------------------------------------------------------ reductions, scans

    <A> void reduce(final ReduceOp op, final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        final ElementMath m = checkReduction("reduce", op, dest, src, count);
        if (m == null)
        {
            return;
        }
        if (registry.debug)
        {
            debugCheck(op + " reduce(count=" + count + ")", REDUCE, ((long)op.ordinal() << 8) | m.bytes, count);
        }
        final long bytes = count * m.bytes;
        final Algorithm.Reduce alg = chosen(Choice.reduce(registry.reduceAlgorithm, size, bytes, hierarchy().isTwoLevel(),
            allMapped(), groupsMapped(), channel.bufferBytes(size) >= m.bytes, registry.spareCores), bytes);
        if (alg == Algorithm.Reduce.SPLIT)
        {
            final Hierarchy h = hierarchy();
            final long bufBytes = channel.bufferBytes(Hierarchical.splitBuffers(h));
            Hierarchical.reduceSplit(channel, h, m, op, dest, channel.copies(dest, h.group()), channel.copies(src, h.group()), count,
                Choice.splitSlices(registry.splitSlices, h.minGroup(), bytes, bufBytes, registry.sharedCores), bufBytes,
                registry.splitExchange);
            return;
        }
        if (alg == Algorithm.Reduce.DIRECT)
        {
            Reductions.reduceDirect(channel, m, op, channel.copies(dest, null), channel.copies(src, null), count);
            return;
        }
        final long bufBytes = channel.bufferBytes(alg == Algorithm.Reduce.HIERARCHICAL ? Hierarchical.buffers(hierarchy()) : Reductions.buffers(alg, size));
        final long chunk = chunk(Reductions.chunkElements(alg, size, bufBytes, m.bytes), bufBytes);
        Reductions.reduceChunked(channel, alg, alg == Algorithm.Reduce.HIERARCHICAL ? hierarchy() : null, m, op, dest, src.segment(), count,
            chunk, bufBytes);
    }

    /**
     * @param what the collective's name; messages add the op ({@code "reduce SUM"}) only when they are built.
     * @return the element math, or null for a zero-count call that names no objects (a no-op).
     */
    private ElementMath checkReduction(final String what, final ReduceOp op, final SymmetricArray<?> dest, final SymmetricArray<?> src,
        final long count)
    {
        checkCount(count);
        checkOwn(src, what, op, " source", count);
        checkOwn(dest, what, op, " dest", count);
        if (dest == null || src == null)
        {
            return null; // count 0 without objects: nothing to reduce (checkOwn refused null for any other count)
        }
        final ElementMath m = ElementMath.of(dest.elementLayout());
        if (op == null || !m.supports(op))
        {
            throw new IllegalArgumentException(prefix + what + " " + op + ": " + op + " does not apply to " + m.typeName +
                " elements (AND, OR and XOR need an integer type)");
        }
        final long d0 = dest.offset();
        final long s0 = src.offset();
        final long bytes = count * m.bytes;
        if (count > 0 && d0 != s0 && d0 < s0 + bytes && s0 < d0 + bytes)
        {
            throw new IllegalArgumentException(prefix + what + " " + op + ": dest " + dest + " and source " + src +
                " overlap without being the same (in place needs dest == src)");
        }
        return m;
    }

    void scan(final String what, final boolean inclusive, final SymmetricArray<?> dest, final SymmetricArray<?> src, final long count)
    {
        final ElementMath m = checkReduction(what, ReduceOp.SUM, dest, src, count);
        if (m == null)
        {
            return;
        }
        if (registry.debug)
        {
            debugCheck(what + "(count=" + count + ")", SCAN, (inclusive ? 16 : 0) | m.bytes, count);
        }
        final boolean linear = chosen(Choice.scan(registry.scanAlgorithm, size, channel.bufferBytes(size) >= m.bytes), count * m.bytes) == Algorithm.Scan.LINEAR;
        final Algorithm.Reduce buffers = linear ? Algorithm.Reduce.LINEAR : Algorithm.Reduce.RECURSIVE_DOUBLING;
        final long bufBytes = channel.bufferBytes(Reductions.buffers(buffers, size));
        final long chunk = chunk(Reductions.chunkElements(buffers, size, bufBytes, m.bytes), bufBytes);
        Reductions.scanChunked(channel, linear, m, inclusive, dest, src.segment(), count, chunk, bufBytes);
    }
}
