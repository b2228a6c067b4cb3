package io.jshmem.transport.ucx;

import io.jshmem.AtomicOp;
import io.jshmem.JobFailedException;
import io.jshmem.ShmemException;
import io.jshmem.ShmemInitException;
import io.jshmem.SignalOp;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.transport.HeapAtomics;
import io.jshmem.transport.ReachabilityMap;
import io.jshmem.transport.Transport;
import io.jshmem.transport.TransportContext;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The UCX transport ({@code ucx} in {@code SHMEM_TRANSPORT}): one-sided operations through libucp, bound
 * with {@code java.lang.foreign} ({@link Ucp}). Each PE has one UCP context and one worker ({@link UcxWorker}) in
 * multi-thread mode; its heap's data segment (the {@code /dev/shm} mapping) is registered with
 * {@code ucp_mem_map} and its rkey, the worker's address and the heap's base address are the endpoint the
 * runtime allgathers. {@link #connect} only records them: the endpoint to a peer (peer error handling) is
 * created, its rkey unpacked and its wire-up completed when this PE first addresses it, so a PE holds
 * endpoints, and UCX sockets, only to the peers it talks to ({@link #endpointCount()}).
 * <p>
 * Operations: API threads call UCX directly ({@code ucp_put_nbx}, {@code ucp_get_nbx},
 * {@code ucp_atomic_op_nbx}) and drive the worker's progress while they wait for their own request (one
 * {@code ucp_worker_progress} per poll, the wait strategy's or their own, as OSHMEM's spml ucx waits). Over
 * transports without hardware RMA (tcp, and shared memory into a user mapping), UCX applies a peer's puts
 * and atomics in the target's {@code ucp_worker_progress}: a progress thread per PE serves its peers while
 * the PE computes (passive progress), polling for {@code SHMEM_UCX_SPIN} after its last work, then
 * sleeping on the worker's event descriptor ({@code ucp_worker_get_efd}/{@code ucp_worker_arm}), so an idle
 * job costs nothing. While the PE itself calls UCX (operations, and waits that progress on every poll) the
 * thread stays parked, for {@code SHMEM_UCX_HANDOFF} after the last such call: a second thread in the worker
 * only contends for its lock and for the cores. UCX's atomic mode is set to {@code cpu}: every atomic that reaches this heap through
 * UCX is applied with a CPU atomic instruction (or a CPU-coherent device atomic), the mechanism the p2p
 * transport uses, so same-host and remote PEs updating one word stay in one atomicity domain.
 * <p>
 * Completion: {@link #quiet} flushes the worker ({@code ucp_worker_flush_nbx}), {@link #peQuiet} the one
 * endpoint, {@link #fence} is {@code ucp_worker_fence}. A non-native source or destination (a Java array)
 * is staged through this thread's native buffer and completes before the call returns, as do non-blocking
 * fetching atomics (both allowed by the SPI). A peer's endpoint that fails (its process died, its link
 * went down) fails the job naming that PE, through the bootstrap's failure report.
 */
public final class UcxTransport implements Transport
{
    /**
     * Settings of one PE's UCX transport.
     *
     * @param library          libucp to load.
     * @param spinNs           how long the progress thread polls after its last work.
     * @param handoffNs        how long after a caller's last use of the worker the progress thread takes over.
     * @param connectTimeoutNs the deadline of a peer's wire-up at first use (SHMEM_BOOTSTRAP_TIMEOUT).
     * @param log              where diagnostics go.
     * @param netDevices       UCX's {@code NET_DEVICES} for this worker, or null to leave UCX's own choice (its
     *                         {@code UCX_NET_DEVICES}, else every device).
     */
    public record Settings(String library, long spinNs, long handoffNs, long connectTimeoutNs, Consumer<String> log, String netDevices)
    {
        /** Settings that leave the network devices to UCX. */
        public Settings(final String library, final long spinNs, final long handoffNs, final long connectTimeoutNs, final Consumer<String> log)
        {
            this(library, spinNs, handoffNs, connectTimeoutNs, log, null);
        }
    }

    /** The active message that carries a signal update: header {offset, value, op}, no data. */
    private static final int SIGNAL_AM = 0x6a73;
    private static final long SIGNAL_HEADER = 24;
    private static final long STAGE_CHUNK = 4L << 20;
    /** How long a request may stay in progress before its wait reports it ({@link #reportStall}). */
    private static final long STALL_REPORT_NS = 10_000_000_000L;
    /** A request's wait reads the clock once per this many polls (a power of two). */
    private static final int STALL_POLLS = 4096;
    /** A wait with a deadline (a wire-up) reads the clock once per this many polls (a power of two). */
    private static final int DEADLINE_POLLS = 64;
    /** The longest pause between two attempts to create an endpoint. */
    private static final long MAX_RETRY_PAUSE_NS = 500_000_000L;

    private final Ucp u;
    private final Bootstrap bootstrap;
    private final MemorySegment heap;
    private final Settings settings;
    private final IntUnaryOperator idle;
    private final int me;
    private final int n;
    private final String prefix;
    private final UcxWorker w;
    private final Arena arena;
    private final MemorySegment worker;
    private final byte[] endpoint;
    private final MemorySegment sink;
    /**
     * What connect learnt about each PE reached through ucx (null otherwise); its monitor guards the PE's wire-up. Written
     * by connect, during init, which happens-before every operation of the PE's threads.
     */
    private final Remote[] remotes;
    /** Each PE's wired-up endpoint and unpacked rkey, published once (release) after its wire-up completed. */
    private final AtomicReferenceArray<Peer> peers;
    /** Every endpoint created (written under the PE's {@link Remote} monitor; close closes them). */
    private final MemorySegment[] eps;
    /** Every rkey unpacked (as {@link #eps}). */
    private final MemorySegment[] rkeys;
    private final AtomicInteger endpointCount = new AtomicInteger();
    private final AtomicIntegerArray lost;
    private final AtomicIntegerArray reported;
    private final ThreadLocal<Scratch> scratch;
    /** The live contexts (quietAll confirms their signals). */
    private final Set<UcxContext> contexts = ConcurrentHashMap.newKeySet();
    private final AtomicLong signalConfirmations = new AtomicLong();
    private volatile boolean closed;
    private volatile boolean quiescing;

    /** Per-thread native memory for request parameters, operands and staging. */
    private final class Scratch
    {
        final MemorySegment param = arena.allocate(Ucp.REQUEST_PARAM_SIZE, 8);
        final MemorySegment operand = arena.allocate(8, 8);
        final MemorySegment reply = arena.allocate(8, 8);
        final MemorySegment out = arena.allocate(8, 8);
        final MemorySegment header = arena.allocate(SIGNAL_HEADER, 8);
        /** PEs this thread put to or updated through UCX's RMA/AMO path since its last quiet (ordering for signals). */
        final boolean[] dirty = new boolean[n];
        /** Whether this thread sent a signal as an active message since its last quiet (a fence must then flush). */
        boolean amSent;
        /** Staging for Java-array sources and destinations, made on first use (most threads never need it). */
        MemorySegment stage;

        MemorySegment stage(final long size)
        {
            if (stage == null || stage.byteSize() < size)
            {
                stage = arena.allocate(Math.max(size, stage == null ? 64 << 10 : stage.byteSize() * 2), 64);
            }
            return stage.asSlice(0, size);
        }
    }

    /** A PE's entry in the allgathered endpoints: its heap's base address, its worker's address and its packed rkey. */
    private record Remote(long base, byte[] address, byte[] rkey)
    {
    }

    /** A wired-up peer: the endpoint, the rkey unpacked on it, the base address of its heap. */
    private record Peer(MemorySegment ep, MemorySegment rkey, long base)
    {
    }

    /**
     * A context. UCX completes by worker and endpoint; what a context keeps is the targets of the signals it sent as active
     * messages since its last quiet, which a flush completes only locally (UCX's flush covers RMA and atomics): its quiet
     * confirms them ({@link #confirmSignals}).
     */
    private final class UcxContext implements TransportContext
    {
        /** A context of the collectives ({@link #createCollectiveContext()}): barrier_all's quiet leaves it alone. */
        final boolean collective;
        /** Bit {@code pe}: a signal went to pe as an active message since this context's last quiet (any thread's). */
        final AtomicLongArray amTargets = new AtomicLongArray((n + 63) >>> 6);

        UcxContext(final boolean collective)
        {
            this.collective = collective;
        }

        void signalled(final int pe)
        {
            final long bit = 1L << (pe & 63);
            if ((amTargets.get(pe >>> 6) & bit) == 0)
            {
                amTargets.getAndAccumulate(pe >>> 6, bit, (a, b) -> a | b);
            }
        }

        /** @return whether pe was marked (the mark is cleared). */
        boolean takeSignalled(final int pe)
        {
            final long bit = 1L << (pe & 63);
            return (amTargets.get(pe >>> 6) & bit) != 0 && (amTargets.getAndAccumulate(pe >>> 6, ~bit, (a, b) -> a & b) & bit) != 0;
        }

        @Override
        public void close()
        {
            contexts.remove(this);
        }
    }

    /**
     * Initialises UCX for this PE: context, worker, the heap's registration, and the progress thread. Not
     * collective.
     *
     * @param bootstrap the job's bootstrap (failure reporting).
     * @param heap      this PE's heap data segment (registered for remote access).
     * @param settings  the options.
     * @param idle      the caller's wait strategy (throws when the job has failed).
     * @throws IllegalStateException when libucp cannot be loaded (the message names the library and package).
     * @throws ShmemInitException    when UCX refuses to initialise.
     */
    public UcxTransport(final Bootstrap bootstrap, final MemorySegment heap, final Settings settings, final IntUnaryOperator idle)
    {
        this.u = Ucp.load(settings.library());
        this.bootstrap = bootstrap;
        this.heap = heap;
        this.settings = settings;
        this.idle = idle;
        this.me = bootstrap.rank();
        this.n = bootstrap.size();
        this.prefix = ShmemException.pePrefix(me, n);
        this.remotes = new Remote[n];
        this.peers = new AtomicReferenceArray<>(n);
        this.eps = new MemorySegment[n];
        this.rkeys = new MemorySegment[n];
        this.lost = new AtomicIntegerArray(n);
        this.reported = new AtomicIntegerArray(n);
        try
        {
            final java.lang.invoke.MethodHandles.Lookup lookup = java.lang.invoke.MethodHandles.lookup();
            this.w = new UcxWorker(u, heap, prefix, me, settings.spinNs(), settings.handoffNs(), settings.netDevices(), SIGNAL_AM,
                lookup.findVirtual(UcxTransport.class, "onEndpointError", Ucp.errorHandlerType()).bindTo(this),
                lookup.findVirtual(UcxTransport.class, "onSignal", Ucp.amHandlerType()).bindTo(this),
                t -> bootstrap.reportFailure(new JobFailedException(prefix + "the UCX progress thread failed: " + t, -1, t)));
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ShmemInitException(prefix + "ucx: " + ex, ex);
        }
        this.arena = w.arena();
        this.worker = w.worker();
        this.scratch = ThreadLocal.withInitial(Scratch::new);
        this.sink = arena.allocate(8, 8);
        this.endpoint = ByteBuffer.allocate(16 + w.address().length + w.rkey().length).order(ByteOrder.LITTLE_ENDIAN)
            .putLong(heap.address()).putInt(w.address().length).put(w.address()).putInt(w.rkey().length).put(w.rkey()).array();
    }

    @Override
    public String name()
    {
        return "ucx";
    }

    @Override
    public byte id()
    {
        return ReachabilityMap.UCX;
    }

    @Override
    public String info()
    {
        return "UCX " + u.version() + ", worker thread mode multi, atomic mode cpu, " +
            (settings.spinNs() > 0 ? "progress thread polls " + settings.spinNs() / 1000 + " us then sleeps" : "progress thread sleeps when idle") +
            tls();
    }

    private String tls()
    {
        final String tls = System.getenv("UCX_TLS");
        final String dev = System.getenv("UCX_NET_DEVICES");
        return (tls != null ? ", UCX_TLS=" + tls : "") + (dev != null ? ", UCX_NET_DEVICES=" + dev : "") +
            (settings.netDevices() != null ? ", network devices " + settings.netDevices() + " (the bootstrap's)" : "");
    }

    @Override
    public Set<Capability> capabilities()
    {
        return EnumSet.of(Capability.PASSIVE_PROGRESS, Capability.CPU_ATOMICS, Capability.PROGRESS_FROM_WAITS);
    }

    @Override
    public byte[] endpoint()
    {
        return endpoint.clone();
    }

    /** UCX reaches every other PE (tcp at least); a PE reaches itself by load/store. */
    @Override
    public boolean canReach(final int pe)
    {
        return pe != me && pe >= 0 && pe < n;
    }

    // ------------------------------------------------------------------ connect

    /**
     * Records every peer's endpoint data (heap base, worker address, rkey) for the PEs the map gives this transport;
     * creates no endpoint. A PE's endpoint is made, its rkey unpacked and its wire-up completed when this PE first
     * addresses it ({@link #peer}): a PE holds endpoints (and UCX's sockets) only to the peers it talks to, and a job
     * does not open N&times;(N-1) connections at once at start-up (at 512 PEs one of them failed, and UCX 1.13.1
     * asserts when a peer fails while wire-ups to it are pending; docs/transports.md).
     */
    @Override
    public void connect(final ReachabilityMap map, final byte[][] endpoints)
    {
        for (int pe = 0; pe < n; pe++)
        {
            if (pe == me || map.transport(me, pe) != ReachabilityMap.UCX)
            {
                continue;
            }
            try
            {
                final ByteBuffer b = ByteBuffer.wrap(endpoints[pe]).order(ByteOrder.LITTLE_ENDIAN);
                final long base = b.getLong();
                final byte[] address = new byte[b.getInt()];
                b.get(address);
                final byte[] rkey = new byte[b.getInt()];
                b.get(rkey);
                remotes[pe] = new Remote(base, address, rkey);
            }
            catch (final RuntimeException ex)
            {
                throw new ShmemInitException(prefix + "ucx: the endpoint pe " + pe + " published is malformed (" +
                    endpoints[pe].length + " bytes): " + ex, ex);
            }
        }
        w.callerParks(); // the progress thread serves peers from now on
    }

    /**
     * @return how many UCX endpoints this PE has created: one per peer it has addressed through ucx (a diagnostic;
     *         UCX's own internal endpoints, made when peers address this PE, are not counted).
     */
    public int endpointCount()
    {
        return endpointCount.get();
    }

    /**
     * The peer's endpoint, made on first use. Thread-safe: the first thread to address {@code pe} wires it up under
     * its {@link Remote}'s monitor (others addressing it meanwhile wait there), publishes it with a release store,
     * and later callers read it with one acquire load.
     */
    private Peer peer(final int pe)
    {
        w.callerActive();
        Peer p = pe >= 0 && pe < n ? peers.getAcquire(pe) : null;
        if (p == null)
        {
            p = wireUp(pe);
        }
        if (lost.get(pe) != 0)
        {
            throw lostPe(pe, "its UCX endpoint failed");
        }
        return p;
    }

    private Peer wireUp(final int pe)
    {
        final Remote r = pe >= 0 && pe < n ? remotes[pe] : null;
        if (r == null)
        {
            throw new IllegalArgumentException(prefix + "ucx: pe " + pe + " is not reached through ucx (job of " + n + " PEs)");
        }
        synchronized (r)
        {
            final Peer done = peers.get(pe);
            if (done != null)
            {
                return done;
            }
            if (lost.get(pe) != 0)
            {
                throw lostPe(pe, "its UCX endpoint failed");
            }
            if (closed)
            {
                throw new ShmemException(prefix + "ucx: pe " + pe + " addressed after this PE's transport closed");
            }
            final long deadline = System.nanoTime() + settings.connectTimeoutNs();
            // an earlier wire-up that a job failure interrupted left its endpoint (close closes it): finish that one
            if (rkeys[pe] == null)
            {
                makeEndpoint(pe, r, deadline);
            }
            // complete the wire-up before the first operation: an unreachable peer fails here, named, within the
            // deadline, and no operation is posted on an endpoint whose wire-up messages are still pending
            final Scratch s = scratch.get();
            s.param.fill((byte)0);
            awaitUntil(call(u.epFlushNbx, eps[pe], s.param), pe, "connecting to", deadline);
            final Peer p = new Peer(eps[pe], rkeys[pe], r.base());
            peers.setRelease(pe, p);
            return p;
        }
    }

    /** Creates the endpoint to {@code pe} (unless an earlier attempt did) and unpacks its rkey. Under {@code r}'s monitor. */
    private void makeEndpoint(final int pe, final Remote r, final long deadline)
    {
        try (Arena tmp = Arena.ofConfined())
        {
            final MemorySegment out = tmp.allocate(8, 8);
            final MemorySegment ep = tmp.allocate(Ucp.EP_PARAMS_SIZE, 8);
            ep.set(JAVA_LONG, 0, Ucp.EP_PARAM_FIELD_REMOTE_ADDRESS | Ucp.EP_PARAM_FIELD_ERR_HANDLING_MODE | Ucp.EP_PARAM_FIELD_ERR_HANDLER);
            ep.set(ADDRESS, Ucp.EP_PARAMS_ADDRESS, tmp.allocateFrom(ValueLayout.JAVA_BYTE, r.address()));
            ep.set(JAVA_INT, Ucp.EP_PARAMS_ERR_MODE, Ucp.ERR_HANDLING_MODE_PEER);
            ep.set(ADDRESS, Ucp.EP_PARAMS_ERR_HANDLER, w.errorHandler());
            ep.set(ADDRESS, Ucp.EP_PARAMS_ERR_HANDLER + 8, MemorySegment.ofAddress(pe));
            if (eps[pe] == null)
            {
                createEndpoint(pe, ep, out, deadline);
                eps[pe] = out.get(ADDRESS, 0);
                endpointCount.incrementAndGet();
            }
            final int unpacked = (int)u.epRkeyUnpack.invokeExact(eps[pe], tmp.allocateFrom(ValueLayout.JAVA_BYTE, r.rkey()), out);
            if (unpacked != Ucp.UCS_OK)
            {
                throw unreachable(pe, "cannot unpack the rkey of pe " + pe + ": " + u.status(unpacked));
            }
            rkeys[pe] = out.get(ADDRESS, 0);
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw failed(pe, "connecting to", t);
        }
    }

    /**
     * {@code ucp_ep_create}, retried with a growing pause (1 ms to {@link #MAX_RETRY_PAUSE_NS}) until the deadline while it
     * fails and the job stands: a loaded host's neighbour table can fail a connect at once ("No route to host" while an
     * ARP lookup failed; one of 512 &times; 511 connections did at init), which is no reason to end a job. A peer that is
     * really gone fails at the deadline, named, or at once when the bootstrap reports the job failed.
     */
    private void createEndpoint(final int pe, final MemorySegment params, final MemorySegment out, final long deadline) throws Throwable
    {
        long pauseNs = 1_000_000L;
        for (int attempt = 1; ; attempt++)
        {
            final int status = (int)u.epCreate.invokeExact(worker, params, out);
            if (status == Ucp.UCS_OK)
            {
                return;
            }
            final JobFailedException f = bootstrap.failure();
            if (f != null)
            {
                throw new JobFailedException(prefix + "ucx: connecting to pe " + pe + " abandoned: " + f.getMessage(), f.lostPe(), f);
            }
            if (System.nanoTime() + pauseNs - deadline > 0)
            {
                throw unreachable(pe, "cannot create an endpoint to pe " + pe + ": " + u.status(status) + " (" + attempt +
                    " attempts within " + settings.connectTimeoutNs() / 1_000_000 + " ms, SHMEM_BOOTSTRAP_TIMEOUT)");
            }
            if (attempt == 1)
            {
                settings.log().accept(prefix + "ucx: cannot create an endpoint to pe " + pe + " yet: " + u.status(status) +
                    "; retrying until SHMEM_BOOTSTRAP_TIMEOUT");
            }
            LockSupport.parkNanos(pauseNs);
            pauseNs = Math.min(pauseNs * 2, MAX_RETRY_PAUSE_NS);
        }
    }

    /** An endpoint that cannot be made: the peer is marked lost (the job fails, naming it) and the caller gets why. */
    private JobFailedException unreachable(final int pe, final String why)
    {
        markLost(pe, why);
        return lostPe(pe, "ucx: " + why);
    }

    // ------------------------------------------------------------------ contexts

    @Override
    public TransportContext createContext()
    {
        return newContext(false);
    }

    @Override
    public TransportContext createCollectiveContext()
    {
        return newContext(true);
    }

    private UcxContext newContext(final boolean collective)
    {
        final UcxContext c = new UcxContext(collective);
        contexts.add(c);
        return c;
    }

    // ------------------------------------------------------------------ RMA

    @Override
    public void put(final TransportContext ctx, final int pe, final long offset, final MemorySegment src, final boolean nbi)
    {
        final Peer ep = peer(pe);
        final Scratch s = scratch.get();
        if (src.isNative())
        {
            putFrom(s, ep, pe, offset, src, nbi);
            return;
        }
        for (long done = 0; done < src.byteSize(); done += STAGE_CHUNK)
        {
            final long len = Math.min(STAGE_CHUNK, src.byteSize() - done);
            final MemorySegment stage = s.stage(len);
            MemorySegment.copy(src, done, stage, 0, len);
            putFrom(s, ep, pe, offset + done, stage, false);
        }
    }

    private void putFrom(final Scratch s, final Peer ep, final int pe, final long offset, final MemorySegment src, final boolean nbi)
    {
        final MemorySegment p = s.param;
        p.set(JAVA_INT, 0, nbi ? 0 : Ucp.OP_ATTR_FLAG_FAST_CMPL);
        final MemorySegment req = rma(u.putNbx, ep.ep(), src, src.byteSize(), ep.base() + offset, ep.rkey(), p);
        s.dirty[pe] = true;
        complete(req, pe, "put to", nbi);
    }

    @Override
    public void get(final TransportContext ctx, final int pe, final long offset, final MemorySegment dst, final boolean nbi)
    {
        final Peer ep = peer(pe);
        final Scratch s = scratch.get();
        if (dst.isNative())
        {
            s.param.set(JAVA_INT, 0, nbi ? 0 : Ucp.OP_ATTR_FLAG_FAST_CMPL);
            complete(rma(u.getNbx, ep.ep(), dst, dst.byteSize(), ep.base() + offset, ep.rkey(), s.param), pe, "get from", nbi);
            return;
        }
        for (long done = 0; done < dst.byteSize(); done += STAGE_CHUNK)
        {
            final long len = Math.min(STAGE_CHUNK, dst.byteSize() - done);
            final MemorySegment stage = s.stage(len);
            s.param.set(JAVA_INT, 0, Ucp.OP_ATTR_FLAG_FAST_CMPL);
            complete(rma(u.getNbx, ep.ep(), stage, len, ep.base() + offset + done, ep.rkey(), s.param), pe, "get from", false);
            MemorySegment.copy(stage, 0, dst, done, len);
        }
    }

    @Override
    public void putSignal(final TransportContext ctx, final int pe, final long offset, final MemorySegment src, final long sigOffset,
        final long signal, final SignalOp op, final boolean nbi)
    {
        if (src != null && src.byteSize() > 0)
        {
            put(ctx, pe, offset, src, nbi);
            fence(ctx); // the data before the signal
        }
        final Scratch s = scratch.get();
        if (s.dirty[pe])
        {
            // puts or atomics of this thread to pe may be in flight: UCX orders the signal after them (the fence
            // above, or the caller's) only on its RMA/AMO path
            amo(ctx, pe, op == SignalOp.ADD ? AtomicOp.ADD : AtomicOp.SET, 8, sigOffset, signal, 0);
            return;
        }
        // nothing of ours in flight to pe: one active message, applied by pe's handler with a CPU atomic
        // (UCX's software RMA over tcp costs a second message; measured in docs/transports.md)
        final MemorySegment ep = peer(pe).ep();
        final MemorySegment h = s.header;
        h.set(JAVA_LONG, 0, sigOffset);
        h.set(JAVA_LONG, 8, signal);
        h.set(JAVA_LONG, 16, op.ordinal());
        s.param.set(JAVA_INT, 0, 0);
        final MemorySegment req;
        try
        {
            req = (MemorySegment)u.amSendNbx.invokeExact(ep, SIGNAL_AM, h, SIGNAL_HEADER, MemorySegment.NULL, 0L, s.param);
        }
        catch (final Throwable t)
        {
            throw failed(pe, "signal to", t);
        }
        s.amSent = true;
        ((UcxContext)ctx).signalled(pe); // its quiet confirms that pe applied it
        complete(req, pe, "signal to", false); // the header is this thread's: reusable once UCX has it
    }

    /**
     * Upcall from UCX (in whichever thread progressed the worker): a peer's signal. Applies it with the CPU atomic
     * p2p peers use on the same word. Never throws.
     */
    @SuppressWarnings("unused")
    private int onSignal(final MemorySegment arg, final MemorySegment header, final long headerLength, final MemorySegment data,
        final long length, final MemorySegment param)
    {
        try
        {
            if (headerLength == SIGNAL_HEADER)
            {
                final MemorySegment h = header.reinterpret(SIGNAL_HEADER);
                final long offset = h.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
                final long value = h.get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
                final long op = h.get(ValueLayout.JAVA_LONG_UNALIGNED, 16);
                if (offset >= 0 && offset <= heap.byteSize() - 8 && (offset & 7) == 0 && op >= 0 && op < SIGNAL_OPS.length)
                {
                    HeapAtomics.signal(heap, offset, value, SIGNAL_OPS[(int)op]);
                    return Ucp.UCS_OK;
                }
            }
            settings.log().accept(prefix + "ucx: dropped a malformed signal message (" + headerLength + "-byte header)");
        }
        catch (final Throwable t)
        {
            // an upcall must not throw
        }
        return Ucp.UCS_OK;
    }

    private static final SignalOp[] SIGNAL_OPS = SignalOp.values();

    // ------------------------------------------------------------------ atomics

    @Override
    public long amo(final TransportContext ctx, final int pe, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond)
    {
        final Peer peer = peer(pe);
        final Scratch s = scratch.get();
        final MemorySegment p = s.param;
        final boolean four = bytes == 4;
        final long remote = peer.base() + offset;
        final int opcode = switch (op)
        {
            case FETCH, FETCH_INC, INC, FETCH_ADD, ADD -> Ucp.ATOMIC_OP_ADD;
            case SET, SWAP -> Ucp.ATOMIC_OP_SWAP;
            case COMPARE_SWAP -> Ucp.ATOMIC_OP_CSWAP;
            case FETCH_AND, AND -> Ucp.ATOMIC_OP_AND;
            case FETCH_OR, OR -> Ucp.ATOMIC_OP_OR;
            case FETCH_XOR, XOR -> Ucp.ATOMIC_OP_XOR;
        };
        final long operand = op == AtomicOp.FETCH ? 0 : op == AtomicOp.COMPARE_SWAP ? cond : value;
        final MemorySegment reply;
        if (op == AtomicOp.SET)
        {
            reply = sink; // a swap needs a reply buffer; nobody reads this one
        }
        else if (op.fetches())
        {
            reply = s.reply;
        }
        else
        {
            reply = null;
        }
        if (four)
        {
            s.operand.set(JAVA_INT, 0, (int)operand);
            if (reply != null)
            {
                reply.set(JAVA_INT, 0, (int)value); // CSWAP: the value swapped in
            }
        }
        else
        {
            s.operand.set(JAVA_LONG, 0, operand);
            if (reply != null)
            {
                reply.set(JAVA_LONG, 0, value);
            }
        }
        p.set(JAVA_INT, 0, Ucp.OP_ATTR_FIELD_DATATYPE | (reply != null ? Ucp.OP_ATTR_FIELD_REPLY_BUFFER : 0) |
            (op == AtomicOp.SET ? 0 : Ucp.OP_ATTR_FLAG_FAST_CMPL));
        p.set(JAVA_LONG, Ucp.REQUEST_PARAM_DATATYPE, Ucp.contig(bytes));
        p.set(ADDRESS, Ucp.REQUEST_PARAM_REPLY_BUFFER, reply != null ? reply : MemorySegment.NULL);
        final MemorySegment req;
        try
        {
            req = (MemorySegment)u.atomicOpNbx.invokeExact(peer.ep(), opcode, s.operand, 1L, remote, peer.rkey(), p);
        }
        catch (final Throwable t)
        {
            throw failed(pe, "atomic on", t);
        }
        if (op == AtomicOp.SET)
        {
            s.dirty[pe] = true;
            complete(req, pe, "atomic set on", true); // the sink stays valid; completion at quiet
            return 0;
        }
        if (reply == null)
        {
            s.dirty[pe] = true; // a posted atomic completes at the target later
        }
        // the operand (and reply) buffer is this thread's: the call completes before it is reused
        complete(req, pe, "atomic on", false);
        if (reply == null)
        {
            return 0;
        }
        return four ? reply.get(JAVA_INT, 0) : reply.get(JAVA_LONG, 0);
    }

    @Override
    public void amoNbi(final TransportContext ctx, final int pe, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond, final MemorySegment fetch)
    {
        final long old = amo(ctx, pe, op, bytes, offset, value, cond); // completes now, which the SPI allows
        if (fetch != null)
        {
            HeapAtomics.store(fetch, old);
        }
    }

    // ------------------------------------------------------------------ completion

    @Override
    public void fence(final TransportContext ctx)
    {
        w.callerActive();
        final Scratch s = scratch.get();
        if (s.amSent)
        {
            flushWorker(); // UCX's fence orders RMA and atomics, not active messages: complete the signals sent
            return;
        }
        try
        {
            final int status = (int)u.workerFence.invokeExact(worker);
            if (status != Ucp.UCS_OK)
            {
                throw new ShmemException(prefix + "ucx: ucp_worker_fence failed: " + u.status(status));
            }
        }
        catch (final ShmemException ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw failed(-1, "fence", t);
        }
    }

    @Override
    public void quiet(final TransportContext ctx)
    {
        flushWorker();
        confirmSignals((UcxContext)ctx);
    }

    @Override
    public void quietAll(final boolean collectives)
    {
        flushWorker(); // one worker: a flush completes every context's operations, the collectives' too
        for (final UcxContext c : contexts)
        {
            if (collectives || !c.collective)
            {
                confirmSignals(c);
            }
        }
    }

    /**
     * Completes at their targets the signals a context sent as active messages: UCX completes an active message when it
     * leaves (a flush covers RMA and atomics only), so a quiet would otherwise return before a target applied such a
     * signal, and a third PE told of the quiet could read the old value. One fetch of the target's first heap word on the
     * same endpoint per target: the target answers it after the messages that came before it on that connection.
     */
    private void confirmSignals(final UcxContext c)
    {
        for (int w = 0; w < c.amTargets.length(); w++)
        {
            long bits = c.amTargets.get(w) == 0 ? 0 : c.amTargets.getAndSet(w, 0);
            while (bits != 0)
            {
                final int pe = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                confirmSignal(c, pe);
            }
        }
    }

    private void confirmSignal(final UcxContext c, final int pe)
    {
        final long ignored = amo(c, pe, AtomicOp.FETCH, 8, 0, 0, 0);
        signalConfirmations.incrementAndGet();
    }

    /**
     * Completes at {@code pe} what this context sent it so far, signals sent as active messages included: one fetch on the
     * same endpoint, which pe answers after everything that came before it on that connection; the context's quiet then
     * has nothing left to confirm for pe. For a transport composed with this one that must order its own messages to pe
     * after them (the hybrid transport).
     */
    public void confirmApplied(final TransportContext ctx, final int pe)
    {
        final UcxContext c = (UcxContext)ctx;
        c.takeSignalled(pe);
        confirmSignal(c, pe);
    }

    /** @return how many round trips quiets made to confirm signals sent as active messages (tests). */
    public long signalConfirmations()
    {
        return signalConfirmations.get();
    }

    private void flushWorker()
    {
        if (endpointCount.get() == 0)
        {
            return; // nothing was sent: this thread's operations went through an endpoint it saw counted
        }
        w.callerActive();
        final Scratch s = scratch.get();
        s.param.set(JAVA_INT, 0, Ucp.OP_ATTR_FLAG_FAST_CMPL);
        complete(call(u.workerFlushNbx, worker, s.param), -1, "quiet of", false);
        java.util.Arrays.fill(s.dirty, false);
        s.amSent = false;
    }

    @Override
    public void peQuiet(final TransportContext ctx, final int pe)
    {
        final Peer p = pe >= 0 && pe < n ? peers.getAcquire(pe) : null;
        if (p != null) // no endpoint yet: nothing was sent to pe
        {
            w.callerActive();
            final Scratch s = scratch.get();
            s.param.set(JAVA_INT, 0, 0);
            complete(call(u.epFlushNbx, p.ep(), s.param), pe, "pe_quiet of", false);
            s.dirty[pe] = false;
            final UcxContext c = (UcxContext)ctx;
            if (c.takeSignalled(pe))
            {
                confirmSignal(c, pe);
            }
        }
    }

    /**
     * Progresses the worker from the calling thread (the runtime's waits on heap words call it on each poll);
     * while callers do, the progress thread stands aside.
     */
    @Override
    public void progress()
    {
        if (!closed)
        {
            w.callerProgress();
        }
    }

    /** A wait stops progressing the worker: the progress thread serves the peers from now on. */
    @Override
    public void progressParks()
    {
        if (!closed)
        {
            w.callerParks();
        }
    }

    // ------------------------------------------------------------------ requests

    private MemorySegment rma(final MethodHandle h, final MemorySegment ep, final MemorySegment buf, final long size, final long remote,
        final MemorySegment rkey, final MemorySegment param)
    {
        try
        {
            return (MemorySegment)h.invokeExact(ep, buf, size, remote, rkey, param);
        }
        catch (final Throwable t)
        {
            throw failed(-1, "rma", t);
        }
    }

    private MemorySegment call(final MethodHandle h, final MemorySegment target, final MemorySegment param)
    {
        try
        {
            return (MemorySegment)h.invokeExact(target, param);
        }
        catch (final Throwable t)
        {
            throw failed(-1, "flush", t);
        }
    }

    /**
     * Completes a {@code ucs_status_ptr_t}: NULL is done; an error fails; a request is waited for (driving the
     * worker's progress from this thread) or, when {@code release}, handed back to UCX to free on completion.
     */
    private void complete(final MemorySegment req, final int pe, final String what, final boolean release)
    {
        if (req.address() == 0)
        {
            return;
        }
        if (Ucp.isError(req))
        {
            throw opFailed(pe, what, Ucp.errorOf(req));
        }
        if (release)
        {
            free(req);
            return;
        }
        awaitUntil(req, pe, what, Long.MAX_VALUE);
    }

    private void awaitUntil(final MemorySegment req, final int pe, final String what, final long deadline)
    {
        if (req.address() == 0)
        {
            return;
        }
        if (Ucp.isError(req))
        {
            throw opFailed(pe, what, Ucp.errorOf(req));
        }
        int count = 0;
        int polls = 0;
        long stalledSince = 0;
        try
        {
            while (true)
            {
                final int status = (int)u.requestCheckStatus.invokeExact(req);
                if (status != Ucp.UCS_INPROGRESS)
                {
                    u.requestFree.invokeExact(req);
                    if (status != Ucp.UCS_OK)
                    {
                        throw opFailed(pe, what, status);
                    }
                    return;
                }
                if ((++polls & (STALL_POLLS - 1)) == 0 && stalledSince >= 0)
                {
                    final long now = System.nanoTime();
                    if (stalledSince == 0)
                    {
                        stalledSince = now;
                    }
                    else if (now - stalledSince > STALL_REPORT_NS)
                    {
                        reportStall(pe, what, now - stalledSince);
                        stalledSince = -1; // once per wait
                    }
                }
                if (deadline != Long.MAX_VALUE && (polls & (DEADLINE_POLLS - 1)) == 0 && System.nanoTime() > deadline)
                {
                    free(req); // handed back: UCX releases it when it ends; this thread never touches it again
                    throw unreachable(pe, what + " pe " + pe + " did not complete within " + settings.connectTimeoutNs() / 1_000_000 +
                        " ms (SHMEM_BOOTSTRAP_TIMEOUT; is it alive and reachable, UCX_TLS/UCX_NET_DEVICES the same on both hosts?)");
                }
                // one ucp_worker_progress per poll, as OSHMEM's wait loop: the wait strategy progresses the worker (through
                // progress()) in its spin and yield phases; in its park phase, or where the runtime gave it no progress
                // call, this thread progresses the worker itself
                final long progressed = w.callerProgressCount();
                count = idle.applyAsInt(count);
                if (w.callerProgressCount() == progressed)
                {
                    w.callerProgress();
                }
            }
        }
        catch (final RuntimeException | Error ex)
        {
            throw ex;
        }
        catch (final Throwable t)
        {
            throw failed(pe, what, t);
        }
    }

    /**
     * A request this thread waits for has been in progress for {@link #STALL_REPORT_NS}: says so, naming the operation and
     * the PE, and prints UCX's view of the worker and of the endpoint(s) concerned (every endpoint for a worker flush). The
     * wait goes on (a peer that died fails it through UCX's error handling); the report makes a stuck request visible
     * where a collective's timeout would only show the PEs in different collectives.
     */
    private void reportStall(final int pe, final String what, final long ns)
    {
        settings.log().accept(prefix + "ucx: " + what + (pe >= 0 ? " pe " + pe : " the worker") + " has not completed after " +
            ns / 1_000_000 + " ms (thread " + Thread.currentThread().getName() + "; still waiting); UCX's worker and endpoint" +
            (pe >= 0 ? "" : "s") + " follow");
        final java.util.List<MemorySegment> list = new java.util.ArrayList<>();
        for (int q = 0; q < n; q++)
        {
            final MemorySegment ep = eps[q];
            if (ep != null && (pe < 0 || q == pe))
            {
                list.add(ep);
            }
        }
        u.printInfo(worker, list.toArray(MemorySegment[]::new));
    }

    private void free(final MemorySegment req)
    {
        try
        {
            u.requestFree.invokeExact(req);
        }
        catch (final Throwable t)
        {
            throw failed(-1, "request free", t);
        }
    }

    private RuntimeException opFailed(final int pe, final String what, final int status)
    {
        final int victim = pe >= 0 ? pe : firstLost();
        if (victim >= 0 && (lost.get(victim) != 0 || pe >= 0))
        {
            markLost(victim, "its UCX endpoint failed: " + u.status(status));
            return lostPe(victim, what + " pe " + victim + " failed: " + u.status(status));
        }
        final JobFailedException f = bootstrap.failure();
        if (f != null)
        {
            return new JobFailedException(prefix + "ucx: " + what + " abandoned: " + f.getMessage(), f.lostPe(), f);
        }
        return new ShmemException(prefix + "ucx: " + what + (pe >= 0 ? " pe " + pe : " the worker") + " failed: " + u.status(status));
    }

    private RuntimeException failed(final int pe, final String what, final Throwable t)
    {
        if (t instanceof RuntimeException r)
        {
            return r;
        }
        return new ShmemException(prefix + "ucx: " + what + (pe >= 0 ? " pe " + pe : "") + " failed: " + t, t);
    }

    private JobFailedException lostPe(final int pe, final String why)
    {
        final JobFailedException f = bootstrap.failure();
        return new JobFailedException(prefix + "lost pe " + pe + ": " + why, pe, f);
    }

    private int firstLost()
    {
        for (int pe = 0; pe < n; pe++)
        {
            if (lost.get(pe) != 0)
            {
                return pe;
            }
        }
        return -1;
    }

    /** Upcall from UCX (in whichever thread progressed the worker): a peer's endpoint failed. Never throws. */
    @SuppressWarnings("unused")
    private void onEndpointError(final MemorySegment arg, final MemorySegment ep, final int status)
    {
        try
        {
            final int pe = (int)arg.address();
            if (pe >= 0 && pe < n)
            {
                markLost(pe, "its UCX endpoint failed: " + u.status(status));
            }
        }
        catch (final Throwable ignore)
        {
            // an upcall must not throw
        }
    }

    private void markLost(final int pe, final String why)
    {
        // the job's failure first: a thread that sees the PE lost then also sees the job failed
        if (reported.compareAndSet(pe, 0, 1) && !quiescing && !closed)
        {
            io.jshmem.jfr.Jfr.transportFailure(me, "ucx", "lost", pe, why);
            bootstrap.reportFailure(new JobFailedException(prefix + "lost pe " + pe + ": " + why, pe, null));
        }
        lost.set(pe, 1);
    }

    // ------------------------------------------------------------------ teardown

    @Override
    public void quiesce()
    {
        quiescing = true;
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        quiescing = true;
        w.stopProgressThread();
        closed = true;
        try
        {
            // endpoints first: a forced close completes (cancels) every request still on them, and only then may the
            // rkeys those requests point to be destroyed
            final MemorySegment p = arena.allocate(Ucp.REQUEST_PARAM_SIZE, 8);
            p.set(JAVA_INT, 0, Ucp.OP_ATTR_FIELD_FLAGS);
            p.set(JAVA_INT, Ucp.REQUEST_PARAM_FLAGS, (int)Ucp.EP_CLOSE_FLAG_FORCE);
            final long deadline = System.nanoTime() + 2_000_000_000L;
            for (int pe = 0; pe < n; pe++)
            {
                if (eps[pe] != null)
                {
                    final MemorySegment req = (MemorySegment)u.epCloseNbx.invokeExact(eps[pe], p);
                    if (req.address() != 0 && !Ucp.isError(req))
                    {
                        while ((int)u.requestCheckStatus.invokeExact(req) == Ucp.UCS_INPROGRESS && System.nanoTime() < deadline)
                        {
                            w.progressOnce();
                        }
                        u.requestFree.invokeExact(req);
                    }
                    eps[pe] = null;
                }
            }
            for (int pe = 0; pe < n; pe++)
            {
                if (rkeys[pe] != null)
                {
                    u.rkeyDestroy.invokeExact(rkeys[pe]);
                    rkeys[pe] = null;
                }
            }
        }
        catch (final Throwable t)
        {
            settings.log().accept(prefix + "ucx: teardown: " + t);
        }
        finally
        {
            w.close();
        }
    }
}
