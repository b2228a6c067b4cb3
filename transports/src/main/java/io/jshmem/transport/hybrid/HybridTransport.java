package io.jshmem.transport.hybrid;

import io.jshmem.AtomicOp;
import io.jshmem.SignalOp;
import io.jshmem.transport.ReachabilityMap;
import io.jshmem.transport.Transport;
import io.jshmem.transport.TransportContext;
import io.jshmem.transport.proxy.ProxyTransport;
import io.jshmem.transport.ucx.UcxTransport;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

/**
 * The proxy and UCX to the same peers, chosen per operation ({@code SHMEM_TRANSPORT=hybrid}): each carries what it
 * is faster at between hosts (docs/transports.md, "hybrid").
 * <ul>
 * <li>through the proxy: puts and put-with-signal carrying data (its batching), non-blocking gets, blocking gets
 * above {@link #UCX_GET_MAX} bytes, atomics that fetch nothing and non-blocking ones;</li>
 * <li>through UCX: blocking gets up to {@link #UCX_GET_MAX} and fetching atomics (a round trip each, which UCX's
 * worker makes with fewer hops than the two proxy threads), and signals without data (the collectives'
 * synchronisation) while the proxy has nothing unacknowledged of this context to the target. A quiet reaches UCX only
 * when such a signal was sent: what else UCX carries has completed when its call returns.</li>
 * </ul>
 * One atomicity domain: both apply remote atomics at the target with the CPU atomics p2p uses. Ordering across the
 * two, per context and target:
 * <ul>
 * <li>a blocking get or atomic through UCX first completes the context's proxy requests to the target
 * ({@link ProxyTransport#peQuiet}, nothing to wait for in the common case): a PE reads its own earlier puts, as it does
 * over either transport alone;</li>
 * <li>a signal without data goes through the proxy, behind them, while such requests are unacknowledged (a fence
 * orders the data before the signal; the proxy delivers in order);</li>
 * <li>UCX completes a signal (an active message) when it is sent, not when the target applied it; so before the
 * proxy carries a signal or an atomic to a target that signals went to through UCX, or anything at all after a fence
 * since such signals, a fetch through UCX on the same connection confirms they were applied: two signals to one word
 * arrive in the order they were sent, and a fence orders signals before what follows (UCX's own quiet and pe_quiet
 * confirm them the same way, so nothing is left to confirm after them);</li>
 * <li>{@link #fence}, {@link #quiet}, {@link #peQuiet} reach both.</li>
 * </ul>
 */
public final class HybridTransport implements Transport
{
    /** Blocking gets up to this many bytes go through UCX, larger ones through the proxy (its bandwidth). */
    public static final long UCX_GET_MAX = 16 << 10;

    private final ProxyTransport proxy;
    private final UcxTransport ucx;
    private final int n;
    /** Whether a waiting PE's polls serve the proxy's sockets too ({@code SHMEM_PROXY_WAIT_POLL}, resolved). */
    private final boolean proxyPolled;

    /**
     * @param proxy the proxy transport (not yet connected); this transport owns it.
     * @param ucx   the UCX transport (not yet connected); this transport owns it.
     * @param n     the job's PEs.
     */
    public HybridTransport(final ProxyTransport proxy, final UcxTransport ucx, final int n)
    {
        this.proxy = proxy;
        this.ucx = ucx;
        this.n = n;
        this.proxyPolled = proxy.capabilities().contains(Capability.PROGRESS_FROM_WAITS);
    }

    /**
     * A context: one of each, and per target whether signals went through UCX that the target may not have applied yet
     * (UCX completes an active message when its bytes leave, not when the target ran its handler).
     */
    private static final class Ctx implements TransportContext
    {
        final TransportContext proxy;
        final TransportContext ucx;
        /** Per target: 0, or 1 + {@link #fences} when the last unconfirmed signal went through UCX. */
        final int[] ucxSignal;
        /** Fences on this context so far. */
        int fences;
        /** A signal went through UCX since this context's last quiet (the rest UCX carries completes before it returns). */
        boolean ucxSent;

        Ctx(final TransportContext proxy, final TransportContext ucx, final int n)
        {
            this.proxy = proxy;
            this.ucx = ucx;
            this.ucxSignal = new int[n];
        }

