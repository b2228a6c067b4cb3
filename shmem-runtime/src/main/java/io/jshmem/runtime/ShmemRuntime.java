package io.jshmem.runtime;

import io.jshmem.AtomicOp;
import io.jshmem.ContextOption;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricLock;
import io.jshmem.Team;
import io.jshmem.MallocHint;
import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.ShmemInfo;
import io.jshmem.ShmemInitException;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricBytes;
import io.jshmem.SymmetricChars;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricFloats;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;
import io.jshmem.SymmetricShorts;
import io.jshmem.ThreadLevel;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;
import io.jshmem.heap.HeapFile;
import io.jshmem.heap.StaleHeapFiles;
import io.jshmem.spi.Allocation;
import io.jshmem.spi.PeStats;
import io.jshmem.spi.SymmetricSpace;
import io.jshmem.team.TeamRegistry;
import io.jshmem.transport.ReachabilityMap;
import io.jshmem.transport.TransportContext;
import io.jshmem.transport.TransportSet;
import io.jshmem.transport.TransportSetup;
import io.jshmem.transport.Transports;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

/**
 * One PE: the composition root that runs the init sequence (options, bootstrap, heap, transports,
 * reachability map, internal regions, barrier), implements {@link Shmem} as the default context, and
 * finalizes in reverse. Under {@link ThreadLevel#MULTIPLE} every operation is safe from any thread: the
 * one-sided operations hold no state and allocation is serialized by a lock.
 */
final class ShmemRuntime extends Shmem implements SymmetricSpace
{
    private final ShmemConfig config;
    private final ThreadLevel threadLevel;
    private final Bootstrap bootstrap;
    private final HeapFile heapFile;
    private final TransportSet transports;
    private final ReachabilityMap reachability;
    private final MemorySegment localHeap;
    private final RmaEngine rma;
    private final TransportContext[] tc;
    private final WaitIdle waitIdle;
    private final HeapAllocations allocations;
    private final TeamRegistry teams;
    private final Team world;
    private final Object allocationLock = new Object();
    private final String prefix;
    private final boolean debug;
    private final int me;
    private final int n;
    private volatile boolean finalized;
    /** True for the PE {@link Shmem#init()} returns (the process's), false for an independent one. */
    private final boolean processWide;
    /**
     * Why the job of this process's last PE failed, or null. OpenSHMEM 1.6 lets a process initialize again after its
     * finalize, but a failed job does not start again: the root refuses the PEs it knows of, and this refuses this
     * process's next init too, where that init's root (PE 0 hosts one per init) never saw the failure.
     */
    private static volatile String processJobFailure;
    /** SHMEM_STATS counters, null when the option is off: every counting site checks for null and does nothing. */
    private final PeStats stats;
    /** {@link #initPhaseNanos()}: set once at the end of {@link #start}, before the PE is handed out. */
    private volatile java.util.Map<String, Long> initPhases = java.util.Map.of();

    private ShmemRuntime(final boolean processWide, final RuntimeSettings settings, final ThreadLevel requested, final Bootstrap bootstrap,
        final HeapFile heapFile, final TransportSet transports, final WaitIdle waitIdle, final boolean jobSharesCores)
    {
        super(processWide);
        this.processWide = processWide;
        this.config = settings.config();
        this.threadLevel = requested;
        this.bootstrap = bootstrap;
        this.heapFile = heapFile;
        this.transports = transports;
        this.reachability = transports.map();
        this.localHeap = heapFile.dataSegment();
        this.me = bootstrap.rank();
        this.n = bootstrap.size();
        this.prefix = ShmemException.pePrefix(me, n);
        this.debug = settings.debug();
        this.waitIdle = waitIdle;
        this.stats = settings.stats() ? new PeStats() : null;
        this.rma = new RmaEngine(this, transports, stats);
        this.tc = rma.newContext(false);
        this.allocations = new HeapAllocations(this, bootstrap, heapFile.dataSize(), debug);
        // The team slot pool (teams module), WORLD's sync words included. Not zeroed here: the heap file is new,
        // so its pages are zero, and a faster peer may already have signalled into it. start() separates
        // construction from the first sync with a bootstrap barrier.
        final long poolBytes = settings.teams().poolBytes(n);
        final Allocation pool = allocations.allocate(poolBytes, 64, false);
        this.teams = new TeamRegistry(new RuntimeTeams(this, rma, bootstrap, reachability, jobSharesCores),
            new SymmetricMemory(pool, pool.offset(), poolBytes),
            settings.teams());
        this.world = teams.teamWorld();
    }

