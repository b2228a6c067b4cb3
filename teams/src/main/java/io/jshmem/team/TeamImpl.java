package io.jshmem.team;

import io.jshmem.ContextOption;
import io.jshmem.ReduceOp;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemException;
import io.jshmem.SymmetricArray;
import io.jshmem.Team;
import io.jshmem.TeamConfig;
import io.jshmem.TeamMesh;

import io.jshmem.transport.ReachabilityMap;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A team on one of its members: the (start, stride, size) triplet in WORLD, its slot, its channel, and
 * the entry points of every collective (argument checks, algorithm choice, chunking), which run the
 * algorithms of {@link Collectives} and {@link Reductions}.
 * <p>
 * Threads: one collective (or split, or destroy) at a time; a second concurrent call on the same team
 * fails fast. Queries are safe from any thread.
 */
final class TeamImpl extends Team
{
    private static final int SYNC = 1;
    private static final int BROADCAST = 2;
    private static final int COLLECT = 3;
    private static final int FCOLLECT = 4;
    private static final int ALLTOALL = 5;
    private static final int ALLTOALLS = 6;
    private static final int REDUCE = 7;
    private static final int SCAN = 8;
    private static final int SPLIT = 9;
    private static final int DESTROY = 10;
    /**
     * From this many bytes (up to 4 members; twice as many above) a reduction on a team whose members all
     * map each other's heaps runs {@link Reductions#reduceDirect}: measured with CollectivesBench on 2
     * cores, it beats the scratch-based algorithms from 2 KiB at 2 and 4 PEs and from 4 KiB at 8.
     */
    private static final long DIRECT_REDUCE_MIN_BYTES = 2 << 10;
    /**
     * Up to this many members, a team whose members all map each other's heaps uses the one-round
     * (linear) fcollect, collect, alltoall and small reductions: N-1 puts per member and one wait for
     * each, measured faster than recursive doubling, ring and pairwise at 8 PEs on 2 cores at every
     * size (e.g. 8-byte alltoall 15-20 µs vs 40-45 µs pairwise, fcollect 13-14 vs 21-25 µs).
     */
    private static final int LINEAR_MAX_MAPPED = 32;

    private final TeamRegistry registry;
    private final TeamSlot slot;
    private final Channel channel;
    private final int start;
    private final int stride;
    private final int size;
    private final int myRank;
    private final TeamConfig config;
    private final String name;
    private final AtomicBoolean busy = new AtomicBoolean();
    private final List<ShmemContext> contexts = new ArrayList<>();
    private volatile boolean destroyed;
    private Hierarchy hierarchy;
    private Boolean allMapped;

    TeamImpl(final TeamRegistry registry, final TeamSlot slot, final int start, final int stride, final int size, final int myRank,
        final TeamConfig config, final String name)
    {
        this.registry = registry;
        this.slot = slot;
        this.start = start;
        this.stride = size == 1 ? 1 : stride;
        this.size = size;
        this.myRank = myRank;
        this.config = config;
        this.name = name;
        this.channel = new Channel(registry.host.world(), slot, start, this.stride, size, myRank, registry.prefix);
    }

    // ------------------------------------------------------------------ queries

    @Override
    public int myPe()
    {
        return myRank;
    }

    @Override
    public int nPes()
    {
        return size;
    }

    @Override
    public int start()
    {
        return start;
    }

    @Override
    public int stride()
    {
        return stride;
    }

    @Override
    public int worldPe(final int pe)
    {
        if (pe < 0 || pe >= size)
        {
            throw new IndexOutOfBoundsException(registry.prefix + "pe=" + pe + " out of range [0, " + size + ") of " + this);
        }
        return start + pe * stride;
    }

    @Override
    public int teamPeOf(final int worldPe)
    {
        final int d = worldPe - start;
        if (d % stride != 0)
        {
            return -1;
        }
        final int i = d / stride;
        return i >= 0 && i < size ? i : -1;
    }

    @Override
    public TeamConfig config()
    {
        checkLive("config");
        return config;
    }

    /** @return the slot this team uses (tests). */
    int slotIndex()
    {
        return slot.index();
    }

    @Override
    public String toString()
    {
        return "team " + name + "(start=" + start + " stride=" + stride + " size=" + size + " slot=" + slot.index() +
            (destroyed ? " DESTROYED" : "") + ")";
    }

    private void checkLive(final String what)
    {
        if (destroyed)
        {
            throw new IllegalStateException(registry.prefix + what + " on a destroyed " + this);
        }
    }

