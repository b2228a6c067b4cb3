package io.jshmem.transport.proxy;

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

import org.agrona.concurrent.AgentRunner;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;

/**
 * The IBRC-style CPU proxy transport: API threads write fixed-layout commands (target, context, and
 * the wire frame with its data) into an off-heap many-to-one {@link CommandRing}; one {@link ProxyAgent}
 * thread per PE drains it in batches onto one TCP connection per peer and serves the peers' requests
 * on this PE's heap, so a PE that computes and never calls jshmem still serves remote operations.
 * <p>
 * Completion: each context counts, per target, the requests it issued and the ones the target
 * acknowledged as applied; quiet waits until they meet. One ordered stream per target makes fence
 * free. Blocking gets and fetching atomics wait on a {@link Completions} slot the agent fills from the
 * reply. Flow control: at most {@code SHMEM_PROXY_WINDOW} bytes of requests and of the replies they
 * ask for are in flight to a peer. Failure: a closed or silent connection, or a corrupt stream, fails
 * the job through the bootstrap naming the lost PE; every wait on the proxy then throws.
 * <p>
 * Connections are made in {@link #connect}: each PE connects to the higher-ranked peers the map gives
 * the proxy and accepts the lower ones on its listener (authenticated with {@link Handshake}; strangers
 * are dropped); the listener is closed when every expected peer has connected.
 */
public final class ProxyTransport implements Transport
{
    /** Settings of the proxy, from the job's options. */
    public record Settings(long ringBytes, long window, int spins, int yields, long heartbeatNs, long peerTimeoutNs, long connectTimeoutNs,
        Consumer<String> log)
    {
    }

    private static final int KIND_COMMAND = 1;
    private static final int MAX_CONTEXTS = 1 << 16;

    private final Bootstrap bootstrap;
    private final MemorySegment heap;
    private final Settings settings;
    private final IntUnaryOperator idle;
    private final String prefix;
    private final int me;
    private final int n;
    private final ServerSocketChannel listener;
    private final CommandRing ring;
    private final Completions completions = new Completions(4096);
    private final PeerConnection[] peers;
    private final boolean[] reached;
    private int[] remotePes = new int[0];
    private volatile ProxyContext[] contexts = new ProxyContext[16];
    private final Object contextLock = new Object();
    private final AtomicInteger strangers = new AtomicInteger();
    private ProxyAgent agent;
    private AgentRunner runner;
    private volatile boolean quiescing;
    private volatile boolean closed;

