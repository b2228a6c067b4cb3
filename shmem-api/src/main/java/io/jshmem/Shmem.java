package io.jshmem;

import io.jshmem.config.ShmemConfig;
import io.jshmem.spi.ShmemProvider;

import java.lang.foreign.MemorySegment;
import java.util.ServiceLoader;

/**
 * A processing element (PE): the handle a program gets from {@link #init()}, and its default
 * communication context. Setup and query, symmetric allocation, barriers and global exit live here;
 * the one-sided operations are inherited from {@link ShmemContext}.
 * <pre>{@code
 * try (Shmem shmem = Shmem.init()) {
 *     SymmetricLongs box = shmem.allocateLongs(4);         // collective
 *     shmem.p(box, 0, shmem.myPe(), (shmem.myPe() + 1) % shmem.nPes());
 *     shmem.barrierAll();
 *     long fromLeft = box.getLocal(0);
 * }
 * }</pre>
 * {@link #init()} returns the process's PE, configured from the environment its launcher set
 * ({@code bin/shmemrun}, torchrun, SLURM, MPI, or none for a single PE). As in OpenSHMEM 1.6, init may
 * be called again while initialized (it returns the same PE) and each init needs a matching
 * {@link #close()}; the last close finalizes. After the last close, init may be called again: every PE
 * of the job does so, and the job forms anew (same PEs, same numbers, a new heap; objects, teams and
 * contexts of the earlier init are gone). {@link #create} makes an independent PE from an explicit
 * configuration (several PEs in one JVM, as tests do).
 * <p>
 * Threads: under {@link ThreadLevel#MULTIPLE} any thread may call any method; allocation and
 * collectives must still be called in the same order on every PE.
 */
public abstract class Shmem extends ShmemContext
{
    private static final Object LOCK = new Object();
    private static Shmem processPe;
    private static int processRefs;
    /** Inits of this process that formed a job (1.6: a new one may follow the last finalize). */
    private static int processGeneration;

    private final boolean processWide;

    /**
     * Subclassed by the runtime only.
     *
     * @param processWide true for the PE returned by {@link #init()}.
     */
    protected Shmem(final boolean processWide)
    {
        this.processWide = processWide;
    }

    // ------------------------------------------------------------------ setup

    /**
     * {@code shmem_init}: initializes (or, if already initialized, returns) this process's PE. After the
     * last {@link #close()} it initializes again (OpenSHMEM 1.6), collectively: every PE of the job must
     * call it; a PE that comes early waits (within {@code SHMEM_BOOTSTRAP_TIMEOUT}) until every PE has
     * finalized the previous init. A job that failed or called global exit does not initialize again.
     *
     * @return the PE.
     * @throws ShmemInitException if initialization fails; the message says why and what to change.
     */
    public static Shmem init()
    {
        return init(ThreadLevel.SINGLE);
    }

    /**
     * {@code shmem_init_thread}: as {@link #init()}, asking for a thread level; {@link #threadLevel()}
     * says what was provided.
     *
     * @param requested the thread level asked for; null means {@link ThreadLevel#SINGLE}.
     * @return the PE.
     * @throws ShmemInitException if initialization fails; the message says why and what to change.
     */
    public static Shmem init(final ThreadLevel requested)
    {
        return init(ShmemConfig.fromProcess(), requested);
    }

    /**
     * As {@link #init(ThreadLevel)}, with a configuration (environment, properties, explicit settings).
     *
     * @param config    the configuration ({@link ShmemConfig#fromProcess()} reads the environment).
     * @param requested the thread level asked for; null means {@link ThreadLevel#SINGLE}.
     * @return the PE; the same object while the process's PE is initialized (each init needs a close).
     * @throws ShmemInitException if initialization fails; the message says why and what to change.
     */
    public static Shmem init(final ShmemConfig config, final ThreadLevel requested)
    {
        synchronized (LOCK)
        {
            if (processPe != null)
            {
                processRefs++;
                return processPe;
            }
            final int generation = processGeneration + 1;
            final Shmem pe = provider().create(config, requested == null ? ThreadLevel.SINGLE : requested, generation);
            if (!pe.processWide)
            {
                throw new IllegalStateException("provider returned a non-process PE");
            }
            processPe = pe;
            processRefs = 1;
            processGeneration = generation;
            return pe;
        }
    }

    /**
     * {@code shmem_pcontrol}: the profiling control of OpenSHMEM 1.6. jshmem has no profiling
     * interface, so, as the specification allows, every level is accepted and nothing changes (level
     * 0 or less: profiling off, 1: default, 2: flush, above 2: library-defined).
     *
     * @param level the profiling level.
     */
    public static void pcontrol(final int level)
    {
        // no profiling layer: the spec's "libraries just return"
    }