    private void enter(final String what)
    {
        checkLive(what);
        if (!busy.compareAndSet(false, true))
        {
            throw new IllegalStateException(registry.prefix + what + " on " + this + " while another thread runs a collective on it " +
                "(one collective at a time per team; use one team per thread)");
        }
    }

    private void exit()
    {
        busy.set(false);
    }

    private void debugCheck(final String what, final int kind, final long detail, final long count)
    {
        if (registry.debug)
        {
            channel.check(what, ((long)kind << 56) ^ detail, count);
        }
    }

    // ------------------------------------------------------------------ creation and destruction

    String name()
    {
        return name;
    }

    Channel channel()
    {
        return channel;
    }

    TeamRegistry registry()
    {
        return registry;
    }

    @Override
    public Team splitStrided(final int pStart, final int pStride, final int pSize, final TeamConfig cfg)
    {
        enter("splitStrided");
        try
        {
            registry.beginCreate();
            debugCheck("splitStrided(" + pStart + ", " + pStride + ", " + pSize + ")", SPLIT, (pStart * 31L + pStride) * 31L + pSize, 0);
            return Splits.strided(this, pStart, pStride, pSize, cfg);
        }
        finally
        {
            registry.endCreate();
            exit();
        }
    }

    @Override
    public Split2d split2d(final int xrange, final TeamConfig xConfig, final TeamConfig yConfig)
    {
        enter("split2d");
        try
        {
            registry.beginCreate();
            debugCheck("split2d(" + xrange + ")", SPLIT, xrange, 0);
            return Splits.twoD(this, xrange, xConfig, yConfig);
        }
        finally
        {
            registry.endCreate();
            exit();
        }
    }

    @Override
    public TeamMesh mesh(final String[] names, final int... shape)
    {
        enter("mesh");
        try
        {
            registry.beginCreate();
            debugCheck("mesh" + java.util.Arrays.toString(shape), SPLIT, java.util.Arrays.hashCode(shape), shape.length);
            return Splits.mesh(this, names, shape);
        }
        finally
        {
            registry.endCreate();
            exit();
        }
    }

    @Override
    public ShmemContext createContext(final ContextOption... options)
    {
        checkLive("createContext");
        final ShmemContext ctx = registry.host.createContext(this, options);
        synchronized (contexts)
        {
            contexts.removeIf(registry.host::isClosed);
            contexts.add(ctx);
        }
        return ctx;
    }

    @Override
    public void close()
    {
        if (destroyed)
        {
            return;
        }
        if (this == registry.world() || this == registry.shared() || this == registry.node())
        {
            throw new IllegalStateException(registry.prefix + "destroy of the predefined " + this + " (only split teams are destroyed)");
        }
        enter("destroy");
        try
        {
            synchronized (contexts)
            {
                for (final ShmemContext ctx : contexts)
                {
                    ctx.close();
                }
                contexts.clear();
            }
            debugCheck("destroy", DESTROY, 0, 0);
            channel.next();
            Collectives.syncDissemination(channel); // afterwards no member writes into this slot any more
            destroyed = true;
            registry.release(slot);
        }
        finally
        {
            exit();
        }
    }

    @Override
    public MemorySegment ptr(final SymmetricArray<?> object, final int pe)
    {
        return registry.host.ptr(object, worldPe(pe));
    }

    // ------------------------------------------------------------------ collectives

    private void checkOwn(final SymmetricArray<?> h, final String what, final long elements)
    {
        if (h == null)
        {
            throw new NullPointerException(registry.prefix + what + " is null");
        }
        if (h.allocation().space() != slot.region().allocation().space())
        {
            throw new IllegalArgumentException(registry.prefix + what + " " + h + " was not allocated by this PE's job (a foreign handle)");
        }
        h.checkRange(0, elements);
    }

    private static void checkCount(final String prefix, final long count)
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

    @Override
    public void sync()
    {
        enter("sync");
        try
        {
            debugCheck("sync", SYNC, 0, 0);
            channel.next();
            barrier();
        }
        finally
        {
            exit();
        }
    }

    /** The two-level layout (computed once, the same on every member). Collective threads only. */
    private Hierarchy hierarchy()
    {
        if (hierarchy == null)
        {
            final int g = registry.groupSize;
            hierarchy = Hierarchy.of(size, myRank, g > 0 ? r -> r / g : r -> registry.nodeOfWorld[worldPe(r)]);
        }
        return hierarchy;
    }

