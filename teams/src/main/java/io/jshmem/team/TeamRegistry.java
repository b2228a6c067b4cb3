package io.jshmem.team;

import io.jshmem.SymmetricMemory;
import io.jshmem.TeamConfig;
import io.jshmem.TeamExhaustedException;

import java.util.Arrays;

/**
 * A PE's teams: the pool of team slots reserved in the symmetric heap at init (SOS-style), which slots
 * this PE's live teams use, the predefined teams, and the algorithm choices. A split picks the lowest
 * slot free on every PE of the parent by exchanging the PEs' slot bitmaps over the parent (so members
 * agree without a WORLD-collective allocation); destroy zeroes the slot and frees it for reuse.
 * <p>
 * Threads: the bitmap is guarded by this object; team creation must still be called in the same order
 * on every PE, as every collective.
 */
public final class TeamRegistry
{
    /** Slots of the predefined teams. */
    static final int WORLD_SLOT = 0;
    static final int SHARED_SLOT = 1;
    static final int NODE_SLOT = 2;
    /** The exchange carries 2 longs of bitmap. */
    static final int MAX_SLOTS = 128;

    final TeamHost host;
    final String prefix;
    final boolean debug;
    final Algorithm.Sync syncAlgorithm;
    final Algorithm.Broadcast broadcastAlgorithm;
    final Algorithm.Allgather collectAlgorithm;
    final Algorithm.Allgather fcollectAlgorithm;
    final Algorithm.Alltoall alltoallAlgorithm;
    final Algorithm.Reduce reduceAlgorithm;
    final Algorithm.Scan scanAlgorithm;
    /** The split reduction's exchange between nodes forced by a test hook, else AUTO. */
    final Choice.SplitExchange splitExchange;
    /** Owners per group a split reduction is forced to ({@link Choice#SPLIT_SLICES_TEST_VARIABLE}), 0 for the choice's. */
    final int splitSlices;
    /** The test hook {@value Choice#RELEASE_TEST_VARIABLE}: AUTO unless a test or a measurement forces one. */
    final Choice.Release release;
    /** {@code SHMEM_COLLECTIVE_TIMEOUT} in ns: the deadline of every wait in a collective, 0 for none. */
    final long timeoutNs;
    /** {@code SHMEM_TEAM_GROUP_SIZE}: 0 groups by node. */
    final int groupSize;
    /** The node of every WORLD PE and the p2p pairs. */
    final NodeLayout layout;
    /**
     * Whether this host has a CPU for every PE of the job on it ({@link #hostCpus()}): {@link Choice}
     * then takes the algorithms measured best on real cores for one-node teams of 8 or more. The same on
     * every PE of a host, so every member of a one-node team chooses alike.
     */
    final boolean spareCores;
    /**
     * Whether a machine of the job runs more PEs than it has cores, the same on every PE ({@link TeamHost#sharedCores()}):
     * see {@link Choice#splitSlices}.
     */
    final boolean sharedCores;
    private final SymmetricMemory pool;
    private final int slots;
    private final long scratchBytes;
    private final long[] used = new long[2];
    private final java.util.concurrent.atomic.AtomicReference<Thread> creating = new java.util.concurrent.atomic.AtomicReference<>();
    private final TeamImpl world;
    private final TeamImpl shared;
    private final TeamImpl node;

    /**
     * @param host the PE.
     * @param pool     the region {@link TeamSettings#poolBytes} reserved at init, zero on every PE.
     * @param settings the team options, resolved at init.
     */
    public TeamRegistry(final TeamHost host, final SymmetricMemory pool, final TeamSettings settings)
    {
        this.host = host;
        this.prefix = host.prefix();
        this.debug = settings.debug;
        this.slots = settings.slots;
        this.scratchBytes = settings.scratchBytes;
        this.pool = pool;
        this.syncAlgorithm = settings.sync;
        this.broadcastAlgorithm = settings.broadcast;
        this.collectAlgorithm = settings.collect;
        this.fcollectAlgorithm = settings.fcollect;
        this.alltoallAlgorithm = settings.alltoall;
        this.reduceAlgorithm = settings.reduce;
        this.scanAlgorithm = settings.scan;
        this.splitExchange = settings.splitExchange;
        this.splitSlices = settings.splitSlices;
        this.release = settings.release;
        this.timeoutNs = settings.timeoutNs;
        this.groupSize = settings.groupSize;
        this.layout = NodeLayout.of(host.hostOfRank(), host.reachability(), settings.testNodeLayout);
        final int n = host.nPes();
        final int me = host.myPe();
        final String[] hostOfRank = host.hostOfRank();
        final long onHost = java.util.Arrays.stream(hostOfRank).filter(h -> java.util.Objects.equals(h, hostOfRank[me])).count();
        this.spareCores = onHost <= hostCpus();
        this.sharedCores = host.sharedCores();
        world = create(WORLD_SLOT, 0, 1, n, me, TeamConfig.DEFAULT, "WORLD");
        shared = predefined(SHARED_SLOT, "SHARED", q -> layout.p2p(me, q) && layout.p2p(q, me));
        node = predefined(NODE_SLOT, "NODE", q -> layout.node(q) == layout.node(me));
    }