        @Override
        public void close()
        {
            proxy.close();
            ucx.close();
        }
    }

    /**
     * Before the proxy carries something to {@code pe} that must not overtake signals sent through UCX (a signal, or
     * anything after a fence): a fetch through UCX on the same connection, which the target answers only after it
     * applied what came before it there.
     */
    private void afterUcxSignals(final Ctx c, final int pe, final boolean signal)
    {
        final int mark = c.ucxSignal[pe];
        if (mark != 0 && (signal || mark - 1 < c.fences))
        {
            ucx.confirmApplied(c.ucx, pe);
            c.ucxSignal[pe] = 0;
        }
    }

    @Override
    public String name()
    {
        return HybridProvider.NAME;
    }

    @Override
    public byte id()
    {
        return ReachabilityMap.HYBRID;
    }

    @Override
    public String info()
    {
        return "proxy: " + proxy.info() + "; ucx: " + ucx.info();
    }

    @Override
    public Set<Capability> capabilities()
    {
        final Set<Capability> both = EnumSet.noneOf(Capability.class);
        both.addAll(proxy.capabilities());
        both.retainAll(ucx.capabilities());
        if (proxy.capabilities().contains(Capability.THREAD_SENDS))
        {
            both.add(Capability.THREAD_SENDS); // its puts go through the proxy thread
        }
        if (ucx.capabilities().contains(Capability.PROGRESS_FROM_WAITS))
        {
            both.add(Capability.PROGRESS_FROM_WAITS); // UCX's worker at least (see progress)
        }
        return both;
    }

    @Override
    public byte[] endpoint()
    {
        final byte[] p = proxy.endpoint();
        final byte[] u = ucx.endpoint();
        return ByteBuffer.allocate(4 + p.length + u.length).putInt(p.length).put(p).put(u).array();
    }

    @Override
    public boolean canReach(final int pe)
    {
        return proxy.canReach(pe) && ucx.canReach(pe);
    }

    @Override
    public void connect(final ReachabilityMap map, final byte[][] endpoints)
    {
        final byte[][] p = new byte[endpoints.length][];
        final byte[][] u = new byte[endpoints.length][];
        for (int pe = 0; pe < endpoints.length; pe++)
        {
            final byte[] e = endpoints[pe];
            if (e != null && e.length >= 4)
            {
                final ByteBuffer b = ByteBuffer.wrap(e);
                final int proxyBytes = b.getInt();
                if (proxyBytes >= 0 && proxyBytes <= e.length - 4)
                {
                    p[pe] = java.util.Arrays.copyOfRange(e, 4, 4 + proxyBytes);
                    u[pe] = java.util.Arrays.copyOfRange(e, 4 + proxyBytes, e.length);
                }
            }
        }
        proxy.connect(map.replacing(ReachabilityMap.HYBRID, ReachabilityMap.PROXY), p);
        ucx.connect(map.replacing(ReachabilityMap.HYBRID, ReachabilityMap.UCX), u);
    }

    @Override
    public TransportContext createContext()
    {
        return new Ctx(proxy.createContext(), ucx.createContext(), n);
    }

    @Override
    public TransportContext createCollectiveContext()
    {
        return new Ctx(proxy.createCollectiveContext(), ucx.createCollectiveContext(), n);
    }

    @Override
    public void put(final TransportContext ctx, final int pe, final long offset, final MemorySegment src, final boolean nbi)
    {
        final Ctx c = (Ctx)ctx;
        afterUcxSignals(c, pe, false);
        proxy.put(c.proxy, pe, offset, src, nbi);
    }

    @Override
    public void get(final TransportContext ctx, final int pe, final long offset, final MemorySegment dst, final boolean nbi)
    {
        final Ctx c = (Ctx)ctx;
        if (nbi || dst.byteSize() > UCX_GET_MAX)
        {
            afterUcxSignals(c, pe, false);
            proxy.get(c.proxy, pe, offset, dst, nbi);
            return;
        }
        proxy.peQuiet(c.proxy, pe); // this PE's puts to pe land before its read
        ucx.get(c.ucx, pe, offset, dst, false);
    }