    /**
     * @return whether every member maps every other member's heap (all pairs p2p in the job's reachability
     *         map, so the same answer on every member): then one-round algorithms (linear fcollect and
     *         alltoall, direct reductions) beat the multi-round ones, most of all when PEs outnumber cores
     *         and every extra round can cost a context switch. Collective threads only.
     */
    private boolean allMapped()
    {
        if (allMapped == null)
        {
            final ReachabilityMap map = registry.host.reachability();
            boolean all = true;
            for (int a = 0; a < size && all; a++)
            {
                for (int b = 0; b < size && all; b++)
                {
                    all = a == b || map.transport(worldPe(a), worldPe(b)) == ReachabilityMap.P2P;
                }
            }
            allMapped = all;
        }
        return allMapped;
    }

    /** @return whether the automatic choice takes the one-round (linear) algorithm: small teams, or mapped ones up to {@link #LINEAR_MAX_MAPPED}. */
    private boolean oneRound()
    {
        return size <= 4 || size <= LINEAR_MAX_MAPPED && allMapped();
    }

    private void barrier()
    {
        switch (registry.barrierAlgorithm)
        {
            case "linear" -> Collectives.syncLinear(channel);
            case "hierarchical" -> Hierarchical.sync(channel, hierarchy());
            case "auto" ->
            {
                if (hierarchy().isTwoLevel())
                {
                    Hierarchical.sync(channel, hierarchy());
                }
                else
                {
                    Collectives.syncDissemination(channel);
                }
            }
            default -> Collectives.syncDissemination(channel);
        }
    }

    @Override
    public <A> void broadcast(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count, final int root)
    {
        enter("broadcast");
        try
        {
            checkCount(registry.prefix, count);
            if (root < 0 || root >= size)
            {
                throw new IndexOutOfBoundsException(registry.prefix + "broadcast root=" + root + " out of range [0, " + size + ") of " + this);
            }
            checkOwn(dest, "broadcast dest", count);
            if (myRank == root)
            {
                checkOwn(src, "broadcast source", count);
            }
            debugCheck("broadcast(count=" + count + ", root=" + root + ")", BROADCAST, ((long)dest.elementBytes() << 32) | root, count);
            if (count == 0)
            {
                return;
            }
            channel.next();
            final long bytes = count * dest.elementBytes();
            final MemorySegment data = myRank == root ? src.segment().asSlice(0, bytes) : null;
            if (myRank == root)
            {
                MemorySegment.copy(data, 0, dest.segment(), 0, bytes);
            }
            String alg = registry.broadcastAlgorithm;
            if (alg.equals("auto"))
            {
                alg = hierarchy().isTwoLevel() ? "hierarchical"
                    : size <= 2 ? "linear"
                    : allMapped() ? (bytes >= 16 * 1024 && size <= 4 ? "linear" : "tree")
                    : bytes >= 32 * 1024 && size >= 4 ? "scatter_allgather" : "tree";
            }
            switch (alg)
            {
                case "linear" -> Collectives.broadcastLinear(channel, dest, data, root);
                case "hierarchical" -> Hierarchical.broadcast(channel, hierarchy(), dest, data, bytes, root);
                case "tree" -> Collectives.broadcastTree(channel, dest, data, bytes, root);
                default -> Collectives.broadcastScatterAllgather(channel, dest, data, count, root);
            }
        }
        finally
        {
            exit();
        }
    }

    @Override
    public <A> void collect(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        enter("collect");
        try
        {
            checkCount(registry.prefix, count);
            checkOwn(src, "collect source", count);
            checkOwn(dest, "collect dest", 0);
            debugCheck("collect", COLLECT, dest.elementBytes(), -1);
            final long[][] counts = channel.exchange(count, 0);
            final long[] offsets = new long[size + 1];
            for (int r = 0; r < size; r++)
            {
                offsets[r + 1] = offsets[r] + counts[r][0];
            }
            checkOwn(dest, "collect dest (total " + offsets[size] + " elements)", offsets[size]);
            allgather("collect", registry.collectAlgorithm, dest, src, offsets);
        }
        finally
        {
            exit();
        }
    }

    @Override
    public <A> void fcollect(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        enter("fcollect");
        try
        {
            checkCount(registry.prefix, count);
            checkOwn(src, "fcollect source", count);
            checkOwn(dest, "fcollect dest", count * size);
            debugCheck("fcollect(count=" + count + ")", FCOLLECT, dest.elementBytes(), count);
            final long[] offsets = new long[size + 1];
            for (int r = 0; r <= size; r++)
            {
                offsets[r] = r * count;
            }
            allgather("fcollect", registry.fcollectAlgorithm, dest, src, offsets);
        }
        finally
        {
            exit();
        }
    }

