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
 * thread per PE drains it in batches onto TCP connections to the peers' proxies and serves the peers'
 * requests on this PE's heap, so a PE that computes and never calls jshmem still serves remote operations.
 * <p>
 * Wire-up on first use ({@link Connector}): {@link #connect} only starts the agent; the first command to a
 * peer dials it (commands queue meanwhile), and the listener accepts this job's peers (authenticated with
 * {@link Handshake}; strangers are dropped) for the job's life. Each direction owns its connection:
 * requests travel on the one the requester dialed, and replies and ACKs come back on it, so two PEs that
 * address each other for the first time at once simply make two connections. A PE's connections, buffers
 * (sized by traffic) and threads (one) so grow with the peers it talks to, not with the job.
 * <p>
 * Completion: each context counts, per target, the requests it issued and the ones the target
 * acknowledged as applied; quiet waits until they meet. One ordered stream per target makes fence
 * free. Blocking gets and fetching atomics wait on a {@link Completions} slot the agent fills from the
 * reply. Flow control: at most {@code SHMEM_PROXY_WINDOW} bytes of requests and of the replies they
 * ask for are in flight to a peer. Failure: a closed connection or a corrupt stream, a peer silent while
 * this PE waits on it, or a dial that fails, fails the job through the bootstrap naming the PE; every
 * wait on the proxy then throws.
 */
public final class ProxyTransport implements Transport
{
    /**
     * Settings of the proxy, from the job's options.
     *
     * @param waitPolls   whether the PE's waits on heap words progress the proxy ({@code SHMEM_PROXY_WAIT_POLL}, resolved):
     *                    {@link Capability#PROGRESS_FROM_WAITS}, and the proxy thread stands aside while they poll.
     * @param sharedCores whether PEs outnumber the machine's cores: polling waits then park after a few yields, so a polling
     *                    wait that read puts or signals sends their ACK at once instead of leaving it for its next poll.
     * @param manyCores   whether the machine has many cores ({@link ProxyProvider#MANY_CORES} or more): with waits that poll
     *                    and a core per PE, a signal without data is then sent by its poster and the proxy thread runs a
     *                    cycle of its own only once per millisecond while a wait polls (measured there; on 2 cores it made
     *                    the 2-PE barrier slower, docs/transports.md, "Where every core runs a PE").
     */
    public record Settings(long ringBytes, long window, int spins, int yields, long peerTimeoutNs, long connectTimeoutNs,
        Consumer<String> log, boolean waitPolls, boolean sharedCores, boolean manyCores)
    {
        /** Settings whose waits leave the proxy to its thread ({@code SHMEM_PROXY_WAIT_POLL=off}). */
        public Settings(final long ringBytes, final long window, final int spins, final int yields, final long peerTimeoutNs,
            final long connectTimeoutNs, final Consumer<String> log)
        {
            this(ringBytes, window, spins, yields, peerTimeoutNs, connectTimeoutNs, log, false, false, false);
        }

        /** @return these settings with {@code waitPolls} set. */
        public Settings withWaitPolls(final boolean on)
        {
            return new Settings(ringBytes, window, spins, yields, peerTimeoutNs, connectTimeoutNs, log, on, sharedCores, manyCores);
        }

        /** @return these settings with {@code sharedCores} set. */
        public Settings withSharedCores(final boolean shared)
        {
            return new Settings(ringBytes, window, spins, yields, peerTimeoutNs, connectTimeoutNs, log, waitPolls, shared, manyCores);
        }

        /** @return these settings with {@code manyCores} set. */
        public Settings withManyCores(final boolean many)
        {
            return new Settings(ringBytes, window, spins, yields, peerTimeoutNs, connectTimeoutNs, log, waitPolls, sharedCores, many);
        }

        /**
         * @return whether the PE's waits alone serve the proxy while they poll: they poll and never park (a core per PE) on a
         *         machine of many cores; the poster then sends its signals without data, and the proxy thread keeps out
         */
        boolean waitsAlone()
        {
            return waitPolls && !sharedCores && manyCores;
        }
    }

