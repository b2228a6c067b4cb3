package io.jshmem.team;

/**
 * The automatic algorithm choice of every collective, as pure functions of the team's size, the
 * operation's bytes and the node layout (whether the team spans several groups, whether every member
 * maps every other member's heap). A forced algorithm is returned as it is, except where it cannot run
 * (direct without the mapping, linear without scratch room for a buffer per member). Every member
 * passes the same inputs, so every member chooses the same algorithm.
 */
final class Choice
{
    /**
     * From this many bytes (up to 4 members; twice as many above) a reduction on a team whose members all
     * map each other's heaps runs {@link Reductions#reduceDirect}: measured with CollectivesBench on 2
     * cores, it beats the scratch-based algorithms from 2 KiB at 2 and 4 PEs and from 4 KiB at 8.
     */
    static final long DIRECT_REDUCE_MIN_BYTES = 2 << 10;
    /**
     * Up to this many members, a team whose members all map each other's heaps uses the one-round
     * (linear) fcollect, collect, alltoall and small reductions: N-1 puts per member and one wait for
     * each, measured faster than recursive doubling, ring and pairwise at 8 PEs on 2 cores at every
     * size (e.g. 8-byte alltoall 15-20 µs vs 40-45 µs pairwise, fcollect 13-14 vs 21-25 µs).
     */
    static final int LINEAR_MAX_MAPPED = 32;
    /**
     * From this many members a one-node mapped team on a host with a CPU per PE ({@code spareCores}) takes
     * the choices measured on 16 real cores (CollectivesBench, 8 and 16 PEs, every algorithm forced in turn;
     * docs/teams.md): recursive doubling for reductions below {@link #SPARE_DIRECT_REDUCE_MIN_BYTES}
     * (8 B: 2.7 µs against linear's 3.5 at 8 PEs, 5.4 against 10.6 at 16) and for the smallest fcollects,
     * direct reductions from that size, scatter-allgather for broadcasts from
     * {@link #SPARE_SCATTER_BROADCAST_MIN_BYTES}. Oversubscribed hosts keep the other choices (measured on 2 cores).
     */
    static final int SPARE_MIN_MEMBERS = 8;
    /** Direct reductions from here on spare cores: 1 KiB 5.3 µs against recursive doubling's 6.6 at 8 PEs, 9.3 against 18 at 16. */
    static final long SPARE_DIRECT_REDUCE_MIN_BYTES = 1 << 10;
    /** Scatter-allgather broadcasts from here on spare cores: 1 MiB 279 µs against the tree's 374 at 8 PEs, 330 against 522 at 16. */
    static final long SPARE_SCATTER_BROADCAST_MIN_BYTES = 512 << 10;

    /**
     * From this size a split reduction has every member of the smallest node own a slice; below it, as few owners
     * per node as make a slice fit one scratch buffer (one, the leader, when the whole fits). Measured at 64 PEs on
     * 8 test hosts of a 16-core machine over the proxy (CollectivesBench, slices forced; docs/teams.md): below
     * 128 KiB one owner per node was fastest (8 B: 323 µs against 814 with 8; 64 KiB: 988 against 1165), from
     * 128 KiB all eight (1408 µs against 2503 with one, 512 KiB: 3701 against 6519): every owner on a node is
     * another process taking turns on the cores and the network at once.
     */
    static final long SPLIT_ALL_OWNERS_MIN_BYTES = 128 << 10;

    /**
     * Owners per node of a split reduction from {@link #SHARED_CORES_OWNERS_MIN_BYTES} where a machine's PEs outnumber its
     * cores, in nodes of at least twice as many members. Measured at 64 PEs on 8 test hosts of a 16-core machine (4 PEs
     * per core, the proxy's waits polling; CollectivesBench {@code --only "sum reduce"}, owners forced with
     * {@value #SPLIT_SLICES_TEST_VARIABLE}; docs/teams.md), µs, 4 owners against the automatic 1 (up to 64 KiB) or 8: 32 KiB
     * 715 against 1253-1320, 64 KiB 925 against 1779-1907, 256 KiB 1923 against 10268-10607, 1 MiB 6786 against
     * 12702-13321; 2 owners were between them (718, 1073, 2615, 10274). Below 32 KiB the one owner stays (8 B: 252-321
     * against 453 with 4).
     */
    static final int SHARED_CORES_OWNERS = 4;