    private void allgather(final String what, final String algorithm, final SymmetricArray<?> dest, final SymmetricArray<?> src,
        final long[] offsets)
    {
        if (offsets[size] == 0)
        {
            return;
        }
        final int eb = dest.elementBytes();
        final long mine = offsets[myRank + 1] - offsets[myRank];
        MemorySegment.copy(src.segment(), 0, dest.segment(), offsets[myRank] * eb, mine * eb);
        channel.next();
        String alg = algorithm;
        if (alg.equals("auto"))
        {
            alg = oneRound() ? "linear"
                : offsets[size] * eb <= 64 * 1024 ? "recursive_doubling" : "ring";
        }
        switch (alg)
        {
            case "linear" -> Collectives.allgatherLinear(channel, dest, offsets);
            case "ring" -> Collectives.allgatherRing(channel, dest, offsets);
            default -> Collectives.allgatherRecursiveDoubling(channel, dest, offsets);
        }
    }

    @Override
    public <A> void alltoall(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        enter("alltoall");
        try
        {
            checkCount(registry.prefix, count);
            checkOwn(src, "alltoall source", count * size);
            checkOwn(dest, "alltoall dest", count * size);
            debugCheck("alltoall(count=" + count + ")", ALLTOALL, dest.elementBytes(), count);
            if (count == 0)
            {
                return;
            }
            final int eb = dest.elementBytes();
            final MemorySegment s = src.segment();
            MemorySegment.copy(s, myRank * count * eb, dest.segment(), myRank * count * eb, count * eb);
            channel.next();
            if (pairwise())
            {
                Collectives.alltoallPairwise(channel, dest, s, count);
            }
            else
            {
                Collectives.alltoallLinear(channel, dest, s, count);
            }
        }
        finally
        {
            exit();
        }
    }

    private boolean pairwise()
    {
        final String alg = registry.alltoallAlgorithm;
        return alg.equals("pairwise") || alg.equals("auto") && !oneRound();
    }

    @Override
    public <A> void alltoalls(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long dst, final long sst, final long count)
    {
        enter("alltoalls");
        try
        {
            checkCount(registry.prefix, count);
            if (dst < 1 || sst < 1)
            {
                throw new IllegalArgumentException(registry.prefix + "alltoalls strides dst=" + dst + " sst=" + sst + " must be at least 1");
            }
            checkOwn(src, "alltoalls source (sst=" + sst + ")", span(sst, count * size));
            checkOwn(dest, "alltoalls dest (dst=" + dst + ")", span(dst, count * size));
            debugCheck("alltoalls(count=" + count + ")", ALLTOALLS, (dst * 31 + sst) * 8 + dest.elementBytes(), count);
            if (count == 0)
            {
                return;
            }
            channel.next();
            Collectives.alltoallsLinear(channel, dest, src.segment().asSlice(0, span(sst, count * size) * src.elementBytes()),
                dst, sst, count, pairwise());
        }
        finally
        {
            exit();
        }
    }

    @Override
    public <A> void reduce(final ReduceOp op, final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        enter("reduce");
        try
        {
            final ElementMath m = checkReduction("reduce " + op, op, dest, src, count);
            debugCheck(op + " reduce(count=" + count + ")", REDUCE, ((long)op.ordinal() << 8) | m.bytes, count);
            String alg = registry.reduceAlgorithm;
            final long bytes = count * m.bytes;
            if (alg.equals("direct") || alg.equals("auto") && size > 1 && bytes >= (size <= 4 ? 1 : 2) * DIRECT_REDUCE_MIN_BYTES)
            {
                if (allMapped())
                {
                    Reductions.reduceDirect(channel, m, op, mapped(dest), mapped(src), count);
                    return;
                }
                alg = alg.equals("direct") ? "ring" : alg; // a member's heap is not mapped here (another node)
            }
            if (alg.equals("auto"))
            {
                alg = hierarchy().isTwoLevel() && bytes < 64 * 1024 ? "hierarchical"
                    : oneRound() && bytes <= 4096 ? "linear"
                    : bytes >= 64 * 1024 && size > 1 ? "ring" : "recursive_doubling";
            }
            if (alg.equals("linear") && channel.bufferBytes(size) < m.bytes)
            {
                alg = "recursive_doubling"; // the scratch cannot hold a buffer per member
            }
            final long bufBytes = channel.bufferBytes(alg.equals("hierarchical") ? Hierarchical.buffers(hierarchy()) : Reductions.buffers(alg, size));
            final long chunk = chunk(Reductions.chunkElements(alg, size, bufBytes, m.bytes), bufBytes);
            final MemorySegment s = src.segment();
            for (long from = 0; from < count; from += chunk)
            {
                final long n = Math.min(chunk, count - from);
                final MemorySegment piece = s.asSlice(from * m.bytes, n * m.bytes);
                switch (alg)
                {
                    case "linear" -> Reductions.reduceLinearChunk(channel, m, op, dest, piece, from, n, bufBytes);
                    case "ring" -> Reductions.reduceRingChunk(channel, m, op, dest, piece, from, n, bufBytes);
                    case "hierarchical" -> Hierarchical.reduceChunk(channel, hierarchy(), m, op, dest, piece, from, n, bufBytes);
                    default -> Reductions.reduceRecursiveDoublingChunk(channel, m, op, dest, piece, from, n, bufBytes);
                }
            }
        }
        finally
        {
            exit();
        }
    }

