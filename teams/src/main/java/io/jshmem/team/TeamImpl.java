package io.jshmem.team;

import io.jshmem.ContextOption;
import io.jshmem.ReduceOp;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricArray;
import io.jshmem.Team;
import io.jshmem.TeamConfig;
import io.jshmem.TeamMesh;
import io.jshmem.jfr.CollectiveEvent;
import io.jshmem.jfr.Jfr;
import io.jshmem.spi.PeStats;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A team on one of its members: the (start, stride, size) triplet in WORLD and the translations it
 * defines, its slot and channel, creation of child teams ({@link Splits}), destruction, contexts, and
 * the entry point of every collective, which {@link TeamCollectives} dispatches to an algorithm.
 * <p>
 * Threads: one collective (or split, or destroy) at a time; a second concurrent call on the same team
 * fails fast. Queries are safe from any thread.
 */
final class TeamImpl extends Team
{
    private final TeamRegistry registry;
    private final TeamSlot slot;
    private final Channel channel;
    private final int start;
    private final int stride;
    private final int size;
    private final Triplet triplet;
    private final int myRank;
    private final TeamConfig config;
    private final String name;
    private final AtomicBoolean busy = new AtomicBoolean();
    private final List<ShmemContext> contexts = new ArrayList<>();
    private final TeamCollectives collectives;
    /** SHMEM_STATS counters of the PE, or null when off. */
    private final PeStats stats;
    /** The running collective's name and JFR event (null when no recording wants it); owned by the busy holder. */
    private String running;
    private CollectiveEvent event;
    private volatile boolean destroyed;

    TeamImpl(final TeamRegistry registry, final TeamSlot slot, final int start, final int stride, final int size, final int myRank,
        final TeamConfig config, final String name)
    {
        this.registry = registry;
        this.slot = slot;
        this.start = start;
        this.stride = size == 1 ? 1 : stride;
        this.size = size;
        this.triplet = new Triplet(start, this.stride, size);
        this.myRank = myRank;
        this.config = config;
        this.name = name;
        this.channel = new Channel(registry.host.collectives(), slot, start, this.stride, size, myRank, registry.prefix, registry.timeoutNs, this);
        final int meWorld = start + myRank * this.stride;
        this.channel.mapPeers(registry.host, w -> registry.layout.p2p(meWorld, w));
        this.collectives = new TeamCollectives(this, registry, channel, size, myRank);
        this.stats = registry.host.stats();
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
        return triplet.indexOf(worldPe);
    }

    /** @return the team's (start, stride, size) in WORLD. */
    Triplet triplet()
    {
        return triplet;
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
        registry.host.checkUsable(what, this);
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
        channel.begin(what);
        running = what;
        collectives.algorithm = "";
        collectives.bytes = 0;
        event = Jfr.collectiveBegun();
    }

    private void exit()
    {
        final CollectiveEvent e = event;
        if (e != null)
        {
            event = null;
            e.end();
            if (e.shouldCommit())
            {
                e.pe = registry.host.myPe();
                e.team = name;
                e.teamSize = size;
                e.collective = running;
                e.algorithm = collectives.algorithm;
                e.bytes = collectives.bytes;
                e.commit();
            }
        }
        if (stats != null)
        {
            stats.collective(running);
        }
        busy.set(false);
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
            collectives.debugCheck("splitStrided(" + pStart + ", " + pStride + ", " + pSize + ")", TeamCollectives.SPLIT, (pStart * 31L + pStride) * 31L + pSize, 0);
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
            collectives.debugCheck("split2d(" + xrange + ")", TeamCollectives.SPLIT, xrange, 0);
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
            collectives.debugCheck("mesh" + java.util.Arrays.toString(shape), TeamCollectives.SPLIT, java.util.Arrays.hashCode(shape), shape.length);
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
            collectives.debugCheck("destroy", TeamCollectives.DESTROY, 0, 0);
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

    @Override
    public void sync()
    {
        enter("sync");
        try
        {
            collectives.sync();
        }
        finally
        {
            exit();
        }
    }

    @Override
    public <A> void broadcast(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count, final int root)
    {
        enter("broadcast");
        try
        {
            collectives.broadcast(dest, src, count, root);
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
            collectives.collect(dest, src, count);
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
            collectives.fcollect(dest, src, count);
        }
        finally
        {
            exit();
        }
    }

    @Override
    public <A> void alltoall(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
    {
        enter("alltoall");
        try
        {
            collectives.alltoall(dest, src, count);
        }
        finally
        {
            exit();
        }
    }

    @Override
    public <A> void alltoalls(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long dst, final long sst, final long count)
    {
        enter("alltoalls");
        try
        {
            collectives.alltoalls(dest, src, dst, sst, count);
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
            collectives.reduce(op, dest, src, count);
        }
        finally
        {
            exit();
        }
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
            collectives.scan(what, inclusive, dest, src, count);
        }
        finally
        {
            exit();
        }
    }
}