    /** {@return true between the first init and the last close} ({@code shmem_query_initialized}) */
    public static boolean isInitialized()
    {
        synchronized (LOCK)
        {
            return processPe != null;
        }
    }

    /**
     * Makes an independent PE (not the process's) from an explicit configuration, e.g. several PEs
     * as threads of one JVM. Close it to finalize.
     *
     * @param config    the configuration, naming this PE's bootstrap (e.g. a unique id, rank and size).
     * @param requested the thread level asked for; null means {@link ThreadLevel#SINGLE}.
     * @return the new PE.
     * @throws ShmemInitException if initialization fails; the message says why and what to change.
     */
    public static Shmem create(final ShmemConfig config, final ThreadLevel requested)
    {
        return provider().createIndependent(config, requested == null ? ThreadLevel.SINGLE : requested);
    }

    private static ShmemProvider provider()
    {
        return ServiceLoader.load(ShmemProvider.class, Shmem.class.getClassLoader()).findFirst()
            .orElseThrow(() -> new ShmemInitException("jshmem: no runtime on the class path: add the io.jshmem:shmem-runtime artifact"));
    }

    /**
     * {@code shmem_finalize}: collective. The last close of the process's PE (or the close of an
     * independent PE) completes pending operations, synchronizes, and releases the heap, threads and
     * sockets; earlier closes act as {@link #barrierAll()}.
     * <p>
     * A PE leaving by an exception does not finalize collectively: when close() is reached only through
     * an exception handler (the body of {@code try (Shmem shmem = Shmem.init())} threw, or close() is
     * called from a {@code catch} block or the exceptional path of a {@code finally}), this PE prints
     * that it is leaving, leaves the job at once and returns, so the exception propagates; the other
     * PEs' waits, barriers and collectives fail within seconds with a {@link JobFailedException}
     * naming this PE, instead of waiting for a finalize that could never match theirs. In OpenSHMEM
     * terms an exception is an abort of this PE, not a finalize.
     */
    @Override
    public final void close()
    {
        final java.util.Optional<String> handler = io.jshmem.spi.Unwinding.callerInHandler(Shmem.class);
        if (processWide)
        {
            synchronized (LOCK)
            {
                if (processPe != this)
                {
                    return;
                }
                if (--processRefs > 0 && handler.isEmpty())
                {
                    barrierAll();
                    return;
                }
                processPe = null;
                processRefs = 0;
            }
        }
        if (handler.isPresent())
        {
            final JobFailedException why = new JobFailedException(ShmemException.pePrefix(myPe(), nPes()) +
                "left the job by an exception: close() was reached from exception handling in " + handler.get() +
                "; no collective finalize, the other PEs fail naming this PE", myPe(), null);
            System.err.println(why.getMessage());
            System.err.flush();
            leaveByException(why);
            return;
        }
        finalizeRuntime();
    }

    /** Runs the finalize sequence; called once. */
    protected abstract void finalizeRuntime();

    /**
     * Called once, instead of {@link #finalizeRuntime()}, when this PE leaves the job by an exception
     * (see {@link #close()}). The runtime overrides it to record the failure and leave the bootstrap
     * without a farewell, so the job's other PEs fail at once naming this PE. This default leaves the
     * PE's resources to the process's end, whose lost connections then end the job.
     *
     * @param why the failure to report, naming this PE.
     */
    protected void leaveByException(final JobFailedException why)
    {
    }

    /** {@return the thread level provided ({@code shmem_query_thread})} */
    public abstract ThreadLevel threadLevel();

    /** {@return this PE's number, 0..nPes-1 ({@code shmem_my_pe})} */
    public abstract int myPe();

    /** {@return the number of PEs ({@code shmem_n_pes})} */
    public abstract int nPes();

    /** {@return the configuration this PE was initialized with} */
    public abstract ShmemConfig config();

    /**
     * {@return true if {@code pe} is a valid target of one-sided operations ({@code shmem_pe_accessible})}
     *
     * @param pe a PE number in WORLD.
     */
    public abstract boolean peAccessible(int pe);

    /**
     * {@return true if the object is a live symmetric object of this PE's job reachable on pe ({@code shmem_addr_accessible})}
     *
     * @param object a symmetric object (any handle of it).
     * @param pe a PE number in WORLD.
     */
    public abstract boolean addrAccessible(SymmetricArray<?> object, int pe);

    /**
     * {@code shmem_ptr}: the peer's copy of a symmetric object as a segment for direct loads and stores,
     * or null when pe is not reachable by load/store (another node).
     *
     * @param object a symmetric object (any handle of it).
     * @param pe a PE number in WORLD.
     * @return the peer's copy as a segment, or null.
     */
    public abstract MemorySegment ptr(SymmetricArray<?> object, int pe);