    /** @return every member's copy of {@code object} (team rank order); only when {@link #allMapped()}. */
    private MemorySegment[] mapped(final SymmetricArray<?> object)
    {
        final MemorySegment[] all = new MemorySegment[size];
        for (int r = 0; r < size; r++)
        {
            all[r] = registry.host.ptr(object, channel.world(r));
        }
        return all;
    }

    private long chunk(final long chunk, final long bufBytes)
    {
        if (chunk < 1)
        {
            throw new ShmemException(registry.prefix + "team scratch too small for " + size + " PEs: " + bufBytes +
                " bytes per buffer; raise SHMEM_TEAM_SCRATCH_SIZE");
        }
        return chunk;
    }

    private ElementMath checkReduction(final String what, final ReduceOp op, final SymmetricArray<?> dest, final SymmetricArray<?> src,
        final long count)
    {
        checkCount(registry.prefix, count);
        checkOwn(src, what + " source", count);
        checkOwn(dest, what + " dest", count);
        final ElementMath m = ElementMath.of(dest.elementLayout());
        if (op == null || !m.supports(op))
        {
            throw new IllegalArgumentException(registry.prefix + what + ": " + op + " does not apply to " + m.typeName +
                " elements (AND, OR and XOR need an integer type)");
        }
        final long d0 = dest.offset();
        final long s0 = src.offset();
        final long bytes = count * m.bytes;
        if (count > 0 && d0 != s0 && d0 < s0 + bytes && s0 < d0 + bytes)
        {
            throw new IllegalArgumentException(registry.prefix + what + ": dest " + dest + " and source " + src +
                " overlap without being the same (in place needs dest == src)");
        }
        return m;
    }

    @Override
    public <A> void sumInscan(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        scan("sumInscan", true, dest, src, count);
    }

    @Override
    public <A> void sumExscan(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        scan("sumExscan", false, dest, src, count);
    }

    private void scan(final String what, final boolean inclusive, final SymmetricArray<?> dest, final SymmetricArray<?> src, final long count)
    {
        enter(what);
        try
        {
            final ElementMath m = checkReduction(what, ReduceOp.SUM, dest, src, count);
            debugCheck(what + "(count=" + count + ")", SCAN, (inclusive ? 16 : 0) | m.bytes, count);
            String alg = registry.scanAlgorithm;
            if (alg.equals("auto"))
            {
                alg = size <= 4 ? "linear" : "recursive_doubling";
            }
            final boolean linear = alg.equals("linear") && channel.bufferBytes(size) >= m.bytes;
            final String used = linear ? "linear" : "recursive_doubling";
            final long bufBytes = channel.bufferBytes(Reductions.buffers(used, size));
            final long chunk = chunk(Reductions.chunkElements(used, size, bufBytes, m.bytes), bufBytes);
            final MemorySegment s = src.segment();
            for (long from = 0; from < count; from += chunk)
            {
                final long n = Math.min(chunk, count - from);
                final MemorySegment piece = s.asSlice(from * m.bytes, n * m.bytes);
                if (linear)
                {
                    Reductions.scanLinearChunk(channel, m, inclusive, dest, piece, from, n, bufBytes);
                }
                else
                {
                    Reductions.scanRecursiveDoublingChunk(channel, m, inclusive, dest, piece, from, n, bufBytes);
                }
            }
        }
        finally
        {
            exit();
        }
    }
}