    /** See {@link #SHARED_CORES_OWNERS}. */
    static final long SHARED_CORES_OWNERS_MIN_BYTES = 32 << 10;

    private Choice()
    {
    }

    /** @return whether the automatic choice takes the one-round (linear) algorithm: small teams, or mapped ones up to {@link #LINEAR_MAX_MAPPED}. */
    static boolean oneRound(final int size, final boolean allMapped)
    {
        return size <= 4 || size <= LINEAR_MAX_MAPPED && allMapped;
    }

    static Algorithm.Sync sync(final Algorithm.Sync forced, final boolean twoLevel)
    {
        if (forced != Algorithm.Sync.AUTO)
        {
            return forced;
        }
        return twoLevel ? Algorithm.Sync.HIERARCHICAL : Algorithm.Sync.DISSEMINATION;
    }

    static Algorithm.Broadcast broadcast(final Algorithm.Broadcast forced, final int size, final long bytes, final boolean twoLevel,
        final boolean allMapped)
    {
        return broadcast(forced, size, bytes, twoLevel, allMapped, false);
    }

    /** @param spareCores whether the host has a CPU per PE (see {@link #SPARE_MIN_MEMBERS}). */
    static Algorithm.Broadcast broadcast(final Algorithm.Broadcast forced, final int size, final long bytes, final boolean twoLevel,
        final boolean allMapped, final boolean spareCores)
    {
        if (forced == Algorithm.Broadcast.AUTO && spareCores && allMapped && !twoLevel && size >= SPARE_MIN_MEMBERS &&
            bytes >= SPARE_SCATTER_BROADCAST_MIN_BYTES)
        {
            return Algorithm.Broadcast.SCATTER_ALLGATHER;
        }
        if (forced != Algorithm.Broadcast.AUTO)
        {
            return forced;
        }
        if (twoLevel)
        {
            return Algorithm.Broadcast.HIERARCHICAL;
        }
        if (size <= 2)
        {
            return Algorithm.Broadcast.LINEAR;
        }
        if (allMapped)
        {
            return bytes >= 16 * 1024 && size <= 4 ? Algorithm.Broadcast.LINEAR : Algorithm.Broadcast.TREE;
        }
        return bytes >= 32 * 1024 && size >= 4 ? Algorithm.Broadcast.SCATTER_ALLGATHER : Algorithm.Broadcast.TREE;
    }

    /** Collect and fcollect; {@code totalBytes} is the size of the gathered result. */
    static Algorithm.Allgather allgather(final Algorithm.Allgather forced, final int size, final long totalBytes, final boolean twoLevel,
        final boolean allMapped)
    {
        return allgather(forced, size, totalBytes, twoLevel, allMapped, false);
    }

    /**
     * @param spareCores whether the host has a CPU per PE: a one-node mapped team of {@link #SPARE_MIN_MEMBERS}
     *                   or more then gathers 8 bytes per member (16 or more members: up to 2 KiB in all) by
     *                   recursive doubling (8 B at 16 PEs: 3.7 µs against linear's 4.7).
     */
    static Algorithm.Allgather allgather(final Algorithm.Allgather forced, final int size, final long totalBytes, final boolean twoLevel,
        final boolean allMapped, final boolean spareCores)
    {
        if (forced == Algorithm.Allgather.AUTO && spareCores && allMapped && !twoLevel && size >= SPARE_MIN_MEMBERS &&
            totalBytes <= (size >= 16 ? 2048 : 8L * size))
        {
            return Algorithm.Allgather.RECURSIVE_DOUBLING;
        }
        if (forced != Algorithm.Allgather.AUTO)
        {
            return forced;
        }
        if (twoLevel && !allMapped)
        {
            return Algorithm.Allgather.HIERARCHICAL;
        }
        if (oneRound(size, allMapped))
        {
            return Algorithm.Allgather.LINEAR;
        }
        return totalBytes <= 64 * 1024 ? Algorithm.Allgather.RECURSIVE_DOUBLING : Algorithm.Allgather.RING;
    }