    /**
     * {@return the launch environment the bootstrap detected and formed the job through: {@code shmemrun},
     * {@code uid}, {@code torchrun}, {@code slurm}, {@code mpi} or {@code singleton} (see docs/bootstrap.md)}
     */
    public abstract String launcher();

    /** {@return this job's id: the same on every PE of the job, different for every job (heap file names carry it)} */
    public abstract String jobId();

    /** {@return {@link ShmemInfo#MAJOR_VERSION} ({@code shmem_info_get_version})} */
    public final int majorVersion()
    {
        return ShmemInfo.MAJOR_VERSION;
    }

    /** {@return {@link ShmemInfo#MINOR_VERSION}} */
    public final int minorVersion()
    {
        return ShmemInfo.MINOR_VERSION;
    }

    /** {@return {@link ShmemInfo#VENDOR_STRING} ({@code shmem_info_get_name})} */
    public final String vendorName()
    {
        return ShmemInfo.VENDOR_STRING;
    }

    /**
     * {@code shmem_global_exit}: ends every PE of the job with this status, including PEs blocked in a
     * barrier or a wait. Does not return.
     *
     * @param status the exit status of every PE's process.
     */
    public abstract void globalExit(int status);

    // ------------------------------------------------------------------ memory management

    /**
     * {@code shmem_malloc}: collective over WORLD with the same size on every PE; barrier on exit.
     *
     * @param bytes size in bytes, the same on every PE.
     * @return the object, or null for size 0 (no barrier then).
     * @throws HeapExhaustedException if the heap has no room (on every PE).
     */
    public abstract SymmetricMemory malloc(long bytes);

    /**
     * {@code shmem_calloc}: as malloc, zeroed; null (no barrier) if either argument is 0.
     *
     * @param count        number of elements, the same on every PE.
     * @param elementBytes bytes per element, the same on every PE.
     * @return the zeroed object, or null if either argument is 0.
     * @throws HeapExhaustedException if the heap has no room (on every PE).
     */
    public abstract SymmetricMemory calloc(long count, long elementBytes);

    /**
     * {@code shmem_align}: alignment a power of two, at least 8.
     *
     * @param alignment the object's heap alignment in bytes: a power of two, at least 8.
     * @param bytes     size in bytes, the same on every PE.
     * @return the object, or null for size 0.
     * @throws IllegalArgumentException if the alignment is not a power of two of at least 8.
     * @throws HeapExhaustedException   if the heap has no room (on every PE).
     */
    public abstract SymmetricMemory align(long alignment, long bytes);

    /**
     * {@code shmem_malloc_with_hints}: hints never change semantics.
     *
     * @param bytes size in bytes, the same on every PE.
     * @param hints how the program will use the object (none, or {@link MallocHint}s).
     * @return the object, or null for size 0.
     * @throws HeapExhaustedException if the heap has no room (on every PE).
     */
    public abstract SymmetricMemory mallocWithHints(long bytes, MallocHint... hints);

    /**
     * {@code shmem_realloc}: keeps the first min(old, new) bytes. A null object allocates; size 0
     * frees and returns null. On failure the object is unchanged and every PE gets the exception.
     * The old handle (and its slices and views) must not be used afterwards.
     *
     * @param object the whole object to resize (its own handle), or null to allocate.
     * @param bytes  the new size in bytes, the same on every PE.
     * @return the resized object (possibly at a new offset), or null for size 0.
     * @throws HeapExhaustedException if the heap has no room (on every PE).
     */
    public abstract SymmetricMemory realloc(SymmetricMemory object, long bytes);

    /**
     * {@code shmem_free}: collective, barrier on entry; null is a no-op. Accepts any handle of the whole object.
     *
     * @param object a symmetric object (any handle of it).
     */
    public abstract void free(SymmetricArray<?> object);

    /**
     * {@return n zeroed bytes on every PE (collective; null for n == 0)}
     *
     * @param n number of elements, the same on every PE.
     */
    public abstract SymmetricBytes allocateBytes(long n);

    /**
     * {@return n zeroed shorts on every PE (collective; null for n == 0)}
     *
     * @param n number of elements, the same on every PE.
     */
    public abstract SymmetricShorts allocateShorts(long n);

    /**
     * {@return n zeroed chars on every PE (collective; null for n == 0)}
     *
     * @param n number of elements, the same on every PE.
     */
    public abstract SymmetricChars allocateChars(long n);

