package io.jshmem.transport;

import io.jshmem.AtomicOp;
import io.jshmem.SignalOp;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * The transport SPI: how one-sided operations reach another PE's symmetric heap. The runtime checks
 * every argument once, in front of dispatch; a transport receives byte offsets into the target's heap
 * data region that are known to be in range and aligned, and a target it reaches.
 * <p>
 * Lifecycle (the init sequence of ARCHITECTURE.md): the transport is made and publishes its
 * {@link #endpoint()}; the runtime allgathers the endpoints, asks every transport {@link #canReach}
 * for every PE (in the order of {@code SHMEM_TRANSPORT}) to build its row of the
 * {@link ReachabilityMap}, allgathers the map, then calls {@link #connect} on every transport
 * (collective: every PE calls it, in the same transport order), and finally {@link #close()}.
 * <p>
 * Completion: a blocking put returns when the source may be reused; every put, AMO and signal is
 * complete at the target after {@link #quiet} on its context; {@link #fence} orders the context's
 * puts, AMOs and signals to each target. An nbi get or fetching AMO has written its destination after
 * {@link #quiet}. Threads: every verb is safe from any thread; a context is used as its owner allows.
 */
public interface Transport extends AutoCloseable
{
    /** Version of this SPI; a transport built for another version is refused. */
    int SPI_VERSION = 1;

    /** What a transport offers beyond the verbs every transport has. */
    enum Capability
    {
        /** The target heap is mapped here: {@code shmem_ptr} works. */
        LOAD_STORE,
        /** Operations on a PE progress without that PE calling the library (a proxy thread, hardware). */
        PASSIVE_PROGRESS,
        /** Puts, AMOs and signals to one target are applied in issue order: fence is free. */
        ORDERED_PER_TARGET,
        /** Atomics are CPU atomics on the target's heap word: one atomicity domain with load/store peers. */
        CPU_ATOMICS,
        /**
         * Peers' operations land when this PE calls {@link #progress()}, and a PE that waits on its heap words
         * (wait_until, signal waits, barriers) should call it while it polls, as a native OpenSHMEM's waits
         * do: then no other thread must wake up to serve the peer it waits for (UCX over tcp).
         */
        PROGRESS_FROM_WAITS,
        /**
         * A thread of the transport's own sends what the PE's calls hand it (the proxy thread's outgoing transfers, also
         * while waits poll): where PEs outnumber cores, a wait must not keep its core for long, or that thread waits for
         * one (the runtime's waits then park after a few yields, docs/runtime.md).
         */
        THREAD_SENDS
    }

    /** @return the name used in {@code SHMEM_TRANSPORT} and messages. */
    String name();

    /** @return the id this transport has in the reachability map. */
    byte id();

    /** @return the SPI version the transport implements. */
    default int spiVersion()
    {
        return SPI_VERSION;
    }

    /**
     * @return what {@code SHMEM_INFO} prints after the transport's name and reach, e.g. a native library's
     *         version and the devices it uses; empty by default.
     */
    default String info()
    {
        return "";
    }

    /** @return the capabilities. */
    Set<Capability> capabilities();

    /** @return what peers need to connect to this PE through this transport (allgathered before connect). */
    byte[] endpoint();

    /**
     * @param pe a PE of the job.
     * @return whether this transport can carry operations from this PE to {@code pe}.
     */
    boolean canReach(int pe);

    /**
     * Connects to the PEs the map assigns to this transport. Collective.
     *
     * @param map       the job's reachability map.
     * @param endpoints every PE's {@link #endpoint()}, indexed by PE (empty for a PE without this transport).
     */
    void connect(ReachabilityMap map, byte[][] endpoints);

    /** @return a new context: the state that quiet and fence act on (per-target completion counters). */
    TransportContext createContext();

    /**
     * @return a context for the library's own collectives (their signals and data): barrier_all's
     *         {@link #quietAll(boolean) quietAll(false)} need not wait for it. A collective's messages are complete for
     *         the program once every member has left it (each waited for what was sent to it), so barrier_all
     *         does not need their acknowledgements; waiting for them cost the proxy one more round trip per
     *         barrier. By default the same as {@link #createContext()}.
     */
    default TransportContext createCollectiveContext()
    {
        return createContext();
    }

    /**
     * Puts {@code src} into the target's heap at {@code offset}.
     *
     * @param nbi true: the source must stay unchanged until quiet (a transport may still copy it now).
     */
    void put(TransportContext ctx, int pe, long offset, MemorySegment src, boolean nbi);

    /**
     * Gets from the target's heap into {@code dst}; blocking unless {@code nbi} (then {@code dst} is
     * written by quiet).
     */
    void get(TransportContext ctx, int pe, long offset, MemorySegment dst, boolean nbi);

    /**
     * Put with signal: the data (may be empty), then the 64-bit signal word at {@code sigOffset} updated
     * by {@code op}, so that a target observing the signal observes the data.
     */
    void putSignal(TransportContext ctx, int pe, long offset, MemorySegment src, long sigOffset, long signal, SignalOp op,
        boolean nbi);

    /**
     * A blocking atomic on a 4- or 8-byte word.
     *
     * @return the old value for fetching operations (sign-extended from 4 bytes), 0 otherwise.
     */
    long amo(TransportContext ctx, int pe, AtomicOp op, int bytes, long offset, long value, long cond);

    /**
     * A non-blocking atomic: {@code fetch} (4 or 8 bytes, or null for a non-fetching op) receives the
     * old value by the next quiet.
     */
    void amoNbi(TransportContext ctx, int pe, AtomicOp op, int bytes, long offset, long value, long cond, MemorySegment fetch);

    /** Orders the context's puts, AMOs and signals to each target. */
    void fence(TransportContext ctx);

    /** Completes every operation the context issued through this transport. */
    void quiet(TransportContext ctx);

    /**
     * Completes every operation issued before the call on the live contexts of this PE (barrier_all and
     * finalize use it: the spec asks only for the default context's, but a program that forgot a context's
     * quiet before a barrier should not see that only on a multi-node job).
     *
     * @param collectives false (barrier_all): skip the contexts made by {@link #createCollectiveContext()};
     *                    true (finalize): every context.
     */
    default void quietAll(final boolean collectives)
    {
    }

    /** Completes every operation the context issued to {@code pe}. */
    void peQuiet(TransportContext ctx, int pe);

    /**
     * Makes progress from the calling thread while it waits on this transport. The proxy calls it in its
     * own waits (blocking gets and fetching atomics, quiet) to send and receive without its thread's
     * wake-ups; waits on heap words leave progress to the transport's thread (see docs/transports.md).
     */
    void progress();

    /**
     * The calling thread, which ran {@link #progress()} on each poll of a wait on heap words, now parks instead
     * and stops progressing: a transport whose own thread stands aside while callers progress (UCX) takes over
     * at once rather than after its hand-off delay. Called once per wait, at its first park.
     */
    default void progressParks()
    {
    }

    /**
     * Finalize has passed its last barrier: from now on peers closing their connections is expected,
     * not a failure. Called on every PE before the bootstrap's final barrier.
     */
    default void quiesce()
    {
    }

    /** Releases every resource (threads, sockets, mappings). Idempotent. */
    @Override
    void close();
}