    /**
     * The init sequence (ARCHITECTURE.md steps 1-5 and 8). Collective over the job.
     *
     * @param processWide true for the PE {@link Shmem#init()} returns.
     * @param settings    the options, resolved.
     * @param requested   the thread level asked for (every level is provided).
     * @param bootstrap   a formed bootstrap (the runtime closes it on failure and at finalize).
     * @param clock       the init's clock, options and bootstrap marked; the phases here are marked on it.
     * @return the ready PE.
     */
    static ShmemRuntime start(final boolean processWide, final RuntimeSettings settings, final ThreadLevel requested, final Bootstrap bootstrap,
        final InitClock clock)
    {
        final String prefix = ShmemException.pePrefix(bootstrap.rank(), bootstrap.size());
        HeapFile heap = null;
        TransportSet transports = null;
        try
        {
            if (bootstrap.rank() == 0 && settings.version())
            {
                System.out.println("jshmem: " + ShmemInfo.VENDOR_STRING + ", OpenSHMEM " + ShmemInfo.MAJOR_VERSION + "." +
                    ShmemInfo.MINOR_VERSION + ", Java " + Runtime.version());
            }
            if (bootstrap.rank() == 0 && settings.info())
            {
                settings.config().printInfo(System.out, ShmemOptions.ALL);
            }
            clock.mark(InitClock.OPTIONS); // SHMEM_VERSION/SHMEM_INFO printing counts as the options step
            final JobShape shape = agreeOnShape(bootstrap, prefix, settings.heapBytes());
            final long heapSize = shape.heapSize();
            final Path dir = HeapFile.DEFAULT_DIRECTORY;
            final Path own = HeapFile.path(dir, bootstrap.jobId(), bootstrap.rank());
            sweepStaleHeaps(dir, own, bootstrap.nodeRank() == 0, prefix, settings.debug());
            heap = HeapFile.create(dir, bootstrap.jobId(), bootstrap.rank(), bootstrap.size(), heapSize);
            final HeapFile created = heap;
            bootstrap.onExit(created::unlink); // a global exit or failure exit during init leaves no file behind
            clock.mark(InitClock.HEAP);
            final List<String> configured = settings.transports();
            final boolean remoteWaits = remoteWaits(configured, bootstrap);
            final WaitIdle waitIdle = new WaitIdle(bootstrap, prefix, waitSpins(settings, bootstrap, remoteWaits),
                waitYields(settings, bootstrap, remoteWaits));
            // steps 4-6: the transports of SHMEM_TRANSPORT, their endpoints, the reachability map, connections
            transports = TransportSet.open(new TransportSetup(bootstrap, heap, dir, settings.config(), waitIdle::idle, System.err::println), configured);
            final ReachabilityMap map = transports.map();
            final Runnable waitProgress = transports.waitProgress();
            if (waitProgress != null && remoteWaits && transports.waitsServeEveryRemote())
            {
                // waiters serve the network themselves: they poll as long as a one-node job's waits, except that where PEs
                // outnumber cores and a transport's thread sends (the proxy's), they park after a few yields as before
                final boolean yieldToSender = transports.threadSends() && oversubscribed(bootstrap);
                waitIdle.tune(waitSpins(settings, bootstrap, false), waitYields(settings, bootstrap, yieldToSender));
            }
            waitIdle.progressWith(waitProgress, transports.waitParks());
            clock.mark(InitClock.TRANSPORTS);
            if (bootstrap.rank() == 0 && settings.info())
            {
                for (final String line : transports.describe())
                {
                    System.out.println("jshmem: transport " + line);
                }
            }
            final ShmemRuntime runtime = new ShmemRuntime(processWide, settings, requested, bootstrap, heap, transports, waitIdle,
                shape.sharedCores());
            clock.mark(InitClock.TEAMS);
            bootstrap.barrier(); // every PE is constructed before anyone stores into a peer's sync words
            heap.unlink(); // every local peer mapped this PE's heap before the barrier (p2p's connect): the name can go
            runtime.world.sync();
            clock.mark(InitClock.BARRIER);
            runtime.initPhases = clock.phases();
            if (settings.debug())
            {
                System.err.println(prefix + "ready: heap " + heapSize + " bytes, " + map.p2pPeers(bootstrap.rank()).length +
                    " PEs by p2p, node " + bootstrap.nodeRank() + "/" + bootstrap.nodeSize() + ", launcher " + bootstrap.launcher() +
                    "; init " + InitClock.format(runtime.initPhases));
            }
            else if (bootstrap.rank() == 0 && settings.info())
            {
                System.out.println("jshmem: init phases on pe 0: " + InitClock.format(runtime.initPhases));
            }
            return runtime;
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(transports);
            closeQuietly(heap);
            closeQuietly(bootstrap);
            throw ex instanceof ShmemException ? ex : new ShmemInitException(prefix + "init failed: " + ex, ex);
        }
    }