    /**
     * Up to this many bytes in all, the hierarchical fcollect and collect exchange between leaders by Bruck's algorithm
     * ({@link #leaderDoubling}: ceil(log2 leaders) rounds of one message each, the doubling of the barrier's
     * dissemination). At 64 PEs on 8 test hosts of a 16-core machine the one-message-per-leader-pair exchange
     * took 460-580 µs at 8-256 bytes per PE (up to 16 KiB in all) against the hierarchical barrier's 330-375 (three
     * rounds of one message), and a polling PE writes each of its 7 messages itself; from 512 bytes per PE it was 0.3-0.8x
     * OSHMEM's time. Measured on the 2-core machine (CollectivesBench {@code --only fcollect}, proxy, 2 PEs per test host,
     * alternating with the one-message-per-pair build, 3 runs each; docs/teams.md): at 16 PEs on 8 hosts 8 B-1 KiB per PE
     * took 0.67-0.79x the time; at 4 and 6 leaders it stayed within the runs' spread.
     */
    static final long LEADER_DOUBLING_MAX_BYTES = 16 << 10;

    /**
     * @param leaders    the groups (nodes) of the team
     * @param totalBytes the size of the gathered result
     * @param blockwise  whether the groups are runs of consecutive ranks in rank order ({@link Hierarchy#blockwise()})
     * @return whether the hierarchical allgather's leaders exchange by Bruck's doubling (block-wise groups, at most
     *         {@link #LEADER_DOUBLING_MAX_BYTES}) rather than one message per leader pair
     */
    static boolean leaderDoubling(final int leaders, final long totalBytes, final boolean blockwise)
    {
        return blockwise && leaders >= 2 && totalBytes <= LEADER_DOUBLING_MAX_BYTES;
    }

    /**
     * A team across nodes runs the hierarchical alltoall when it moves the operation in at most this many
     * chunks of the scratch (more across 2 nodes, or where cores are shared: {@link #hierarchicalAlltoallMaxChunks}),
     * else linear (measured across test hosts, docs/teams.md).
     */
    static final long HIERARCHICAL_ALLTOALL_MAX_CHUNKS = 1;

    /**
     * Where a machine of the job runs more PEs than it has cores, a team across nodes runs the hierarchical alltoall while
     * its leaders send at most this many messages between nodes in all ({@code chunks × (nodes − 1)} each; at most
     * {@link #HIERARCHICAL_ALLTOALL_MAX_CHUNKS} chunks otherwise). There linear's N − (node) messages per PE, every one
     * a hop through a proxy thread that waits for a core, cost more than the leaders' dependent steps: on the 2-core
     * machine (slowest PE's µs, 2–3 jobs each, docs/teams.md) 16 PEs on 2 test hosts took 291–332 / 1,033–1,299 against
     * linear's 1,799–1,961 / 2,315–2,455 at 1 / 4 KiB blocks (2 / 8 chunks), and about the same at 8 KiB (16 chunks);
     * 12 PEs on 3 hosts 1,028–1,066 against 1,422–1,551 at 4 KiB (3 chunks) and 1,462–1,875 against 1,434–1,769 at 8 KiB
     * (6 chunks).
     */
    static final int HIERARCHICAL_ALLTOALL_SHARED_LEADER_MESSAGES = 8;

    /**
     * With a core per PE, a team across nodes runs the hierarchical alltoall while its leaders send at most this many
     * messages between nodes in all (2 chunks across 2 nodes; one chunk, {@link #HIERARCHICAL_ALLTOALL_MAX_CHUNKS}, from 3
     * nodes). 16 PEs on 2 test hosts of the 16-core machine, each forced in turn (slowest PE's µs, two jobs of 3
     * repetitions each, 2026-11-28): hierarchical / linear 112, 115 / 167, 187 at 1 KiB blocks (2 chunks), 259, 215 / 185,
     * 209 at 2 KiB (4 chunks), 449, 841 / 261, 235 at 4 KiB (8 chunks) (docs/teams.md).
     */
    static final int HIERARCHICAL_ALLTOALL_LEADER_MESSAGES = 2;