    /**
     * Polls of a wait for this PE's own request (a blocking get's or fetching atomic's reply, the ACKs a quiet waits for)
     * that spin, each after a duty cycle, before the PE's wait strategy takes over, where waits poll the proxy and PEs
     * outnumber cores. The strategy spins only 20 polls there (short, for the collectives' waits on heap words), and a
     * round trip to a peer that shares the cores takes longer: at 64 PEs on 16 cores ISx's exchange of blocking
     * fetch-adds took 1.4 times as long without these (docs/transports.md). With a core per PE the strategy spins 1000.
     */
    static final int ROUND_TRIP_SPINS = 100;

    private static final int KIND_COMMAND = 1;
    private static final int MAX_CONTEXTS = 1 << 16;
    /** Connections the kernel queues until the agent accepts them: many peers may first address this PE at once. */
    private static final int BACKLOG = 1024;

    private final Bootstrap bootstrap;
    private final MemorySegment heap;
    private final Settings settings;
    private final IntUnaryOperator idle;
    /** {@link #ROUND_TRIP_SPINS} where waits poll the proxy and PEs outnumber cores, else 0 (the strategy spins long enough). */
    private final int roundTripSpins;
    private final String prefix;
    private final int me;
    private final int n;
    private final ServerSocketChannel listener;
    private final CommandRing ring;
    private final Completions completions = new Completions(4096);
    private final PeerConnection[] peers;
    private final boolean[] reached;
    private final boolean[] accepts;
    private byte[][] endpoints;
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
        this.roundTripSpins = settings.waitPolls() && settings.sharedCores() ? ROUND_TRIP_SPINS : 0;
        this.me = bootstrap.rank();
        this.n = bootstrap.size();
        this.prefix = ShmemException.pePrefix(me, n);
        this.peers = new PeerConnection[n];
        this.reached = new boolean[n];
        this.accepts = new boolean[n];
        this.ring = new CommandRing(Long.highestOneBit(Math.max(1 << 16, settings.ringBytes())));
        if (settings.window() < 2L * (Frames.MAX_CHUNK + 64))
        {
            throw new ShmemInitException(prefix + "SHMEM_PROXY_WINDOW=" + settings.window() + " is below the minimum " +
                2L * (Frames.MAX_CHUNK + 64) + " bytes");
        }
        try
        {
            listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(bootstrap.address(), 0), BACKLOG);
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

    /** @return who serves the sockets ({@code SHMEM_PROXY_WAIT_POLL}, resolved), for {@code SHMEM_INFO}. */
    @Override
    public String info()
    {
        return settings.waitPolls() ? "waits poll its sockets" : "its thread alone serves its sockets";
    }

    @Override
    public byte id()
    {
        return ReachabilityMap.PROXY;
    }

    @Override
    public Set<Capability> capabilities()
    {
        return settings.waitPolls() ?
            EnumSet.of(Capability.PASSIVE_PROGRESS, Capability.ORDERED_PER_TARGET, Capability.CPU_ATOMICS, Capability.PROGRESS_FROM_WAITS,
                Capability.THREAD_SENDS) :
            EnumSet.of(Capability.PASSIVE_PROGRESS, Capability.ORDERED_PER_TARGET, Capability.CPU_ATOMICS, Capability.THREAD_SENDS);
    }

    int myPe()
    {
        return me;
    }