    /**
     * @return whether this PE's waits may be on PEs reached through a remote transport: the list has one, and
     *         either p2p is left out or the job spans nodes (waits then last a network round trip).
     */
    private static boolean remoteWaits(final List<String> configured, final Bootstrap bootstrap)
    {
        final boolean auto = configured.equals(List.of(Transports.AUTO));
        final boolean listsRemote = auto || configured.stream().anyMatch(name -> !Transports.P2P.equals(name));
        final boolean listsP2p = auto || configured.contains(Transports.P2P);
        return listsRemote && (!listsP2p || java.util.Arrays.stream(bootstrap.nodeOfRank()).distinct().count() > 1);
    }

    /**
     * Spinning only pays while the PE being waited for has a core of its own; when this node runs more
     * PEs than it has cores, a waiter yields almost at once so that PE can run.
     */
    private static int waitSpins(final RuntimeSettings settings, final Bootstrap bootstrap, final boolean remoteWaits)
    {
        final int configured = settings.waitSpins();
        if (configured >= 0)
        {
            return configured;
        }
        if (remoteWaits)
        {
            return 100; // then 50 yields, then park: see waitYields
        }
        return oversubscribed(bootstrap) ? 20 : 1000;
    }

    /**
     * @return yields before parking, or -1 for never: a PE that parks leaves its core idle, and waking it
     *         costs latency (in a VM the idle vCPU may also be moved to another physical core: measured on
     *         this project's 2-vCPU VMs, the 2-PE ping-pong ran at the slow 0.28 µs placement in about half of
     *         the repetitions with parking in the barriers between tests and in 1 of 8 runs without). When
     *         PEs outnumber cores, parking is what lets the PE being waited for run.
     */
    private static int waitYields(final RuntimeSettings settings, final Bootstrap bootstrap, final boolean remoteWaits)
    {
        final int configured = settings.waitYields();
        if (configured >= 0)
        {
            return configured;
        }
        if (remoteWaits)
        {
            // a wait on a remote PE lasts a network round trip: a waiter that keeps yielding takes the
            // core its proxy thread needs (2-PE ping-pong over the proxy on 2 vCPUs: 96 us one way
            // yielding, 57 us parking after 50 yields)
            return 50;
        }
        return oversubscribed(bootstrap) ? 2000 : -1;
    }

    /** @return whether this machine runs more PEs than it has cores ({@link Bootstrap#machineSize()}). */
    private static boolean oversubscribed(final Bootstrap bootstrap)
    {
        return bootstrap.machineSize() > Runtime.getRuntime().availableProcessors();
    }

    /**
     * Removes heap files that a crashed job left behind (a PE killed between creating its heap and the
     * unlink after mapping). Only files whose header names a dead creator are touched. Every PE clears its own
     * file's name; the node's first PE sweeps the directory (every PE of a node did, reading the header of every
     * other PE's file: 38 ms cold per PE at one file, 56 ms at 64; docs/perf/startup-options-20261127.md).
     */
    private static void sweepStaleHeaps(final Path dir, final Path own, final boolean wholeDirectory, final String prefix,
        final boolean debug)
    {
        try
        {
            final List<Path> removed;
            if (wholeDirectory)
            {
                removed = StaleHeapFiles.sweep(dir);
            }
            else
            {
                removed = StaleHeapFiles.removeIfStale(own) ? List.of(own) : List.of();
            }
            if (debug && !removed.isEmpty())
            {
                System.err.println(prefix + "removed stale heap files of dead jobs: " + removed);
            }
        }
        catch (final java.io.IOException | RuntimeException ex)
        {
            System.err.println(prefix + "could not sweep stale heap files in " + dir + ": " + ex);
        }
    }