    /**
     * Where aggregate could run, auto keeps the one-chunk hierarchical alltoall only while a leader moves at most this
     * many bytes (its group's blocks for every member): 64 PEs on 8 test hosts of the 16-core machine, µs hierarchical
     * against aggregate, 128 B blocks (64 KiB a leader) 564 / 1,017, 256 B 1,267 / 1,220, 512 B 2,488 / 1,529 (docs/teams.md).
     */
    static final long HIERARCHICAL_ALLTOALL_MAX_LEADER_BYTES = 64 << 10;

    /** Auto runs the aggregate alltoall only where every node (group) has at least this many members (one alone gains nothing). */
    static final int AGGREGATE_MIN_GROUP = 2;

    /**
     * Auto runs the aggregate alltoall only across at least this many nodes (groups). Across two nodes of 8 PEs (16 on
     * the 16-core machine) linear was faster at every size (1 KiB 154 µs against 509, 64 KiB 994 against 1532), its 8
     * messages per PE costing less than aggregate's rendezvous inside the node and gather; across 4 and 8 nodes aggregate
     * won at every size past hierarchical's one chunk (docs/teams.md).
     */
    static final int AGGREGATE_MIN_GROUPS = 4;

    /** Auto runs the aggregate alltoall only while one of its messages (a block times the largest group) is at most this long. */
    static final long AGGREGATE_MAX_MESSAGE_BYTES = 32 << 10;

    /**
     * From this many members in every group auto runs the aggregate alltoall up to {@link #AGGREGATE_LARGE_MAX_MESSAGE_BYTES}:
     * it sends a group's members 1/8 of linear's messages or fewer, which beat linear's bytes-per-connection advantage at
     * 8 KiB-64 KiB blocks (64 PEs on 8 test hosts of the 16-core machine: 3.8 / 8.1 / 14.7 / 30.4 ms against 9.7 / 14.5 /
     * 21.5 / 43.1), where groups of 2 and 4 lost at 64 KiB (2-core machine, docs/teams.md).
     */
    static final int AGGREGATE_LARGE_MIN_GROUP = 8;

    /** With groups of {@link #AGGREGATE_LARGE_MIN_GROUP} or more: the longest aggregate message auto takes (64 KiB blocks, 8 per group: the largest measured). */
    static final long AGGREGATE_LARGE_MAX_MESSAGE_BYTES = 512 << 10;

    /**
     * @param groupsMapped whether the members of every group map each other's heaps (the condition of
     *                     {@code aggregate}; a forced {@code aggregate} runs {@code linear} without it)
     * @param minGroup     the smallest group's size
     * @param maxGroup     the largest group's size
     * @param groups       the number of groups (nodes)
     * @param blockBytes   bytes per block (per pair of members)
     * @param chunks       the number of scratch chunks the hierarchical alltoall would move the operation in
     *                     ({@link Long#MAX_VALUE} where it cannot run). On a team across nodes auto takes hierarchical
     *                     up to {@link #hierarchicalAlltoallMaxChunks} (2 across 2 nodes, 1 from 3; more where cores are
     *                     shared; small messages: one message per pair of
     *                     nodes), and where aggregate could run only up to {@link #HIERARCHICAL_ALLTOALL_MAX_LEADER_BYTES}
     *                     a leader; beyond, aggregate where the nodes' members map each other, there are at least
     *                     {@link #AGGREGATE_MIN_GROUPS} nodes, every node has at least {@link #AGGREGATE_MIN_GROUP} members and a message stays within
     *                     {@link #AGGREGATE_MAX_MESSAGE_BYTES} (a node's blocks for one member in one message, a
     *                     message per other node), or within {@link #AGGREGATE_LARGE_MAX_MESSAGE_BYTES} where every node has
     *                     at least {@link #AGGREGATE_LARGE_MIN_GROUP} members; else linear (every pair's message in flight at once); pairwise's
     *                     N-1 dependent rounds lost to them at every size measured across test hosts (docs/teams.md).
     */
    static Algorithm.Alltoall alltoall(final Algorithm.Alltoall forced, final int size, final boolean twoLevel, final boolean allMapped,
        final boolean groupsMapped, final int minGroup, final int maxGroup, final int groups, final long blockBytes, final long chunks)
    {
        return alltoall(forced, size, twoLevel, allMapped, groupsMapped, minGroup, maxGroup, groups, blockBytes, chunks, false);
    }