    int nPes()
    {
        return n;
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

    /**
     * Starts the proxy thread; makes no connection. A peer's connection is dialed when this PE first
     * addresses it, and peers that address this PE are accepted on the listener for the job's life.
     */
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
            // a peer that reaches this PE through the proxy dials it: accept it too
            accepts[pe] = pe != me && map.transport(pe, me) == ReachabilityMap.PROXY;
        }
        remotePes = remote.stream().mapToInt(Integer::intValue).toArray();
        this.endpoints = endpoints.clone();
        try
        {
            final Selector selector = Selector.open();
            agent = new ProxyAgent(this, ring, completions, heap, selector, listener, bootstrap.deriveKey("proxy"), me, n, settings);
            runner = new AgentRunner(new ProxyAgent.Idle(agent, settings.spins(), settings.yields()), this::agentError, null, agent);
            AgentRunner.startOnThread(runner, r -> Thread.ofPlatform().daemon().name(agent.roleName()).unstarted(r));
        }
        catch (final IOException ex)
        {
            closeQuietly(listener);
            throw new ShmemInitException(prefix + "proxy: cannot start: " + ex, ex);
        }
    }

    /** @return the published endpoint of {@code pe} ("host:port"), for dials and messages. */
    String endpointOf(final int pe)
    {
        final byte[] ep = endpoints == null ? null : endpoints[pe];
        return ep == null ? "(no endpoint)" : new String(ep, StandardCharsets.US_ASCII);
    }

    /** @return where {@code pe}'s proxy listens; IllegalArgumentException naming the problem when it published none. */
    InetSocketAddress addressOf(final int pe) throws java.net.UnknownHostException
    {
        final String endpoint = endpointOf(pe);
        final int colon = endpoint.lastIndexOf(':');
        if (colon < 0)
        {
            throw new IllegalArgumentException("pe " + pe + " published no proxy endpoint (is SHMEM_TRANSPORT the same on every PE?)");
        }
        final String host = endpoint.substring(0, colon).replace("[", "").replace("]", "");
        return new InetSocketAddress(InetAddress.getByName(host), Integer.parseInt(endpoint.substring(colon + 1)));
    }

    /** @return whether {@code pe} may dial this PE's proxy (the map gives the pair to the proxy). */
    boolean reaches(final int pe)
    {
        return accepts[pe] || reached[pe];
    }

    /**
     * Socket buffers: the kernel's defaults with autotuning (which grows a busy connection's buffers to
     * {@code net.ipv4.tcp_rmem}/{@code tcp_wmem}'s maximum and keeps an idle one small), not a fixed size
     * per connection; see docs/transports.md for the measurement.
     */
    static void socketBuffers(final SocketChannel ch)
    {
        // nothing to set: fixed SO_SNDBUF/SO_RCVBUF would turn autotuning off
    }

    /** Agent: a dial failed for good. */
    void connectFailed(final int pe, final String endpoint, final String why)
    {
        if (quiescing || closed)
        {
            return;
        }
        io.jshmem.jfr.Jfr.transportFailure(me, "proxy", "connect failed", pe, endpoint + ": " + why); // JFR's jshmem.Transport
        bootstrap.reportFailure(new JobFailedException(prefix + "proxy: cannot connect to pe " + pe + " at " + endpoint + ": " + why, pe, null));
    }

    /** Agent: the listener failed to accept (e.g. out of file descriptors). */
    void acceptFailed(final IOException ex)
    {
        final int count = strangers.incrementAndGet();
        if (count <= 5)
        {
            settings.log().accept(prefix + "proxy: accept failed: " + ex + (count == 5 ? " (further drops are counted, not logged)" : ""));
        }
    }

    /** Agent: a connection failed its handshake (or its deadline); it is closed, counted, and logged five times at most. */
    void stranger(final SocketChannel ch, final IOException why)
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
        io.jshmem.jfr.Jfr.transportFailure(me, "proxy", "stranger dropped", -1, from + ": " + why.getMessage()); // JFR's jshmem.Transport
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

    /** @return the peers this PE has dialed and whose connection is open: those it addressed (diagnostics). */
    public int[] connectedPeers()
    {
        final ProxyAgent a = agent;
        return a == null ? new int[0] : a.connectedPeers();
    }

    /** @return the peers that dialed this PE and were accepted: those that addressed it (diagnostics). */
    public int[] acceptedPeers()
    {
        final ProxyAgent a = agent;
        return a == null ? new int[0] : a.acceptedPeers();
    }

    /** @return bytes of the open connections' receive and send buffers (diagnostics). */
    public long bufferBytes()
    {
        final ProxyAgent a = agent;
        return a == null ? 0 : a.bufferBytes();
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
        io.jshmem.jfr.Jfr.transportFailure(me, "proxy", "lost", pe, "its proxy connection " + why); // JFR's jshmem.Transport
        bootstrap.reportFailure(new JobFailedException(prefix + "lost pe " + pe + ": its proxy connection " + why, pe, cause));
    }

    /** Agent: the peer applied a request of context {@code ctx}. */
    void completed(final int ctx, final int pe)
    {
        final ProxyContext[] cs = contexts;
        final ProxyContext c = ctx < cs.length ? cs[ctx] : null;
        if (c != null)
        {
            final long done = c.completed.incrementAndGet(pe);
            final Thread t = c.waiter; // after the count: pairs with awaitCompleted's store of the waiter before it reads the count
            if (t != null && c.waitPe == pe && done == c.waitFor && t != Thread.currentThread())
            {
                java.util.concurrent.locks.LockSupport.unpark(t); // a quiet parked in its wait strategy wakes now
            }
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
        commit(frame, frameBytes, pe, ctx, false);
    }

    /**
     * @param callerSends the posting thread waits for this request's reply at once, and its wait sends it (a duty cycle):
     *                    a sleeping proxy thread is not woken (a wake-up system call, and a thread that would compete with
     *                    the caller for the duty cycle and the reply).
     */
    private void commit(final long frame, final int frameBytes, final int pe, final ProxyContext ctx, final boolean callerSends)
    {
        if (ProxyTrace.ON)
        {
            agent.trace.committed();
        }
        ring.commit(frame - Frames.LOCAL, KIND_COMMAND, Frames.LOCAL + frameBytes);
        ctx.issued.incrementAndGet(pe);
        if ((!callerSends || agent.busy()) && agent.sleeping != ProxyAgent.AWAKE)
        {
            agent.wakeupForPost(); // pairs with the agent's store of sleeping before it checks the ring (ProxyAgent.sleep)
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
        else if (ProxyTrace.ON)
        {
            agent.trace.signal(ProxyTrace.SIGNAL_POSTED, pe, false);
        }
        // a signal without data, where the PE's waits alone serve the proxy (Settings.waitsAlone): a collective's
        // synchronisation (a barrier's message, the signal after a message's data), whose poster may leave the
        // collective at once (its own wait already satisfied) and so not poll again; it sends the signal itself, with
        // whatever the ring holds before it, rather than leave it to a proxy thread that needs a core (docs/transports.md,
        // "Where every core runs a PE")
        final boolean posterSends = len == 0 && settings.waitsAlone() && !agent.onAgentThread();
        commit(at, fixed + len, pe, ctx, posterSends);
        if (posterSends && !agent.sendFromPoster() && agent.sleeping != ProxyAgent.AWAKE)
        {
            agent.wakeup(); // even one standing aside: this thread may not poll again
        }
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
            if (ProxyTrace.ON)
            {
                agent.trace.post();
            }
            final int fixed = Frames.fixed(Frames.GET);
            final long at = claim(pe, ctx, fixed);
            final MemorySegment b = ring.buffer();
            header(b, at, Frames.GET, 0, 0, 0, offset + done);
            b.set(Frames.I32, at + 16, len);
            b.set(Frames.I32, at + 20, slot);
            commit(at, fixed, pe, ctx, !nbi);
            lastSlot = slot;
            done += len;
        }
        if (!nbi)
        {
            final long posted = ProxyTrace.ON ? agent.trace.postNs : 0;
            await(lastSlot); // replies are applied in stream order: the last one completes them all
            completions.release(lastSlot);
            if (ProxyTrace.ON)
            {
                agent.trace.done(posted);
            }
        }
    }

    private void await(final int slot)
    {
        final Completions.Slot s = completions.slot(slot);
        s.waiter = Thread.currentThread(); // before reading the state: pairs with Completions.complete
        int count = 0;
        while (s.state != Completions.DONE)
        {
            progress();
            if (s.state == Completions.DONE)
            {
                break;
            }
            count = roundTripIdle(count);
        }
    }

    private void postAmo(final ProxyContext ctx, final int pe, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond, final int slot, final boolean blocking)
    {
        final int fixed = Frames.fixed(Frames.AMO);
        final long at = claim(pe, ctx, fixed);
        final MemorySegment b = ring.buffer();
        header(b, at, Frames.AMO, op.ordinal(), bytes, 0, offset);
        b.set(Frames.I64, at + 16, value);
        b.set(Frames.I64, at + 24, cond);
        b.set(Frames.I32, at + 32, slot);
        b.set(Frames.I32, at + 36, 0);
        commit(at, fixed, pe, ctx, blocking);
    }

    @Override
    public long amo(final TransportContext context, final int pe, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond)
    {
        checkTarget(pe);
        final ProxyContext ctx = (ProxyContext)context;
        if (!op.fetches() && op != AtomicOp.SET)
        {
            postAmo(ctx, pe, op, bytes, offset, value, cond, -1, false);
            return 0;
        }
        if (op == AtomicOp.SET)
        {
            postAmo(ctx, pe, op, bytes, offset, value, cond, -1, false);
            return 0;
        }
        final int slot = completions.claim(null, false, idle);
        if (ProxyTrace.ON)
        {
            agent.trace.post();
        }
        final long posted = ProxyTrace.ON ? agent.trace.postNs : 0;
        postAmo(ctx, pe, op, bytes, offset, value, cond, slot, true);
        await(slot);
        final long old = completions.slot(slot).value;
        completions.release(slot);
        if (ProxyTrace.ON)
        {
            agent.trace.done(posted);
        }
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
        postAmo(ctx, pe, op, bytes, offset, value, cond, slot, false);
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

    /**
     * @return whether requests of this context to {@code pe} are not yet acknowledged (a {@link #peQuiet} would wait): what
     *         a transport composed with this one checks before it sends something that must not overtake them.
     */
    public boolean outstanding(final TransportContext context, final int pe)
    {
        final ProxyContext ctx = (ProxyContext)context;
        return pe >= 0 && pe < n && reached[pe] && ctx.completed.get(pe) < ctx.issued.get(pe);
    }

    /**
     * The idle step of a wait for this PE's own round trip (after the caller's duty cycle): {@link #roundTripSpins} bare
     * spins, then the PE's wait strategy, whose count starts at 0 after them.
     */
    private int roundTripIdle(final int count)
    {
        if (count < roundTripSpins)
        {
            Thread.onSpinWait();
            return count + 1;
        }
        final int later = idle.applyAsInt(count - roundTripSpins);
        return later > Integer.MAX_VALUE - roundTripSpins ? Integer.MAX_VALUE : later + roundTripSpins;
    }

    /** Waits until pe acknowledged the context's requests up to {@code issued} (those issued before the quiet). */
    private void awaitCompleted(final ProxyContext ctx, final int pe, final long issued)
    {
        if (ctx.completed.get(pe) >= issued)
        {
            return;
        }
        ctx.waitPe = pe;
        ctx.waitFor = issued;
        ctx.waiter = Thread.currentThread();
        int count = 0;
        while (ctx.completed.get(pe) < issued)
        {
            progress();
            if (ctx.completed.get(pe) >= issued)
            {
                break;
            }
            count = roundTripIdle(count);
        }
        ctx.waiter = null;
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

    /** A wait that progressed the proxy parks now ({@code SHMEM_PROXY_WAIT_POLL} with parking waits): the proxy thread takes over. */
    @Override
    public void progressParks()
    {
        final ProxyAgent a = agent;
        if (a != null && !closed)
        {
            a.callerParks();
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
        if (runner != null)
        {
            agent.wakeup();
            runner.close(); // the agent's onClose closes the listener and every connection
        }
        closeQuietly(listener);
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