    @Override
    public void putSignal(final TransportContext ctx, final int pe, final long offset, final MemorySegment src, final long sigOffset,
        final long signal, final SignalOp op, final boolean nbi)
    {
        final Ctx c = (Ctx)ctx;
        if ((src == null || src.byteSize() == 0) && !proxy.outstanding(c.proxy, pe))
        {
            ucx.putSignal(c.ucx, pe, offset, src, sigOffset, signal, op, nbi);
            c.ucxSignal[pe] = 1 + c.fences;
            c.ucxSent = true;
            return;
        }
        afterUcxSignals(c, pe, true); // an earlier signal to pe, maybe to the same word, lands first
        proxy.putSignal(c.proxy, pe, offset, src, sigOffset, signal, op, nbi);
    }

    @Override
    public long amo(final TransportContext ctx, final int pe, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond)
    {
        final Ctx c = (Ctx)ctx;
        if (!op.fetches())
        {
            afterUcxSignals(c, pe, true);
            return proxy.amo(c.proxy, pe, op, bytes, offset, value, cond); // nothing to wait for: the proxy posts it
        }
        proxy.peQuiet(c.proxy, pe); // this PE's puts and atomics to pe land before its atomic
        return ucx.amo(c.ucx, pe, op, bytes, offset, value, cond);
    }

    @Override
    public void amoNbi(final TransportContext ctx, final int pe, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond, final MemorySegment fetch)
    {
        final Ctx c = (Ctx)ctx;
        afterUcxSignals(c, pe, true); // an atomic on a word an earlier signal set lands after it
        proxy.amoNbi(c.proxy, pe, op, bytes, offset, value, cond, fetch);
    }

    @Override
    public void fence(final TransportContext ctx)
    {
        final Ctx c = (Ctx)ctx;
        proxy.fence(c.proxy);
        if (c.ucxSent)
        {
            ucx.fence(c.ucx);
        }
        c.fences++; // what the proxy carries to a target from now on waits for UCX's signals before the fence to land
    }

    @Override
    public void quiet(final TransportContext ctx)
    {
        final Ctx c = (Ctx)ctx;
        proxy.quiet(c.proxy);
        if (c.ucxSent)
        {
            ucx.quiet(c.ucx); // else UCX carried only operations that completed before they returned
            c.ucxSent = false;
            java.util.Arrays.fill(c.ucxSignal, 0); // UCX's quiet confirmed that its signals were applied
        }
        c.fences++; // quiet orders as a fence does
    }

    @Override
    public void quietAll(final boolean collectives)
    {
        proxy.quietAll(collectives);
        ucx.quietAll(collectives);
    }

    @Override
    public void peQuiet(final TransportContext ctx, final int pe)
    {
        final Ctx c = (Ctx)ctx;
        proxy.peQuiet(c.proxy, pe);
        ucx.peQuiet(c.ucx, pe); // completes UCX's signals to pe at pe, not just sent
        if (pe >= 0 && pe < n)
        {
            c.ucxSignal[pe] = 0;
        }
    }

    /**
     * A waiting PE's poll: UCX's worker, and the proxy's sockets where its waits serve the proxy
     * ({@code SHMEM_PROXY_WAIT_POLL}); otherwise the proxy's thread alone serves them.
     */
    @Override
    public void progress()
    {
        if (proxyPolled)
        {
            proxy.progress();
        }
        ucx.progress();
    }

    @Override
    public void progressParks()
    {
        if (proxyPolled)
        {
            proxy.progressParks();
        }
        ucx.progressParks();
    }

    /**
     * Flushes UCX's worker first: UCX carries little here, so a peer's last operations may have only just connected to
     * this PE, and destroying a worker while its wire-up reply is still queued aborts the process (UCX 1.13's
     * {@code ucp_request_send_state_ff} assertion, seen in this transport's contract test).
     */
    @Override
    public void quiesce()
    {
        ucx.quietAll(true);
        proxy.quiesce();
        ucx.quiesce();
    }

    @Override
    public void close()
    {
        try
        {
            ucx.close();
        }
        finally
        {
            proxy.close();
        }
    }
}