    /**
     * Opens the listener (its address is the {@link #endpoint()}). Not collective.
     *
     * @param bootstrap the job's bootstrap (address, derived key, failure reporting).
     * @param heap      this PE's heap data region, which peers' requests act on.
     * @param settings  the options.
     * @param idle      the caller's wait strategy (throws when the job has failed).
     */
    public ProxyTransport(final Bootstrap bootstrap, final MemorySegment heap, final Settings settings, final IntUnaryOperator idle)
    {
        this.bootstrap = bootstrap;
        this.heap = heap;
        this.settings = settings;
        this.idle = idle;
        this.me = bootstrap.rank();
        this.n = bootstrap.size();
        this.prefix = ShmemException.pePrefix(me, n);
        this.peers = new PeerConnection[n];
        this.reached = new boolean[n];
        this.ring = new CommandRing(Long.highestOneBit(Math.max(1 << 16, settings.ringBytes())));
        if (settings.window() < 2L * (Frames.MAX_CHUNK + 64))
        {
            throw new ShmemInitException(prefix + "SHMEM_PROXY_WINDOW=" + settings.window() + " is below the minimum " +
                2L * (Frames.MAX_CHUNK + 64) + " bytes");
        }
        try
        {
            listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(bootstrap.address(), 0), 128);
        }
        catch (final IOException ex)
        {
            ring.close();
            throw new ShmemInitException(prefix + "proxy: cannot listen on " + bootstrap.address().getHostAddress() + ": " + ex, ex);
        }
    }

    @Override
    public String name()
    {
        return "proxy";
    }

    @Override
    public byte id()
    {
        return ReachabilityMap.PROXY;
    }

    @Override
    public Set<Capability> capabilities()
    {
        return EnumSet.of(Capability.PASSIVE_PROGRESS, Capability.ORDERED_PER_TARGET, Capability.CPU_ATOMICS);
    }

    int myPe()
    {
        return me;
    }

    @Override
    public byte[] endpoint()
    {
        try
        {
            final InetSocketAddress a = (InetSocketAddress)listener.getLocalAddress();
            final String host = a.getAddress().getHostAddress();
            return ((a.getAddress() instanceof java.net.Inet6Address ? "[" + host + "]" : host) + ":" + a.getPort())
                .getBytes(StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new ShmemInitException(prefix + "proxy: listener has no address: " + ex, ex);
        }
    }

    /** The proxy reaches every other PE (over TCP); a PE reaches itself by load/store. */
    @Override
    public boolean canReach(final int pe)
    {
        return pe != me && pe >= 0 && pe < n;
    }

    // ------------------------------------------------------------------ connect

    @Override
    public void connect(final ReachabilityMap map, final byte[][] endpoints)
    {
        final List<Integer> remote = new ArrayList<>();
        for (int pe = 0; pe < n; pe++)
        {
            if (pe != me && map.transport(me, pe) == ReachabilityMap.PROXY)
            {
                remote.add(pe);
                reached[pe] = true;
            }
        }
        remotePes = remote.stream().mapToInt(Integer::intValue).toArray();
        final byte[] key = bootstrap.deriveKey("proxy");
        final long deadline = System.nanoTime() + settings.connectTimeoutNs();
        final SocketChannel[] channels = new SocketChannel[n];
        final int lower = (int)remote.stream().filter(pe -> pe < me).count();
        final Throwable[] acceptFailure = new Throwable[1];
        final Thread acceptor = Thread.ofPlatform().daemon().name("jshmem-proxy-accept-pe" + me).start(() ->
        {
            try
            {
                accept(channels, lower, key, deadline);
            }
            catch (final Throwable t)
            {
                acceptFailure[0] = t;
            }
        });
        try
        {
            for (final int pe : remotePes)
            {
                if (pe > me)
                {
                    channels[pe] = dial(pe, new String(endpoints[pe], StandardCharsets.US_ASCII), key, deadline);
                }
            }
            acceptor.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000 + 1000));
            if (acceptor.isAlive() || acceptFailure[0] != null)
            {
                throw new ShmemInitException(prefix + "proxy: lower-ranked peers did not all connect" +
                    (acceptFailure[0] != null ? ": " + acceptFailure[0].getMessage() : " in time"), acceptFailure[0]);
            }
            closeQuietly(listener);
            start(channels);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new ShmemInitException(prefix + "proxy: interrupted while connecting", ex);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(listener);
            for (final SocketChannel ch : channels)
            {
                closeQuietly(ch);
            }
            throw ex;
        }
    }

    private SocketChannel dial(final int pe, final String endpoint, final byte[] key, final long deadline)
    {
        final int colon = endpoint.lastIndexOf(':');
        if (colon < 0)
        {
            throw new ShmemInitException(prefix + "proxy: pe " + pe + " published no proxy endpoint (is SHMEM_TRANSPORT the same on every PE?)");
        }
        final String host = endpoint.substring(0, colon).replace("[", "").replace("]", "");
        final int port = Integer.parseInt(endpoint.substring(colon + 1));
        IOException last = null;
        while (System.nanoTime() < deadline)
        {
            SocketChannel ch = null;
            try
            {
                ch = SocketChannel.open();
                ch.socket().connect(new InetSocketAddress(InetAddress.getByName(host), port),
                    (int)Math.max(1, Math.min(10_000, (deadline - System.nanoTime()) / 1_000_000)));
                Handshake.client(ch, key, me, pe, Math.min(deadline, System.nanoTime() + 30_000_000_000L));
                return ch;
            }
            catch (final IOException ex)
            {
                closeQuietly(ch);
                last = ex;
                if (ex instanceof java.net.ProtocolException)
                {
                    break;
                }
                try
                {
                    Thread.sleep(20);
                }
                catch (final InterruptedException ie)
                {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new ShmemInitException(prefix + "proxy: cannot connect to pe " + pe + " at " + endpoint + ": " + last, last);
    }

    private void accept(final SocketChannel[] channels, final int expected, final byte[] key, final long deadline) throws IOException
    {
        int accepted = 0;
        listener.configureBlocking(false);
        try (Selector sel = Selector.open())
        {
            listener.register(sel, SelectionKey.OP_ACCEPT);
            while (accepted < expected)
            {
                final long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0)
                {
                    throw new java.net.SocketTimeoutException(accepted + " of " + expected + " lower-ranked peers connected by the deadline");
                }
                sel.select(Math.min(left, 1000));
                sel.selectedKeys().clear();
                SocketChannel ch;
                while ((ch = listener.accept()) != null)
                {
                    ch.configureBlocking(true);
                    try
                    {
                        final int rank = Handshake.server(ch, key, me,
                            r -> r >= 0 && r < me && reached[r] && channels[r] == null,
                            Math.min(deadline, System.nanoTime() + settings.peerTimeoutNs()));
                        channels[rank] = ch;
                        accepted++;
                    }
                    catch (final IOException ex)
                    {
                        stranger(ch, ex);
                    }
                }
            }
        }
    }

    private void stranger(final SocketChannel ch, final IOException why)
    {
        String from = "?";
        try
        {
            from = String.valueOf(ch.getRemoteAddress());
        }
        catch (final IOException ignore)
        {
            // already closed
        }
        closeQuietly(ch);
        io.jshmem.jfr.TransportEvent.failure(me, "proxy", "stranger dropped", -1, from + ": " + why.getMessage()); // JFR's jshmem.Transport
        final int count = strangers.incrementAndGet();
        if (count <= 5)
        {
            settings.log().accept(prefix + "proxy: dropped a connection from " + from + ": " + why.getMessage() +
                (count == 5 ? " (further drops are counted, not logged)" : ""));
        }
    }

    /** @return connections the listener dropped (failed handshakes). */
    public int droppedConnections()
    {
        return strangers.get();
    }

    private void start(final SocketChannel[] channels)
    {
        try
        {
            final Selector selector = Selector.open();
            final long now = System.nanoTime();
            for (final int pe : remotePes)
            {
                final SocketChannel ch = channels[pe];
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
                ch.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
                final PeerConnection c = new PeerConnection(pe, ch, now);
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                peers[pe] = c;
            }
            agent = new ProxyAgent(this, ring, completions, heap, selector, peers, settings.window(), settings.heartbeatNs(),
                settings.peerTimeoutNs());
            runner = new AgentRunner(new ProxyAgent.Idle(agent, settings.spins(), settings.yields()), this::agentError, null, agent);
            AgentRunner.startOnThread(runner, r -> Thread.ofPlatform().daemon().name(agent.roleName()).unstarted(r));
        }
        catch (final IOException ex)
        {
            throw new ShmemInitException(prefix + "proxy: cannot start: " + ex, ex);
        }
    }

    private void agentError(final Throwable t)
    {
        if (closed)
        {
            return;
        }
        bootstrap.reportFailure(new JobFailedException(prefix + "the proxy thread failed: " + t, -1, t));
    }

    /** Agent: a peer's connection is gone. */
    void peerLost(final int pe, final String why, final Throwable cause)
    {
        if (quiescing || closed)
        {
            return;
        }
        io.jshmem.jfr.TransportEvent.failure(me, "proxy", "lost", pe, "its proxy connection " + why); // JFR's jshmem.Transport
        bootstrap.reportFailure(new JobFailedException(prefix + "lost pe " + pe + ": its proxy connection " + why, pe, cause));
    }

    /** Agent: the peer applied a request of context {@code ctx}. */
    void completed(final int ctx, final int pe)
    {
        final ProxyContext[] cs = contexts;
        final ProxyContext c = ctx < cs.length ? cs[ctx] : null;
        if (c != null)
        {
            c.completed.incrementAndGet(pe);
        }
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

    private ProxyContext newContext(final boolean collective)
    {
        synchronized (contextLock)
        {
            ProxyContext[] cs = contexts;
            for (int i = 0; i < cs.length; i++)
            {
                if (cs[i] == null)
                {
                    final ProxyContext c = new ProxyContext(i, n, this, collective);
                    final ProxyContext[] next = cs.clone();
                    next[i] = c;
                    contexts = next;
                    return c;
                }
            }
            if (cs.length >= MAX_CONTEXTS)
            {
                throw new ShmemException(prefix + "proxy: " + MAX_CONTEXTS + " contexts exist; destroy some");
            }
            final ProxyContext c = new ProxyContext(cs.length, n, this, collective);
            final ProxyContext[] next = java.util.Arrays.copyOf(cs, cs.length * 2);
            next[cs.length] = c;
            contexts = next;
            return c;
        }
    }

    void release(final ProxyContext c)
    {
        synchronized (contextLock)
        {
            if (contexts[c.id] == c)
            {
                final ProxyContext[] next = contexts.clone();
                next[c.id] = null;
                contexts = next;
            }
        }
    }

    // ------------------------------------------------------------------ posting

    private void checkTarget(final int pe)
    {
        if (pe < 0 || pe >= n || !reached[pe])
        {
            throw new ShmemException(prefix + "proxy: pe " + pe + " is not reached through the proxy");
        }
        if (closed)
        {
            throw new IllegalStateException(prefix + "proxy: used after finalize");
        }
    }

    /** Claims ring space for a frame of {@code frameBytes}; @return the frame's offset in the ring buffer. */
    private long claim(final int pe, final ProxyContext ctx, final int frameBytes)
    {
        final int body = Frames.LOCAL + frameBytes;
        long at = ring.tryClaim(body);
        int count = 0;
        while (at < 0)
        {
            agent.wakeup();
            count = idle.applyAsInt(count);
            at = ring.tryClaim(body);
        }
        final MemorySegment b = ring.buffer();
        b.set(Frames.I32, at, pe);
        b.set(Frames.I32, at + 4, ctx.id);
        return at + Frames.LOCAL;
    }

    private void commit(final long frame, final int frameBytes, final int pe, final ProxyContext ctx)
    {
        ring.commit(frame - Frames.LOCAL, KIND_COMMAND, Frames.LOCAL + frameBytes);
        ctx.issued.incrementAndGet(pe);
        if (agent.sleeping)
        {
            agent.wakeup();
        }
    }

    private static void header(final MemorySegment b, final long at, final byte type, final int op, final int size, final int payload,
        final long offset)
    {
        b.set(ValueLayout.JAVA_BYTE, at, type);
        b.set(ValueLayout.JAVA_BYTE, at + 1, (byte)op);
        b.set(ValueLayout.JAVA_BYTE, at + 2, (byte)size);
        b.set(ValueLayout.JAVA_BYTE, at + 3, (byte)0);
        b.set(Frames.I32, at + 4, payload);
        b.set(Frames.I64, at + 8, offset);
    }

    private void postPut(final ProxyContext ctx, final int pe, final long offset, final MemorySegment src, final long from, final int len)
    {
        final int frameBytes = Frames.HEADER + len;
        final long at = claim(pe, ctx, frameBytes);
        final MemorySegment b = ring.buffer();
        header(b, at, Frames.PUT, 0, 0, len, offset);
        MemorySegment.copy(src, from, b, at + Frames.HEADER, len);
        commit(at, frameBytes, pe, ctx);
    }

    @Override
    public void put(final TransportContext context, final int pe, final long offset, final MemorySegment src, final boolean nbi)
    {
        checkTarget(pe);
        final ProxyContext ctx = (ProxyContext)context;
        final long size = src.byteSize();
        long done = 0;
        do
        {
            final int len = (int)Math.min(Frames.MAX_CHUNK, size - done);
            postPut(ctx, pe, offset + done, src, done, len);
            done += len;
        }
        while (done < size);
    }

    @Override
    public void putSignal(final TransportContext context, final int pe, final long offset, final MemorySegment src, final long sigOffset,
        final long signal, final SignalOp op, final boolean nbi)
    {
        checkTarget(pe);
        final ProxyContext ctx = (ProxyContext)context;
        final long size = src == null ? 0 : src.byteSize();
        long done = 0;
        while (size - done > Frames.MAX_CHUNK)
        {
            postPut(ctx, pe, offset + done, src, done, Frames.MAX_CHUNK);
            done += Frames.MAX_CHUNK;
        }
        final int len = (int)(size - done);
        final int fixed = Frames.fixed(Frames.PUT_SIGNAL);
        final long at = claim(pe, ctx, fixed + len);
        final MemorySegment b = ring.buffer();
        header(b, at, Frames.PUT_SIGNAL, op.ordinal(), 8, len, offset + done);
        b.set(Frames.I64, at + 16, sigOffset);
        b.set(Frames.I64, at + 24, signal);
        if (len > 0)
        {
            MemorySegment.copy(src, done, b, at + fixed, len);
        }
        commit(at, fixed + len, pe, ctx);
    }

    @Override
    public void get(final TransportContext context, final int pe, final long offset, final MemorySegment dst, final boolean nbi)
    {
        checkTarget(pe);
        final ProxyContext ctx = (ProxyContext)context;
        final long size = dst.byteSize();
        if (size == 0)
        {
            return;
        }
        final Thread agentThread = runner.thread();
        if (agentThread != null && !dst.isAccessibleBy(agentThread))
        {
            // a thread-confined destination: the reply lands in a shared bounce buffer and this thread
            // copies it (an nbi get then completes at once, which the spec allows)
            final MemorySegment bounce = MemorySegment.ofArray(new byte[(int)Math.min(size, 16 << 20)]);
            for (long done = 0; done < size; done += bounce.byteSize())
            {
                final long len = Math.min(bounce.byteSize(), size - done);
                get(context, pe, offset + done, bounce.asSlice(0, len), false);
                MemorySegment.copy(bounce, 0, dst, done, len);
            }
            return;
        }
        long done = 0;
        int lastSlot = -1;
        while (done < size)
        {
            final int len = (int)Math.min(Frames.MAX_CHUNK, size - done);
            final boolean last = done + len == size;
            final int slot = completions.claim(dst.asSlice(done, len), nbi || !last, idle);
            final int fixed = Frames.fixed(Frames.GET);
            final long at = claim(pe, ctx, fixed);
            final MemorySegment b = ring.buffer();
            header(b, at, Frames.GET, 0, 0, 0, offset + done);
            b.set(Frames.I32, at + 16, len);
            b.set(Frames.I32, at + 20, slot);
            commit(at, fixed, pe, ctx);
            lastSlot = slot;
            done += len;
        }
        if (!nbi)
        {
            await(lastSlot); // replies are applied in stream order: the last one completes them all
            completions.release(lastSlot);
        }
    }

    private void await(final int slot)
    {
        final Completions.Slot s = completions.slot(slot);
        int count = 0;
        while (s.state != Completions.DONE)
        {
            progress();
            if (s.state == Completions.DONE)
            {
                break;
            }
            count = idle.applyAsInt(count);
        }
    }

    private void postAmo(final ProxyContext ctx, final int pe, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond, final int slot)
    {
        final int fixed = Frames.fixed(Frames.AMO);
        final long at = claim(pe, ctx, fixed);
        final MemorySegment b = ring.buffer();
        header(b, at, Frames.AMO, op.ordinal(), bytes, 0, offset);
        b.set(Frames.I64, at + 16, value);
        b.set(Frames.I64, at + 24, cond);
        b.set(Frames.I32, at + 32, slot);
        b.set(Frames.I32, at + 36, 0);
        commit(at, fixed, pe, ctx);
    }

    @Override
    public long amo(final TransportContext context, final int pe, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond)
    {
        checkTarget(pe);
        final ProxyContext ctx = (ProxyContext)context;
        if (!op.fetches() && op != AtomicOp.SET)
        {
            postAmo(ctx, pe, op, bytes, offset, value, cond, -1);
            return 0;
        }
        if (op == AtomicOp.SET)
        {
            postAmo(ctx, pe, op, bytes, offset, value, cond, -1);
            return 0;
        }
        final int slot = completions.claim(null, false, idle);
        postAmo(ctx, pe, op, bytes, offset, value, cond, slot);
        await(slot);
        final long old = completions.slot(slot).value;
        completions.release(slot);
        return old;
    }

    @Override
    public void amoNbi(final TransportContext context, final int pe, final AtomicOp op, final int bytes, final long offset,
        final long value, final long cond, final MemorySegment fetch)
    {
        checkTarget(pe);
        final ProxyContext ctx = (ProxyContext)context;
        final Thread agentThread = runner.thread();
        if (fetch != null && agentThread != null && !fetch.isAccessibleBy(agentThread))
        {
            HeapAtomics.store(fetch, amo(context, pe, op, bytes, offset, value, cond)); // confined: complete now
            return;
        }
        final int slot = fetch == null ? -1 : completions.claim(fetch, true, idle);
        postAmo(ctx, pe, op, bytes, offset, value, cond, slot);
    }

    // ------------------------------------------------------------------ completion

    @Override
    public void fence(final TransportContext ctx)
    {
        // one ordered stream per target, applied in order by the target's proxy
    }

    @Override
    public void quiet(final TransportContext context)
    {
        final ProxyContext ctx = (ProxyContext)context;
        for (final int pe : remotePes)
        {
            awaitCompleted(ctx, pe, ctx.issued.get(pe));
        }
    }

    @Override
    public void quietAll(final boolean collectives)
    {
        final ProxyContext[] cs = contexts;
        final long[][] targets = new long[cs.length][];
        for (int i = 0; i < cs.length; i++)
        {
            if (cs[i] != null && (collectives || !cs[i].collective))
            {
                targets[i] = new long[n];
                for (final int pe : remotePes)
                {
                    targets[i][pe] = cs[i].issued.get(pe); // a snapshot: operations issued later by other threads are not waited for
                }
            }
        }
        for (int i = 0; i < cs.length; i++)
        {
            if (targets[i] != null)
            {
                for (final int pe : remotePes)
                {
                    awaitCompleted(cs[i], pe, targets[i][pe]);
                }
            }
        }
    }

    @Override
    public void peQuiet(final TransportContext context, final int pe)
    {
        if (pe >= 0 && pe < n && reached[pe])
        {
            final ProxyContext ctx = (ProxyContext)context;
            awaitCompleted(ctx, pe, ctx.issued.get(pe));
        }
    }

    /** Waits until pe acknowledged the context's requests up to {@code issued} (those issued before the quiet). */
    private void awaitCompleted(final ProxyContext ctx, final int pe, final long issued)
    {
        int count = 0;
        while (ctx.completed.get(pe) < issued)
        {
            progress();
            if (ctx.completed.get(pe) >= issued)
            {
                break;
            }
            count = idle.applyAsInt(count);
        }
    }

    @Override
    public void progress()
    {
        final ProxyAgent a = agent;
        if (a != null && !closed)
        {
            a.progressFromCaller();
        }
    }

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
        closed = true;
        quiescing = true;
        closeQuietly(listener);
        if (runner != null)
        {
            agent.wakeup();
            runner.close();
        }
        ring.close();
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
                // teardown
            }
        }
    }
}