    /**
     * {@return n zeroed ints on every PE (collective; null for n == 0)}
     *
     * @param n number of elements, the same on every PE.
     */
    public abstract SymmetricInts allocateInts(long n);

    /**
     * {@return n zeroed longs on every PE (collective; null for n == 0)}
     *
     * @param n number of elements, the same on every PE.
     */
    public abstract SymmetricLongs allocateLongs(long n);

    /**
     * {@return n zeroed floats on every PE (collective; null for n == 0)}
     *
     * @param n number of elements, the same on every PE.
     */
    public abstract SymmetricFloats allocateFloats(long n);

    /**
     * {@return n zeroed doubles on every PE (collective; null for n == 0)}
     *
     * @param n number of elements, the same on every PE.
     */
    public abstract SymmetricDoubles allocateDoubles(long n);

    /** {@return bytes of symmetric heap in use on this PE} */
    public abstract long heapUsedBytes();

    /** {@return bytes of symmetric heap free on this PE} */
    public abstract long heapFreeBytes();

    /**
     * How long each step of this PE's init took, for start-up profiling (benchmarks/scale records it for
     * every PE of jobs up to hundreds of PEs). The steps, in the order they ran and in this map's order:
     * {@code options} (every option resolved and parsed; printed with SHMEM_INFO), {@code bootstrap} (the job formed: launcher
     * detected, ranks, node ranks), {@code heap} (the heap size agreed on, this PE's heap file created),
     * {@code transports} (endpoints exchanged, the reachability map gathered, connections made),
     * {@code teams} (allocator, team slot pool, WORLD/SHARED/NODE) and {@code barrier} (the closing
     * barrier: waiting for the slowest PE). Their sum is the time from the runtime's start to
     * {@link #init()} returning; it does not include the JVM's own start nor this class finding the runtime.
     * With {@code SHMEM_DEBUG} every PE prints them when ready, with {@code SHMEM_INFO} PE 0 does.
     * <p>
     * Not collective and cheap: the same immutable map on every call, safe from any thread. The step names
     * may grow as init changes; read them by name.
     *
     * @return step name to nanoseconds, in the order the steps ran; empty for a runtime that does not record them.
     */
    public java.util.Map<String, Long> initPhaseNanos()
    {
        return java.util.Map.of();
    }

    // ------------------------------------------------------------------ teams, contexts, locks

    /** {@return {@code SHMEM_TEAM_WORLD}: every PE, numbered as {@link #myPe()}} */
    public abstract Team teamWorld();

    /**
     * {@code SHMEM_TEAM_SHARED}: the PEs that reach each other by load/store ({@link #ptr} is
     * non-null), from the transport reachability map. See docs/teams.md for PE sets that are not a
     * strided range.
     *
     * @return the team of PEs sharing memory with this one.
     */
    public abstract Team teamShared();

    /** {@return the PEs on this PE's host ({@code SHMEMX_TEAM_NODE} of SOS, {@code NVSHMEMX_TEAM_NODE})} */
    public abstract Team teamNode();

    /**
     * {@code shmem_ctx_create}: a new context on WORLD. Not collective. Close it (destroy) when done;
     * closing completes its pending operations.
     *
     * @param options context options ({@link ContextOption}), none for the defaults.
     * @return the new context.
     */
    public abstract ShmemContext createContext(ContextOption... options);

    /**
     * Allocates a distributed lock (collective, like every allocation). Free it with
     * {@link #free(SymmetricLock)}.
     *
     * @return the lock, unlocked.
     * @throws HeapExhaustedException if the heap has no room (on every PE).
     */
    public abstract SymmetricLock allocateLock();

    /**
     * Makes a lock over {@link SymmetricLock#WORDS} symmetric longs the program allocated (zero on every
     * PE, not used otherwise while the lock is in use). Not collective; every PE wraps the same words.
     *
     * @param words the lock's {@link SymmetricLock#WORDS} symmetric longs.
     * @return the lock over those words.
     * @throws IllegalArgumentException if {@code words} holds fewer than {@link SymmetricLock#WORDS} longs or is of another job.
     */
    public abstract SymmetricLock lock(SymmetricLongs words);

    /**
     * Frees a lock's words (collective).
     *
     * @param lock the lock; null is a no-op.
     */
    public final void free(final SymmetricLock lock)
    {
        free(lock == null ? null : lock.words());
    }

    // ------------------------------------------------------------------ synchronization

    /**
     * {@code shmem_barrier_all}: quiet (of every live context of this PE, a superset of the spec's default
     * context), then a barrier over WORLD.
     */
    public abstract void barrierAll();

    /** {@code shmem_sync_all}: a barrier over WORLD that does not complete outstanding operations. */
    public abstract void syncAll();
}