    /**
     * @param sharedCores whether a machine of the job runs more PEs than it has cores ({@link TeamHost#sharedCores()}, the
     *                    same on every PE): the hierarchical alltoall then runs in up to
     *                    {@link #hierarchicalAlltoallMaxChunks} chunks.
     * @see #alltoall(Algorithm.Alltoall, int, boolean, boolean, boolean, int, int, int, long, long)
     */
    static Algorithm.Alltoall alltoall(final Algorithm.Alltoall forced, final int size, final boolean twoLevel, final boolean allMapped,
        final boolean groupsMapped, final int minGroup, final int maxGroup, final int groups, final long blockBytes, final long chunks,
        final boolean sharedCores)
    {
        if (forced == Algorithm.Alltoall.AGGREGATE && !groupsMapped)
        {
            return Algorithm.Alltoall.LINEAR;
        }
        if (forced != Algorithm.Alltoall.AUTO)
        {
            return forced;
        }
        if (twoLevel && !allMapped)
        {
            final long maxMessage = minGroup >= AGGREGATE_LARGE_MIN_GROUP ? AGGREGATE_LARGE_MAX_MESSAGE_BYTES : AGGREGATE_MAX_MESSAGE_BYTES;
            final boolean aggregate = groupsMapped && groups >= AGGREGATE_MIN_GROUPS && minGroup >= AGGREGATE_MIN_GROUP &&
                blockBytes * maxGroup <= maxMessage;
            if (chunks <= hierarchicalAlltoallMaxChunks(groups, sharedCores) &&
                (!aggregate || blockBytes * maxGroup * size <= HIERARCHICAL_ALLTOALL_MAX_LEADER_BYTES))
            {
                return Algorithm.Alltoall.HIERARCHICAL;
            }
            return aggregate ? Algorithm.Alltoall.AGGREGATE : Algorithm.Alltoall.LINEAR;
        }
        return oneRound(size, allMapped) ? Algorithm.Alltoall.LINEAR : Algorithm.Alltoall.PAIRWISE;
    }

    /**
     * @return the most scratch chunks auto runs the hierarchical alltoall in across {@code groups} nodes: as many as keep
     *         each leader's messages between nodes within {@link #HIERARCHICAL_ALLTOALL_LEADER_MESSAGES} (2 chunks across 2
     *         nodes), or where cores are shared within {@link #HIERARCHICAL_ALLTOALL_SHARED_LEADER_MESSAGES} (8 chunks across
     *         2 nodes, 4 across 3); never fewer than {@link #HIERARCHICAL_ALLTOALL_MAX_CHUNKS}
     */
    static long hierarchicalAlltoallMaxChunks(final int groups, final boolean sharedCores)
    {
        final int messages = sharedCores ? HIERARCHICAL_ALLTOALL_SHARED_LEADER_MESSAGES : HIERARCHICAL_ALLTOALL_LEADER_MESSAGES;
        return groups >= 2 ? Math.max(HIERARCHICAL_ALLTOALL_MAX_CHUNKS, messages / (groups - 1)) : HIERARCHICAL_ALLTOALL_MAX_CHUNKS;
    }

