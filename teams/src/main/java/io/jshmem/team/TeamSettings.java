package io.jshmem.team;

import io.jshmem.ShmemException;
import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;

/**
 * The teams module's options, resolved once at init (the options step) from the job's configuration: what
 * {@link TeamRegistry} needs, so a bad value fails before any socket opens and nothing re-reads the
 * configuration later. Immutable.
 */
public final class TeamSettings
{
    /** {@code SHMEM_DEBUG}: collective allocations and team splits checked on every PE. */
    final boolean debug;
    /** {@code SHMEM_TEAMS_MAX}: team slots reserved at init, WORLD/SHARED/NODE included. */
    final int slots;
    /** {@code SHMEM_TEAM_SCRATCH_SIZE}: scratch per slot for reductions and scans. */
    final long scratchBytes;
    /** {@code SHMEM_COLLECTIVE_TIMEOUT}: the deadline of every wait in a collective, 0 for none. */
    final long timeoutNs;
    /** {@code SHMEM_TEAM_GROUP_SIZE}: groups of the node-aware collectives, 0 by node. */
    final int groupSize;
    /** {@code SHMEM_<COLLECTIVE>_ALGORITHM}. */
    final Algorithm.Sync sync;
    final Algorithm.Broadcast broadcast;
    final Algorithm.Allgather collect;
    final Algorithm.Allgather fcollect;
    final Algorithm.Alltoall alltoall;
    final Algorithm.Reduce reduce;
    final Algorithm.Scan scan;
    /** {@value NodeLayout#TEST_VARIABLE} from the job's environment (tests only), or null. */
    final String testNodeLayout;
    /** {@value Choice#SPLIT_EXCHANGE_TEST_VARIABLE} from the job's environment (tests and measurements), AUTO unset. */
    final Choice.SplitExchange splitExchange;
    /** {@value Choice#SPLIT_SLICES_TEST_VARIABLE} from the job's environment (tests and measurements), 0 unset. */
    final int splitSlices;
    /** {@value Choice#RELEASE_TEST_VARIABLE} from the job's environment (tests and measurements), AUTO unset. */
    final Choice.Release release;

    private TeamSettings(final ShmemConfig config)
    {
        this.slots = config.get(ShmemOptions.TEAMS_MAX);
        if (slots < 3 || slots > TeamRegistry.MAX_SLOTS)
        {
            throw new ShmemException("SHMEM_TEAMS_MAX=" + slots + " must be between 3 (WORLD, SHARED, NODE) and " + TeamRegistry.MAX_SLOTS);
        }
        this.debug = config.isSet(ShmemOptions.DEBUG);
        this.scratchBytes = config.isSet(ShmemOptions.TEAM_SCRATCH_SIZE) ? config.get(ShmemOptions.TEAM_SCRATCH_SIZE)
            : defaultScratch(config.get(ShmemOptions.SYMMETRIC_SIZE), config.get(ShmemOptions.TEAM_SCRATCH_SIZE));
        this.timeoutNs = config.get(ShmemOptions.COLLECTIVE_TIMEOUT_NS);
        this.groupSize = config.get(ShmemOptions.TEAM_GROUP_SIZE);
        this.sync = Algorithm.parse(config, ShmemOptions.BARRIER_ALGORITHM, Algorithm.Sync.class);
        this.broadcast = Algorithm.parse(config, ShmemOptions.BROADCAST_ALGORITHM, Algorithm.Broadcast.class);
        this.collect = Algorithm.parse(config, ShmemOptions.COLLECT_ALGORITHM, Algorithm.Allgather.class);
        this.fcollect = Algorithm.parse(config, ShmemOptions.FCOLLECT_ALGORITHM, Algorithm.Allgather.class);
        this.alltoall = Algorithm.parse(config, ShmemOptions.ALLTOALL_ALGORITHM, Algorithm.Alltoall.class);
        this.reduce = Algorithm.parse(config, ShmemOptions.REDUCE_ALGORITHM, Algorithm.Reduce.class);
        this.scan = Algorithm.parse(config, ShmemOptions.SCAN_ALGORITHM, Algorithm.Scan.class);
        this.testNodeLayout = config.env(NodeLayout.TEST_VARIABLE);
        this.splitExchange = testHook(config, Choice.SPLIT_EXCHANGE_TEST_VARIABLE, Choice.SplitExchange.AUTO);
        this.splitSlices = Choice.parseSplitSlices(config.env(Choice.SPLIT_SLICES_TEST_VARIABLE));
        this.release = testHook(config, Choice.RELEASE_TEST_VARIABLE, Choice.Release.AUTO);
    }

    /** @return the test hook {@code variable}'s choice from the job's environment, {@code unset} where it is not set. */
    private static <E extends Enum<E>> E testHook(final ShmemConfig config, final String variable, final E unset)
    {
        final String text = config.env(variable);
        return text == null ? unset : Algorithm.parse(variable, text, unset.getDeclaringClass());
    }

    /**
     * @return the scratch per slot when SHMEM_TEAM_SCRATCH_SIZE is not set: its default (256K) on heaps of 128M and
     *         more, else a 512th of the heap, at least {@link #MIN_DEFAULT_SCRATCH}, so that small heaps keep room
     *         for the program after the slots ({@code SHMEM_TEAMS_MAX} of them)
     */
    static long defaultScratch(final long heapBytes, final long optionDefault)
    {
        return Math.min(optionDefault, Math.max(MIN_DEFAULT_SCRATCH, heapBytes / 512));
    }

    /** The least default scratch per slot (on small heaps). */
    static final long MIN_DEFAULT_SCRATCH = 32 << 10;

    /**
     * @param config the job's configuration.
     * @return its team options, checked.
     * @throws ShmemException naming the variable, for a slot count out of range or an unknown algorithm name.
     */
    public static TeamSettings from(final ShmemConfig config)
    {
        return new TeamSettings(config);
    }

    /**
     * @param nPes the job's PEs.
     * @return bytes of symmetric heap the team slot pool needs (allocated at init, before the registry).
     */
    public long poolBytes(final int nPes)
    {
        return slots * TeamSlot.slotBytes(nPes, scratchBytes);
    }
}