    /**
     * What every PE must agree on before it builds anything (one bootstrap allgather): the heap size, checked, and whether
     * any machine of the job runs more PEs than it has cores.
     *
     * @param heapSize    this PE's heap size; every PE must have the same.
     * @param sharedCores whether any machine of the job runs more PEs than it has cores (each PE says so of its own machine,
     *                    {@link #oversubscribed}): the same answer on every PE, so collectives that choose by it across
     *                    machines choose alike ({@link io.jshmem.team.TeamHost#sharedCores()}).
     */
    record JobShape(long heapSize, boolean sharedCores)
    {
    }

    private static JobShape agreeOnShape(final Bootstrap bootstrap, final String prefix, final long heapSize)
    {
        final boolean mine = oversubscribed(bootstrap);
        final byte[][] all = bootstrap.allgather(java.nio.ByteBuffer.allocate(9).putLong(heapSize).put((byte)(mine ? 1 : 0)).array());
        boolean shared = false;
        for (int pe = 0; pe < all.length; pe++)
        {
            final java.nio.ByteBuffer theirs = java.nio.ByteBuffer.wrap(all[pe]);
            final long size = theirs.getLong();
            if (size != heapSize)
            {
                throw new ShmemInitException(prefix + "SHMEM_SYMMETRIC_SIZE differs between PEs: " + heapSize + " bytes here, " +
                    size + " on pe " + pe + "; every PE needs the same heap size");
            }
            shared |= theirs.get() != 0;
        }
        return new JobShape(heapSize, shared);
    }

    private static void closeQuietly(final AutoCloseable c)
    {
        if (c != null)
        {
            try
            {
                c.close();
            }
            catch (final Exception ignore)
            {
                // teardown after a failed init: the original exception is the one to report
            }
        }
    }

    // ------------------------------------------------------------------ SymmetricSpace

    @Override
    public int myPe()
    {
        return me;
    }

    @Override
    public int nPes()
    {
        return n;
    }

    @Override
    public MemorySegment localHeap()
    {
        return localHeap;
    }

    @Override
    public int idle(final int idleCount)
    {
        return waitIdle.idle(idleCount);
    }

    @Override
    public boolean isFinalized()
    {
        return finalized;
    }

    @Override
    public PeStats stats()
    {
        return stats;
    }

    @Override
    public String launcher()
    {
        return bootstrap.launcher();
    }

    @Override
    public String jobId()
    {
        return bootstrap.jobId();
    }

    @Override
    public java.util.Map<String, Long> initPhaseNanos()
    {
        return initPhases;
    }

    @Override
    public String prefix()
    {
        return prefix;
    }

    // ------------------------------------------------------------------ setup and query

    @Override
    protected void finalizeRuntime()
    {
        if (finalized)
        {
            return;
        }
        RuntimeException failure = null;
        if (stats != null)
        {
            // before the finalize barrier: the job's lines come out before any PE's exit ends the launcher
            System.out.println(prefix + "SHMEM_STATS " + stats.format(id -> Transports.nameOf((byte)id)));
            System.out.flush();
        }
        try
        {
            rma.quietAll(true);
            if (bootstrap.failure() == null)
            {
                // The finalize agreement runs on the bootstrap, not on WORLD's team sync: a team sync here would
                // match another PE's barrierAll and let it pass a barrier this PE never entered (issue 10). Every
                // PE quieted before it, so nobody touches a heap after it.
                bootstrap.barrier();
                transports.quiesce(); // peers closing their connections from now on is the end of the job, not a failure
                bootstrap.barrier();
            }
        }
        catch (final RuntimeException ex)
        {
            failure = ex;
        }
        finally
        {
            finalized = true;
            recordJobFailure(failure != null ? failure : bootstrap.failure());
            rma.finalized();
            releaseObjects();
            closeQuietly(transports);
            closeQuietly(heapFile);
            closeQuietly(bootstrap);
        }
        if (failure != null)
        {
            throw failure;
        }
    }