    /**
     * @param linearFits whether the scratch holds a buffer per member for one element (linear needs it).
     * @return the reduction algorithm; never {@code DIRECT} unless {@code allMapped} (a forced direct on a
     *         team whose members do not all map each other's heaps runs the ring instead).
     */
    static Algorithm.Reduce reduce(final Algorithm.Reduce forced, final int size, final long bytes, final boolean twoLevel,
        final boolean allMapped, final boolean linearFits)
    {
        return reduce(forced, size, bytes, twoLevel, allMapped, linearFits, false);
    }

    /** @param spareCores whether the host has a CPU per PE (see {@link #SPARE_MIN_MEMBERS}). */
    static Algorithm.Reduce reduce(final Algorithm.Reduce forced, final int size, final long bytes, final boolean twoLevel,
        final boolean allMapped, final boolean linearFits, final boolean spareCores)
    {
        return reduce(forced, size, bytes, twoLevel, allMapped, false, linearFits, spareCores);
    }

    /**
     * @param groupsMapped whether every group's (node's) members map each other's heaps: then a team of several
     *                     groups reduces by {@code SPLIT} (a forced split without it runs hierarchical, or the
     *                     automatic choice on a team of one group).
     */
    static Algorithm.Reduce reduce(final Algorithm.Reduce forced, final int size, final long bytes, final boolean twoLevel,
        final boolean allMapped, final boolean groupsMapped, final boolean linearFits, final boolean spareCores)
    {
        if (forced == Algorithm.Reduce.SPLIT || forced == Algorithm.Reduce.AUTO && twoLevel && groupsMapped && !allMapped)
        {
            if (twoLevel && groupsMapped)
            {
                return Algorithm.Reduce.SPLIT;
            }
            return reduce(twoLevel ? Algorithm.Reduce.HIERARCHICAL : Algorithm.Reduce.AUTO, size, bytes, twoLevel, allMapped, groupsMapped,
                linearFits, spareCores);
        }
        if (forced == Algorithm.Reduce.AUTO && spareCores && allMapped && !twoLevel && size >= SPARE_MIN_MEMBERS)
        {
            return bytes >= SPARE_DIRECT_REDUCE_MIN_BYTES ? Algorithm.Reduce.DIRECT : Algorithm.Reduce.RECURSIVE_DOUBLING;
        }
        Algorithm.Reduce alg = forced;
        if (alg == Algorithm.Reduce.DIRECT || alg == Algorithm.Reduce.AUTO && size > 1 &&
            bytes >= (size <= 4 ? 1 : 2) * DIRECT_REDUCE_MIN_BYTES)
        {
            if (allMapped)
            {
                return Algorithm.Reduce.DIRECT;
            }
            alg = alg == Algorithm.Reduce.DIRECT ? Algorithm.Reduce.RING : alg;
        }
        if (alg == Algorithm.Reduce.AUTO)
        {
            alg = twoLevel && bytes < 64 * 1024 ? Algorithm.Reduce.HIERARCHICAL
                : oneRound(size, allMapped) && bytes <= 4096 ? Algorithm.Reduce.LINEAR
                : bytes >= 64 * 1024 && size > 1 ? Algorithm.Reduce.RING : Algorithm.Reduce.RECURSIVE_DOUBLING;
        }
        if (alg == Algorithm.Reduce.LINEAR && !linearFits)
        {
            alg = Algorithm.Reduce.RECURSIVE_DOUBLING;
        }
        return alg;
    }