    /**
     * @return the host's online CPUs ({@code /sys/devices/system/cpu/online}), the same for every process on
     *         the host whatever its affinity; {@link Runtime#availableProcessors()} where that file is absent.
     */
    static int hostCpus()
    {
        try
        {
            final String online = java.nio.file.Files.readString(java.nio.file.Path.of("/sys/devices/system/cpu/online")).trim();
            int cpus = 0;
            for (final String range : online.split(","))
            {
                final int dash = range.indexOf('-');
                cpus += dash < 0 ? 1 : Integer.parseInt(range.substring(dash + 1)) - Integer.parseInt(range.substring(0, dash)) + 1;
            }
            return cpus;
        }
        catch (final java.io.IOException | RuntimeException e)
        {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /**
     * SHARED and NODE: this PE's group (the PEs the predicate accepts). A group that is a strided range
     * of WORLD is the team; a group that is not (possible under unusual placements) cannot be a
     * (start, stride, size) team, so each of its PEs gets the team of itself alone, and SHMEM_DEBUG says so.
     */
    private TeamImpl predefined(final int slot, final String name, final java.util.function.IntPredicate inGroup)
    {
        final int me = host.myPe();
        final int[] members = java.util.stream.IntStream.range(0, host.nPes()).filter(inGroup).toArray();
        final int stride = members.length > 1 ? members[1] - members[0] : 1;
        boolean strided = stride > 0;
        for (int i = 1; i < members.length && strided; i++)
        {
            strided = members[i] - members[i - 1] == stride;
        }
        if (!strided)
        {
            if (debug)
            {
                System.err.println(prefix + "team " + name + ": PEs " + Arrays.toString(members) + " are not a strided range; " +
                    name + " is this PE alone");
            }
            return create(slot, me, 1, 1, me, TeamConfig.DEFAULT, name);
        }
        return create(slot, members[0], stride, members.length, (me - members[0]) / stride, TeamConfig.DEFAULT, name);
    }

    private TeamImpl create(final int slot, final int start, final int stride, final int size, final int myRank, final TeamConfig config,
        final String name)
    {
        synchronized (used)
        {
            used[slot >>> 6] |= 1L << (slot & 63);
        }
        final TeamSlot region = TeamSlot.of(pool, slot, host.nPes(), scratchBytes);
        return new TeamImpl(this, region, start, stride, size, myRank, config, name);
    }

    TeamImpl world()
    {
        return world;
    }

    TeamImpl shared()
    {
        return shared;
    }

    TeamImpl node()
    {
        return node;
    }

    /** @return the WORLD team. */
    public io.jshmem.Team teamWorld()
    {
        return world;
    }

    /** @return the SHARED team. */
    public io.jshmem.Team teamShared()
    {
        return shared;
    }

    /** @return the NODE team. */
    public io.jshmem.Team teamNode()
    {
        return node;
    }

    /**
     * Collective over the parent (one phase of its channel): agrees on the {@code count} lowest slots
     * free on every PE of the parent.
     *
     * @throws TeamExhaustedException on every PE of the parent when there are not enough.
     */
    int[] agreeOnSlots(final TeamImpl parent, final Channel channel, final int count)
    {
        final Thread other = creating.get();
        if (other != null && other != Thread.currentThread())
        {
            throw new IllegalStateException(prefix + "team creation from " + parent + " while thread '" + other.getName() +
                "' creates a team on this PE: create teams from one thread at a time, in the same order on every PE");
        }
        final long b0;
        final long b1;
        synchronized (used)
        {
            b0 = used[0];
            b1 = used[1];
        }
        final long[][] all = channel.exchange(b0, b1);
        final long[] union = new long[2];
        for (final long[] bits : all)
        {
            union[0] |= bits[0];
            union[1] |= bits[1];
        }
        final int[] chosen = new int[count];
        int found = 0;
        for (int s = 0; s < slots && found < count; s++)
        {
            if ((union[s >>> 6] & (1L << (s & 63))) == 0)
            {
                chosen[found++] = s;
            }
        }
        if (found < count)
        {
            throw new TeamExhaustedException(prefix + "cannot create " + count + " team(s) from " + parent + ": every one of the " +
                slots + " team slots (SHMEM_TEAMS_MAX) is in use by some PE of the parent (" + (Long.bitCount(union[0]) +
                Long.bitCount(union[1])) + " in use); destroy unused teams, or raise SHMEM_TEAMS_MAX");
        }
        return chosen;
    }

    /** Marks this thread as creating teams (between {@link #agreeOnSlots} and the last {@link #join}). */
    void beginCreate()
    {
        final Thread me = Thread.currentThread();
        if (!creating.compareAndSet(null, me))
        {
            throw new IllegalStateException(prefix + "team creation while thread '" + creating.get().getName() +
                "' creates a team on this PE: create teams from one thread at a time, in the same order on every PE");
        }
    }

    void endCreate()
    {
        creating.compareAndSet(Thread.currentThread(), null);
    }

    /** A member's new team in an agreed slot. */
    TeamImpl join(final int slot, final int start, final int stride, final int size, final int myRank, final TeamConfig config,
        final String name)
    {
        return create(slot, start, stride, size, myRank, config, name);
    }

    /** Destroy: the slot is zero again on this PE, and free. */
    void release(final TeamSlot slot)
    {
        slot.clear();
        synchronized (used)
        {
            used[slot.index() >>> 6] &= ~(1L << (slot.index() & 63));
        }
    }

    /** @return the number of slots in use on this PE (tests, SHMEM_DEBUG). */
    public int slotsInUse()
    {
        synchronized (used)
        {
            return Long.bitCount(used[0]) + Long.bitCount(used[1]);
        }
    }

    /** @return every slot count (for messages and tests). */
    public int slotCount()
    {
        return slots;
    }
}