    /** Remembers, for the process's PE, that its job failed ({@link #refuseInitAfterFailure}); null: it did not. */
    private void recordJobFailure(final RuntimeException failure)
    {
        if (processWide && failure != null && processJobFailure == null)
        {
            final String why = failure.getMessage();
            processJobFailure = why != null && why.startsWith(prefix) ? why.substring(prefix.length()) : String.valueOf(why);
        }
    }

    /**
     * Refuses an init of the process's PE after the one before it ended in a failed job.
     *
     * @param generation which init of the process this is (1 for the first).
     * @throws ShmemInitException naming the earlier failure.
     */
    static void refuseInitAfterFailure(final int generation)
    {
        final String why = processJobFailure;
        if (generation > 1 && why != null)
        {
            throw new ShmemInitException("jshmem: init " + generation + " of this process refused: the job failed during its"
                + " previous init (" + why + "), and a failed job does not start again");
        }
    }

    /** Every symmetric object dies with the heap (teams' and contexts' words included). */
    private void releaseObjects()
    {
        synchronized (allocationLock)
        {
            allocations.releaseAll();
        }
    }

    /**
     * This PE leaves by an exception (see {@link Shmem#close()}): the failure is recorded and the bootstrap
     * closed without a farewell, so the root tells the other PEs at once that this PE was lost; transports,
     * mappings and the heap are released here rather than at the process's end.
     */
    @Override
    protected void leaveByException(final io.jshmem.JobFailedException why)
    {
        if (finalized)
        {
            return;
        }
        finalized = true;
        recordJobFailure(why);
        rma.finalized();
        bootstrap.reportFailure(why);
        releaseObjects();
        closeQuietly(transports);
        closeQuietly(heapFile);
        closeQuietly(bootstrap);
    }

    @Override
    public ThreadLevel threadLevel()
    {
        return threadLevel;
    }

    @Override
    public ShmemConfig config()
    {
        return config;
    }

    /** @return the job's transport reachability map. */
    ReachabilityMap reachability()
    {
        return reachability;
    }

    @Override
    public boolean peAccessible(final int pe)
    {
        return rma.reaches(pe);
    }

    @Override
    public boolean addrAccessible(final SymmetricArray<?> object, final int pe)
    {
        return object != null && object.allocation().space() == this && object.isLive() && peAccessible(pe);
    }

    @Override
    public MemorySegment ptr(final SymmetricArray<?> object, final int pe)
    {
        rma.checkOwner(object, "ptr");
        object.checkLive();
        if (pe < 0 || pe >= n)
        {
            throw new IndexOutOfBoundsException(prefix + "ptr: pe=" + pe + " out of range [0, " + n + ")");
        }
        final MemorySegment heap = transports.p2p().heapOf(pe);
        return heap == null ? null : heap.asSlice(object.offset(), object.byteSize());
    }

    @Override
    public void globalExit(final int status)
    {
        bootstrap.globalExit(status);
    }

    // ------------------------------------------------------------------ memory management

    private Allocation allocate(final String routine, final long bytes, final long alignment, final boolean zero)
    {
        if (bytes < 0)
        {
            throw new IllegalArgumentException(prefix + routine + ": bytes=" + bytes + " is negative");
        }
        rma.usable(routine);
        if (bytes == 0)
        {
            return null; // no object and no barrier, as the spec says
        }
        final Allocation a;
        synchronized (allocationLock)
        {
            allocations.checkSameCall(routine, bytes, alignment);
            a = allocations.allocate(bytes, alignment, zero);
        }
        barrierAll(); // barrier on exit: every PE has the object before anyone writes into it
        return a;
    }

    private static long elements(final String prefix, final long n, final int size)
    {
        if (n < 0 || n > Long.MAX_VALUE / size)
        {
            throw new IllegalArgumentException(prefix + "element count " + n + " is negative or too large");
        }
        return n * size;
    }

    @Override
    public SymmetricMemory malloc(final long bytes)
    {
        final Allocation a = allocate("malloc", bytes, 0, false);
        return a == null ? null : new SymmetricMemory(a, a.offset(), bytes);
    }