    /**
     * @param forced   the test hook's owners per group ({@value #SPLIT_SLICES_TEST_VARIABLE}), 0 for the automatic choice;
     *                 at most {@code minGroup} are used
     * @param bufBytes    the bytes of a scratch buffer of the split's exchange between nodes
     * @param sharedCores whether a machine of the job runs more PEs than it has cores ({@link TeamHost#sharedCores()}; the
     *                    same answer on every PE of the job, so every member chooses alike)
     * @return the slices of a split reduction of {@code bytes} over groups of at least {@code minGroup} members (see
     *         {@link #SPLIT_ALL_OWNERS_MIN_BYTES} and {@link #SHARED_CORES_OWNERS})
     */
    static int splitSlices(final int forced, final int minGroup, final long bytes, final long bufBytes, final boolean sharedCores)
    {
        if (forced > 0)
        {
            return Math.min(forced, minGroup);
        }
        if (bufBytes <= 0)
        {
            return minGroup; // no scratch: every owner (the ring needs none)
        }
        if (sharedCores && minGroup >= 2 * SHARED_CORES_OWNERS && bytes >= SHARED_CORES_OWNERS_MIN_BYTES)
        {
            return SHARED_CORES_OWNERS;
        }
        if (bytes >= SPLIT_ALL_OWNERS_MIN_BYTES)
        {
            return minGroup;
        }
        final long fits = Math.max(1, bufBytes - 8); // a slice may be one element longer than bytes / slices
        return (int)Math.min(minGroup, Math.max(1, (bytes + fits - 1) / fits));
    }

    /**
     * How the owners of one slice of a split reduction reduce it between nodes: {@code DOUBLING} (recursive doubling,
     * the whole slice in every message, log2 nodes rounds through one scratch buffer), {@code RING} (2 (nodes - 1)
     * rounds of a {@code 1/nodes} share each, landing in dest), {@code HALVING} (Rabenseifner: reduce-scatter by
     * recursive halving through the scratch, then allgather by recursive doubling into dest; 2 log2 nodes rounds, plus
     * two for the nodes beyond a power of two). {@code AUTO} is parsed from an unset
     * {@value #SPLIT_EXCHANGE_TEST_VARIABLE}.
     */
    enum SplitExchange
    {
        AUTO, DOUBLING, RING, HALVING
    }

    /**
     * A test hook (read from the job's environment) that forces how many members of each group own a slice of a split
     * reduction (at most the smallest group's size), for tests and for measuring {@link #SPLIT_ALL_OWNERS_MIN_BYTES}.
     */
    static final String SPLIT_SLICES_TEST_VARIABLE = "JSHMEM_TEST_SPLIT_SLICES";

    /** @return {@value #SPLIT_SLICES_TEST_VARIABLE}'s value: 0 when unset, else a positive count. */
    static int parseSplitSlices(final String value)
    {
        if (value == null || value.isBlank())
        {
            return 0;
        }
        try
        {
            final int n = Integer.parseInt(value.trim());
            if (n > 0)
            {
                return n;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // the message below
        }
        throw new io.jshmem.ShmemException(SPLIT_SLICES_TEST_VARIABLE + "=" + value + " must be a positive number of owners per group");
    }

    /** A test hook (read from the job's environment) that forces the split reduction's exchange between nodes. */
    static final String SPLIT_EXCHANGE_TEST_VARIABLE = "JSHMEM_TEST_SPLIT_EXCHANGE";

    /**
     * From this many nodes a split reduction whose slice does not fit one scratch buffer may reduce it between nodes
     * by recursive halving ({@link SplitExchange#HALVING}) instead of the ring: measured with thread PEs on pretend
     * nodes of 2 (2 cores, docs/teams.md), halving won at 6 and 8 nodes (64 KiB: 3.6 against 6.2 ms at 6 nodes, 2.0
     * against 5.3 at 8) and lost at 3 and 4 (256 KiB at 4 nodes: 3.4 against 1.5 ms).
     */
    static final int SPLIT_HALVING_MIN_NODES = 6;

    /**
     * @param forced        the test hook's choice ({@code AUTO} unless set); a forced {@code DOUBLING} runs only
     *                      where the slice fits a buffer (else the automatic choice)
     * @param nodes         the groups of the team
     * @param sliceBytes    the largest slice's bytes
     * @param bufBytes      the bytes of one scratch buffer of the doubling exchange
     * @param halvingRounds the dependent rounds of the halving exchange of this slice (its chunks through the scratch
     *                      times {@code 2 log2 nodes}, plus 2 a chunk beyond a power of two), 0 where it cannot run
     * @return the exchange: doubling while the slice fits a buffer; else halving from {@link #SPLIT_HALVING_MIN_NODES}
     *         nodes where it takes fewer rounds than the ring's {@code 2 nodes - 1} (a slice many times the scratch
     *         half takes a chunk of rounds per half: 1 MiB in 2 slices at 6 nodes, 48 rounds against 11, lost 1.7x);
     *         else the ring. A forced halving that cannot run runs the ring.
     */
    static SplitExchange splitExchange(final SplitExchange forced, final int nodes, final long sliceBytes, final long bufBytes,
        final long halvingRounds)
    {
        final boolean fits = sliceBytes <= bufBytes;
        if (forced == SplitExchange.HALVING)
        {
            return halvingRounds > 0 ? forced : SplitExchange.RING;
        }
        if (forced == SplitExchange.RING || forced == SplitExchange.DOUBLING && fits)
        {
            return forced;
        }
        if (fits)
        {
            return SplitExchange.DOUBLING;
        }
        return nodes >= SPLIT_HALVING_MIN_NODES && halvingRounds > 0 && halvingRounds < 2L * nodes - 1 ? SplitExchange.HALVING
            : SplitExchange.RING;
    }

    /**
     * How a two-level broadcast's or allgather's result reaches the members of a node: the node's representative stores it
     * into each member's dest in turn ({@link #PUSH}), or signals them and each member loads it from the representative's
     * dest at once and signals back when done ({@link #PULL}: a node's copies run in parallel, for one more intra-node
     * signal each way). {@value #RELEASE_TEST_VARIABLE} forces either, for tests and measurements.
     */
    enum Release
    {
        AUTO, PUSH, PULL
    }

    /** A test hook (read from the job's environment) that forces {@link Release}. */
    static final String RELEASE_TEST_VARIABLE = "JSHMEM_TEST_RELEASE";

    /**
     * From this many bytes of result a node's members load it from their representative ({@link Release#PULL}), where no
     * machine of the job runs more PEs than it has cores. Measured on a 16-core machine, 8 PEs per test host over the
     * proxy, each forced in turn (CollectivesBench {@code --quick --only broadcast,fcollect --reps 3}, three alternating
     * pairs of jobs, medians; docs/teams.md): at 16 PEs a broadcast took 0.99x the pushed time at 32 KiB, 0.88x at 64 KiB
     * and 0.57-0.67x from 128 KiB to 1 MiB, but 2-7x below 16 KiB (one more signal each way); an fcollect of 512 KiB in
     * all took 0.55x. At 64 PEs (4 per core) pulling was 0.97-1.17x from 64 KiB for broadcasts: a node's members copying
     * at once compete with the proxy threads for the cores.
     */
    static final long PULL_RELEASE_MIN_BYTES = 64 << 10;

    /**
     * @param groupsMapped whether every node's members map each other's heaps (the same answer on every member)
     * @param sharedCores  whether a machine of the job runs more PEs than it has cores ({@link TeamHost#sharedCores()}, the
     *                     same answer on every PE)
     * @param bytes        the bytes every member receives (a broadcast's, or an allgather's whole result)
     * @return whether a two-level broadcast or allgather releases by {@link Release#PULL}; never where a node's members do
     *         not map each other
     */
    static boolean pullRelease(final Release forced, final boolean groupsMapped, final boolean sharedCores, final long bytes)
    {
        if (!groupsMapped || forced == Release.PUSH)
        {
            return false;
        }
        return forced == Release.PULL || !sharedCores && bytes >= PULL_RELEASE_MIN_BYTES;
    }

    /** @param linearFits whether the scratch holds a buffer per member for one element. */
    static Algorithm.Scan scan(final Algorithm.Scan forced, final int size, final boolean linearFits)
    {
        final Algorithm.Scan alg = forced == Algorithm.Scan.AUTO ? (size <= 4 ? Algorithm.Scan.LINEAR : Algorithm.Scan.RECURSIVE_DOUBLING) : forced;
        return alg == Algorithm.Scan.LINEAR && !linearFits ? Algorithm.Scan.RECURSIVE_DOUBLING : alg;
    }
}