    @Override
    public SymmetricMemory calloc(final long count, final long elementBytes)
    {
        if (count < 0 || elementBytes < 0)
        {
            throw new IllegalArgumentException(prefix + "calloc: count=" + count + " elementBytes=" + elementBytes + " must not be negative");
        }
        if (count == 0 || elementBytes == 0)
        {
            return null;
        }
        final long bytes = elements(prefix, count, (int)Math.min(Integer.MAX_VALUE, elementBytes));
        final Allocation a = allocate("calloc", bytes, 0, true);
        return new SymmetricMemory(a, a.offset(), bytes);
    }

    @Override
    public SymmetricMemory align(final long alignment, final long bytes)
    {
        if (alignment < 8 || Long.bitCount(alignment) != 1)
        {
            throw new IllegalArgumentException(prefix + "align: alignment=" + alignment + " must be a power of two >= 8");
        }
        final Allocation a = allocate("align", bytes, alignment, false);
        return a == null ? null : new SymmetricMemory(a, a.offset(), bytes);
    }

    @Override
    public SymmetricMemory mallocWithHints(final long bytes, final MallocHint... hints)
    {
        final Allocation a = allocate("malloc_with_hints", bytes, 0, false);
        return a == null ? null : new SymmetricMemory(a, a.offset(), bytes);
    }

    @Override
    public SymmetricMemory realloc(final SymmetricMemory object, final long bytes)
    {
        rma.usable("realloc");
        if (object == null)
        {
            return malloc(bytes);
        }
        if (bytes == 0)
        {
            free(object);
            return null;
        }
        if (bytes < 0)
        {
            throw new IllegalArgumentException(prefix + "realloc: bytes=" + bytes + " is negative");
        }
        barrierAll(); // nobody is still using the old object
        final Allocation a;
        synchronized (allocationLock)
        {
            final Allocation old = allocations.wholeAllocation(object, "realloc");
            allocations.checkSameCall("realloc", bytes, 0);
            a = allocations.reallocate(old, bytes);
        }
        barrierAll();
        return new SymmetricMemory(a, a.offset(), bytes);
    }

    @Override
    public void free(final SymmetricArray<?> object)
    {
        if (object == null)
        {
            return;
        }
        rma.usable("free");
        synchronized (allocationLock)
        {
            allocations.wholeAllocation(object, "free");
        }
        barrierAll(); // barrier on entry: every PE is done with the object
        synchronized (allocationLock)
        {
            final Allocation a = allocations.wholeAllocation(object, "free");
            allocations.checkSameCall("free", a.byteSize(), 0);
            allocations.free(a);
        }
    }

    /** Makes a typed handle on an allocation: (allocation, heap offset, element count). */
    @FunctionalInterface
    private interface HandleFactory<H>
    {
        H make(Allocation allocation, long offset, long length);
    }

    private <H> H allocateTyped(final String routine, final long n, final int elementBytes, final HandleFactory<H> factory)
    {
        final Allocation a = allocate(routine, elements(prefix, n, elementBytes), 0, true);
        return a == null ? null : factory.make(a, a.offset(), n);
    }

    @Override
    public SymmetricBytes allocateBytes(final long n)
    {
        return allocateTyped("allocateBytes", n, 1, SymmetricBytes::new);
    }

    @Override
    public SymmetricShorts allocateShorts(final long n)
    {
        return allocateTyped("allocateShorts", n, 2, SymmetricShorts::new);
    }

    @Override
    public SymmetricChars allocateChars(final long n)
    {
        return allocateTyped("allocateChars", n, 2, SymmetricChars::new);
    }

    @Override
    public SymmetricInts allocateInts(final long n)
    {
        return allocateTyped("allocateInts", n, 4, SymmetricInts::new);
    }

    @Override
    public SymmetricLongs allocateLongs(final long n)
    {
        return allocateTyped("allocateLongs", n, 8, SymmetricLongs::new);
    }

    @Override
    public SymmetricFloats allocateFloats(final long n)
    {
        return allocateTyped("allocateFloats", n, 4, SymmetricFloats::new);
    }

    @Override
    public SymmetricDoubles allocateDoubles(final long n)
    {
        return allocateTyped("allocateDoubles", n, 8, SymmetricDoubles::new);
    }

    @Override
    public long heapUsedBytes()
    {
        synchronized (allocationLock)
        {
            return allocations.usedBytes();
        }
    }

    @Override
    public long heapFreeBytes()
    {
        synchronized (allocationLock)
        {
            return allocations.freeBytes();
        }
    }

    // ------------------------------------------------------------------ synchronization

    @Override
    public void barrierAll()
    {
        rma.usable("barrierAll");
        // every context's operations, not only the default context's (the spec's minimum); not the collectives'
        // own context: a previous collective's messages are complete once every member left it
        rma.quietAll(false);
        world.sync();
    }

    @Override
    public void syncAll()
    {
        rma.usable("syncAll");
        world.sync();
    }

    // ------------------------------------------------------------------ teams, contexts, locks

    @Override
    public Team teamWorld()
    {
        return world;
    }

    @Override
    public Team teamShared()
    {
        return teams.teamShared();
    }

    @Override
    public Team teamNode()
    {
        return teams.teamNode();
    }

    @Override
    public Team team()
    {
        return world;
    }

    @Override
    public ShmemContext createContext(final ContextOption... options)
    {
        rma.usable("createContext");
        return world.createContext(options);
    }

    @Override
    public SymmetricLock allocateLock()
    {
        return lock(allocateLongs(SymmetricLock.WORDS));
    }

    @Override
    public SymmetricLock lock(final SymmetricLongs words)
    {
        return new McsLock(this, this, words);
    }

    // ------------------------------------------------------------------ default context operations

    @Override
    protected void rmaPut(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset, final int count,
        final int pe, final boolean nbi)
    {
        rma.put(tc, dest, destIndex, src, srcOffset, count, pe, nbi);
    }

    @Override
    protected void rmaGet(final Object dest, final int destOffset, final SymmetricArray<?> src, final long srcIndex, final int count,
        final int pe, final boolean nbi)
    {
        rma.get(tc, dest, destOffset, src, srcIndex, count, pe, nbi);
    }

    @Override
    protected void rmaPutSegment(final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src, final int pe,
        final boolean nbi)
    {
        rma.putSegment(tc, dest, destByteOffset, src, pe, nbi);
    }

    @Override
    protected void rmaGetSegment(final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset, final int pe,
        final boolean nbi)
    {
        rma.getSegment(tc, dest, src, srcByteOffset, pe, nbi);
    }

    @Override
    protected void rmaPutStrided(final SymmetricArray<?> dest, final long destIndex, final long dst, final Object src, final int srcOffset,
        final long sst, final long bsize, final long nblocks, final int pe)
    {
        rma.putStrided(tc, dest, destIndex, dst, src, srcOffset, sst, bsize, nblocks, pe);
    }

    @Override
    protected void rmaGetStrided(final Object dest, final int destOffset, final long dst, final SymmetricArray<?> src, final long srcIndex,
        final long sst, final long bsize, final long nblocks, final int pe)
    {
        rma.getStrided(tc, dest, destOffset, dst, src, srcIndex, sst, bsize, nblocks, pe);
    }

    @Override
    protected void rmaP(final SymmetricArray<?> dest, final long index, final long bits, final int pe)
    {
        rma.p(tc, dest, index, bits, pe);
    }

    @Override
    protected long rmaG(final SymmetricArray<?> src, final long index, final int pe)
    {
        return rma.g(tc, src, index, pe);
    }

    @Override
    protected long amo(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond, final int pe)
    {
        return rma.amo(tc, op, dest, index, value, cond, pe);
    }

    @Override
    protected void amoNbi(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond,
        final int pe, final Object fetch, final int fetchIndex)
    {
        rma.amoNbi(tc, op, dest, index, value, cond, pe, fetch, fetchIndex);
    }

    @Override
    protected void rmaPutSignal(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset, final int count,
        final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int pe, final boolean nbi)
    {
        rma.putSignal(tc, dest, destIndex, src, srcOffset, count, sig, sigIndex, signal, op, pe, nbi);
    }

    @Override
    public void fence()
    {
        rma.fence(tc);
    }

    @Override
    public void quiet()
    {
        rma.quiet(tc);
    }

    @Override
    public void peQuiet(final int... pes)
    {
        rma.peQuiet(tc, pes);
    }

    @Override
    public String toString()
    {
        return "jshmem PE " + me + "/" + n + " (" + bootstrap.launcher() + ", job " + bootstrap.jobId() + ")";
    }
}
