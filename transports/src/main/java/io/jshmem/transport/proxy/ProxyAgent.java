package io.jshmem.transport.proxy;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.util.Iterator;
import java.util.concurrent.locks.LockSupport;

/**
 * The proxy thread of one PE (an Agrona {@link Agent} run by an {@code AgentRunner}): drains the
 * command ring into the send buffers of the connections this PE dialed (within each peer's credit),
 * dialing a peer when its first command arrives, and accepts the peers that dial it ({@link Connector});
 * writes with non-blocking TCP, reads every connection and hands the bytes to its {@link FrameApplier} (which
 * applies the peers' requests to this PE's heap, answers gets and fetching atomics, and completes this PE's own
 * requests on the peers' replies and ACKs), and acknowledges applied requests on the connection they came in on.
 * It never blocks on a peer: a full socket leaves bytes in the send
 * buffer and the agent goes on reading, so two proxies sending to each other cannot deadlock; a dial
 * and a handshake are state machines in the same selector.
 * <p>
 * Liveness is the bootstrap's; here a connection closed or reset, or a corrupt stream, loses its peer at
 * once, and silence only while this PE waits on the peer (requests unacknowledged) for longer than
 * {@code SHMEM_PROXY_PEER_TIMEOUT}. No heartbeats: an idle connection costs nothing.
 * <p>
 * Idle: {@link Idle} spins, then yields, then sleeps in {@link Selector#select(long)} until a peer's
 * bytes arrive, an API thread posts a command (which wakes it), or the timer is due: every eighth of
 * the peer timeout (1-250 ms) while something is owed or being connected, else once a second.
 * <p>
 * With {@code waitPolls} ({@code SHMEM_PROXY_WAIT_POLL}) the PE's waits on heap words run
 * {@link #progressFromCaller()} on every poll; while one has polled within {@link #CALLER_FRESH_NS} the
 * agent stands aside (parks {@link #ASIDE_PARK_NS} at a time, then runs one duty cycle, so accepts, handshakes and
 * timers still progress; where the waits alone serve the proxy, {@code waitsAlone}, one per {@link #ASIDE_CYCLE_NS}
 * only), and takes over at once when the wait parks ({@link #callerParks()}). Callers take the duty cycle with
 * {@code tryLock}; the agent too, unless its last cycle is {@link #AGENT_CYCLE_NS} old ({@link #ASIDE_CYCLE_NS} while it
 * stands aside so): then callers leave it the next one, so callers polling back to back never starve its accepts and
 * handshakes. Standing aside that rarely keeps a polling PE reading where every core runs a PE (16 on 16 cores): the
 * proxy thread then waits for a core whenever it wakes (0.2 ms on average, milliseconds at times), and each of its cycles
 * took the lock, or asked callers to leave it the next one, before it got that core, so the PE's waits could neither read
 * nor send meanwhile (docs/transports.md, "Where every core runs a PE").
 * The agent also stands aside while a caller waits on the proxy itself (a blocking get or atomic, quiet), whatever
 * {@code waitPolls}. Callers find readable connections with one non-blocking select of their own selector. While the
 * agent thread is sending ({@link #agentBusy}: bytes the sockets have not taken, commands still in the ring) callers back
 * off instead of taking turns on the sockets, and a caller's cycle that leaves such bytes hands them over. A caller's
 * read of puts or signals leaves their ACK for its next poll ({@code deferAcks}) only where waits never park (a core per
 * PE); where PEs outnumber cores the ACK leaves at once.
 */
final class ProxyAgent implements Agent
{
    private static final int RING_BATCH = 256;
    private static final int READS_PER_PEER = 8;
    private static final long MIN_TIMER_NS = 1_000_000L;
    private static final long MAX_TIMER_NS = 250_000_000L;
    private static final long IDLE_TIMER_NS = 1_000_000_000L;
    /** Buffers of a connection quiet this long go back to their minimum. */
    private static final long SHRINK_AFTER_NS = 2_000_000_000L;
    /** A caller that ran a duty cycle this recently is taken to be polling still (its polls are about a microsecond apart). */
    static final long CALLER_FRESH_NS = 20_000L;
    /** How long the agent parks at a time while a caller polls; with the kernel's default timer slack about 100 us. */
    static final long ASIDE_PARK_NS = 50_000L;
    /** When the agent last ran a duty cycle this long ago, callers leave it the next one (see {@link #doWork()}). */
    private static final long AGENT_CYCLE_NS = 50_000L;
    /**
     * Where the waits alone serve the proxy ({@code waitsAlone}), while a caller polls the agent thread runs a duty cycle of
     * its own (accepts, handshakes, timers: the caller reads, sends and runs timers itself) once per this long, and only
     * asks callers for the lock when its last one is this old.
     */
    static final long ASIDE_CYCLE_NS = 1_000_000L;
    /** {@link #sleeping}: running. */
    static final int AWAKE = 0;
    /** {@link #sleeping}: in {@link Selector#select(long)}, woken by {@link Selector#wakeup()}. */
    static final int SELECTING = 1;
    /** {@link #sleeping}: parked while a caller polls, woken by {@link LockSupport#unpark}. */
    static final int ASIDE = 2;

    private final ProxyTransport transport;
    private final CommandRing ring;
    /** The receiving side: parses the peers' frames, applies requests to the heap and completes this PE's requests. */
    private final FrameApplier applier;
    private final Selector selector;
    /**
     * The open connections again, for callers' duty cycles ({@link #progressFromCaller()}): one non-blocking select tells
     * which have bytes, instead of a read system call per connection per poll. Used under the lock only, never blocking.
     */
    private final Selector callerSelector;
    private final java.util.function.Consumer<SelectionKey> onCallerKey = this::onCallerKey;
    private int callerWork;
    private final Connector connector;
    /** Open connections, both directions (copy-on-write: they change only when one opens or is lost). */
    private PeerConnection[] live = new PeerConnection[0];
    /**
     * Open connections with bytes to send, dialed ones (this PE's requests) and accepted ones (replies, ACKs) apart:
     * a duty cycle flushes these, not every live connection, so its cost does not grow with the peers a PE has
     * talked to (ISx's exchange leaves 2(N-1) live connections per PE). A connection joins where bytes are appended
     * to its send buffer ({@link #onCommand}, {@link #receive}, {@link #opened}) and leaves once they are written.
     */
    private final SendList sendingRequests = new SendList();
    private final SendList sendingReplies = new SendList();
    private final long window;
    private final long peerTimeoutNs;
    /** The timer tick while this PE waits on peers or connects; an idle PE wakes once a second. */
    private final long busyTimerNs;
    private final CommandRing.Handler onCommand = this::onCommand;
    /** The debug timing harness ({@link ProxyTrace#ON}), else null. */
    final ProxyTrace trace;
    /** {@link #AWAKE}, {@link #SELECTING} or {@link #ASIDE}; set before the ring is checked, read by posters after they commit. */
    volatile int sleeping;
    /** A polling wait that read puts or signals leaves their ACK for its next poll (waits that never park). */
    private final boolean deferAcks;
    /**
     * The PE's waits alone serve the proxy while they poll ({@code ProxyTransport.Settings.waitsAlone}: a core per PE on a
     * machine of many cores): this thread then runs a cycle of its own only once per {@link #ASIDE_CYCLE_NS}.
     */
    private final boolean waitsAlone;
    /** When a caller last ran a duty cycle ({@link #progressFromCaller()}); read by the agent to stand aside. */
    private volatile long callerNs;
    /** When the agent thread last ran a duty cycle (agent thread only). */
    private long lastCycleNs;
    /**
     * The agent thread's last duty cycle left bytes to send or commands in the ring (an outgoing transfer under way,
     * waiting for socket space or credit): callers' polls leave the duty cycle to it rather than take turns on the
     * sockets with it, and it does not stand aside. What peers send is read by whichever thread polls.
     */
    private volatile boolean agentBusy;
    /** A caller parked in {@link #backOff()}, else null. */
    private volatile Thread backedOff;
    /** How long a caller backs off at most while the agent thread is in a transfer. */
    static final long BACKOFF_PARK_NS = 50_000L;
    /** The last {@link #sendAndFlush()} left bytes in a send buffer (the socket was full). */
    private boolean unsentLeft;
    /** The agent waits for the lock: callers leave it the next duty cycle. */
    private volatile boolean agentWants;
    /** Held for a duty cycle, by the proxy thread or by an API thread progressing while it waits. */
    private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
    private volatile Thread agentThread;
    private boolean stopped;
    private long now = System.nanoTime();
    private long nextTimer;
    private boolean timerBusy;
    /** A caller's receive left ACKs unsent (see {@link #receive}). */
    private boolean ackDeferred;

    ProxyAgent(final ProxyTransport transport, final CommandRing ring, final Completions completions, final MemorySegment heap,
        final Selector selector, final ServerSocketChannel listener, final byte[] key, final int me, final int n,
        final ProxyTransport.Settings settings) throws IOException
    {
        this.deferAcks = settings.waitPolls() && !settings.sharedCores();
        this.waitsAlone = settings.waitsAlone();
        this.trace = ProxyTrace.ON ? new ProxyTrace() : null;
        this.callerNs = now - 2 * CALLER_FRESH_NS;
        this.transport = transport;
        this.ring = ring;
        this.applier = new FrameApplier(this, transport, completions, heap);
        this.selector = selector;
        this.callerSelector = Selector.open();
        this.window = settings.window();
        this.peerTimeoutNs = settings.peerTimeoutNs();
        this.busyTimerNs = Math.clamp(peerTimeoutNs / 8, MIN_TIMER_NS, MAX_TIMER_NS);
        this.nextTimer = now + IDLE_TIMER_NS;
        this.connector = new Connector(transport, this, selector, listener, key, me, n, settings.connectTimeoutNs());
    }

    @Override
    public String roleName()
    {
        return "jshmem-proxy-pe" + transport.myPe();
    }

    @Override
    public void onStart()
    {
        agentThread = Thread.currentThread();
    }

    boolean onAgentThread()
    {
        return Thread.currentThread() == agentThread;
    }

    @Override
    public int doWork() throws IOException
    {
        final boolean aside = waitsAlone && !agentBusy && callerFresh();
        if (aside && ring.isEmpty() && System.nanoTime() - lastCycleNs < ASIDE_CYCLE_NS)
        {
            return 0; // a caller polls: it reads, sends and runs the timers; this thread's accepts and handshakes can wait
        }
        if (!lock.tryLock())
        {
            if (System.nanoTime() - lastCycleNs < (aside ? ASIDE_CYCLE_NS : AGENT_CYCLE_NS))
            {
                return 0; // a waiting API thread runs a duty cycle: its work is done meanwhile (blocking would cost it an unpark)
            }
            // callers may hold the lock back to back (several threads waiting): only the agent accepts and runs
            // handshakes (the selector is its own), so once per AGENT_CYCLE_NS it asks them to leave it the next cycle
            // and waits for the one under way (a few microseconds; yielding, as its holder may be off the CPU). Not
            // lock(): the holder's unlock would then have to unpark it, on every poll while the agent is queued.
            agentWants = true;
            while (!lock.tryLock())
            {
                Thread.yield();
            }
        }
        final long heldFrom = ProxyTrace.ON ? System.nanoTime() : 0;
        try
        {
            agentWants = false;
            now = System.nanoTime();
            lastCycleNs = now;
            int work = sendAndFlush();
            if (selector.selectedKeys().isEmpty())
            {
                selector.selectNow(); // not right after a sleeping select() that found keys: they are served first
            }
            if (!selector.selectedKeys().isEmpty()) // also the keys a sleeping select() found
            {
                work += handleSelected();
            }
            if (now - nextTimer >= 0)
            {
                timers();
            }
            final boolean busy = unsentLeft || !ring.isEmpty(); // sending: bytes the socket has not taken, or commands not yet framed
            if (agentBusy != busy)
            {
                agentBusy = busy;
                if (!busy)
                {
                    wakeBackedOff(); // the transfer is done: a backed-off caller polls again
                }
            }
            if (applier.takeSignalled())
            {
                wakeBackedOff(); // a peer's signal or atomic landed: a backed-off wait looks at its word now
            }
            return work;
        }
        finally
        {
            release(ProxyTrace.AGENT_HOLD, heldFrom);
        }
    }

    /**
     * One duty cycle run by an API thread that waits on the proxy (a blocking get or atomic, quiet, a
     * wait on a word peers write): its commands leave without waking the proxy thread, and replies and
     * peers' requests are read and applied as they arrive, without the proxy thread's wake-up from the
     * kernel. Reads go straight to the sockets (the selector belongs to the proxy thread, which may be
     * asleep in it), and dials under way are polled. Does nothing when another thread is progressing.
     *
     * @return the work done.
     */
    int progressFromCaller()
    {
        if (agentBusy)
        {
            return backOff(); // the agent thread is moving bytes: it goes on (a caller taking turns would stall its stream)
        }
        callerNs = System.nanoTime(); // the agent stands aside while callers poll
        if (agentWants || !lock.tryLock())
        {
            if (ProxyTrace.ON)
            {
                trace.count(ProxyTrace.CALLER_LOCKED_OUT);
            }
            return 0;
        }
        final long heldFrom = ProxyTrace.ON ? System.nanoTime() : 0;
        try
        {
            if (stopped)
            {
                return 0;
            }
            now = System.nanoTime();
            int work = sendAndFlush();
            callerWork = 0;
            try
            {
                callerSelector.selectNow(onCallerKey);
            }
            catch (final IOException ex)
            {
                throw new java.io.UncheckedIOException(ex);
            }
            work += callerWork;
            if (connector.dialsUnderWay())
            {
                work += connector.pollDials(now); // out of the common path: no dial is under way once the peers are connected
            }
            if (now - nextTimer >= 0)
            {
                timers();
            }
            handOverIfSending();
            if (ackDeferred)
            {
                ackDeferred = false;
                if (sleeping == SELECTING)
                {
                    selector.wakeup(); // a sleeping agent flushes the ACKs should this caller stop polling (a parked one wakes by itself)
                }
            }
            return work;
        }
        finally
        {
            release(ProxyTrace.CALLER_HOLD, heldFrom);
        }
    }

    /**
     * The posting thread sends what it just posted (a signal without data), framing and writing it in a duty cycle of its
     * own, unless the agent thread is in a transfer (it sends it behind that), asks for the lock, or another thread holds it
     * (which sends it).
     *
     * @return whether this thread ran the duty cycle; if not, the poster wakes the agent thread as for any post.
     */
    boolean sendFromPoster()
    {
        if (agentBusy || agentWants || !lock.tryLock())
        {
            return false;
        }
        final long heldFrom = ProxyTrace.ON ? System.nanoTime() : 0;
        try
        {
            if (stopped)
            {
                return false;
            }
            now = System.nanoTime();
            sendAndFlush();
            handOverIfSending();
            return true;
        }
        finally
        {
            release(ProxyTrace.CALLER_HOLD, heldFrom);
        }
    }

    /** Ends a duty cycle: samples how long it held the lock ({@link ProxyTrace}, {@code stage}), then unlocks. */
    private void release(final int stage, final long heldFrom)
    {
        if (ProxyTrace.ON)
        {
            trace.sample(stage, System.nanoTime() - heldFrom);
        }
        lock.unlock();
    }

    private int sendAndFlush()
    {
        int work = ring.read(onCommand, RING_BATCH);
        work += flushQueued(sendingRequests); // this PE's requests first: a peer may wait on them
        work += flushQueued(sendingReplies); // then replies and ACKs (a caller's receive may have left ACKs here)
        unsentLeft = sendingRequests.count > 0 || sendingReplies.count > 0;
        return work;
    }

    /** Puts {@code c} in its direction's list of connections with bytes to send, if it has some and is not there yet. */
    private void queueSend(final PeerConnection c)
    {
        if (!c.sendQueued && c.unsent() > 0 && !c.dead)
        {
            c.sendQueued = true;
            (c.inbound ? sendingReplies : sendingRequests).add(c);
        }
    }

    /**
     * Flushes the connections of one list; those whose bytes the socket did not all take stay, the others (and dead
     * ones, and dials still connecting, which {@link #opened} queues again) leave it.
     *
     * @return connections that wrote something.
     */
    private int flushQueued(final SendList list)
    {
        final PeerConnection[] q = list.connections;
        int work = 0;
        int kept = 0;
        for (int i = 0; i < list.count; i++)
        {
            final PeerConnection c = q[i];
            if (sendable(c))
            {
                work += flush(c) > 0 ? 1 : 0;
            }
            if (sendable(c)) // a flush may have written everything, or lost the peer
            {
                q[kept++] = c;
            }
            else
            {
                c.sendQueued = false;
            }
        }
        java.util.Arrays.fill(q, kept, list.count, null);
        list.count = kept;
        return work;
    }

    private static boolean sendable(final PeerConnection c)
    {
        return !c.dead && !c.connecting && c.unsent() > 0;
    }

    /** Connections of one direction with bytes to send, each once ({@link PeerConnection#sendQueued}); agent's lock. */
    private static final class SendList
    {
        PeerConnection[] connections = new PeerConnection[16];
        int count;

        void add(final PeerConnection c)
        {
            if (count == connections.length)
            {
                connections = java.util.Arrays.copyOf(connections, count * 2);
            }
            connections[count++] = c;
        }

        void clear()
        {
            java.util.Arrays.fill(connections, null);
            count = 0;
        }
    }

    /** @return whether the agent thread is in a transfer (see {@link #agentBusy}): a post it must send wakes it. */
    boolean busy()
    {
        return agentBusy;
    }

    private void onCallerKey(final SelectionKey key)
    {
        if (key.attachment() instanceof PeerConnection c && !c.dead && key.isValid() && key.isReadable())
        {
            callerWork += receive(c);
        }
    }

    private int flush(final PeerConnection c)
    {
        try
        {
            final int n = c.flush(now);
            if (ProxyTrace.ON && n > 0)
            {
                traceWritten(c);
            }
            return n;
        }
        catch (final IOException ex)
        {
            lost(c, "write failed: " + ex.getMessage(), ex);
            return 0;
        }
    }

    private void traceWritten(final PeerConnection c)
    {
        final long t = System.nanoTime();
        trace.count(ProxyTrace.WRITE);
        if (!c.inbound && c.traceAnyPostNs != 0)
        {
            trace.sample(ProxyTrace.ANY_POST_TO_WRITTEN, t - c.traceAnyPostNs);
            c.traceAnyPostNs = 0;
        }
        if (!c.inbound && c.tracePostNs != 0)
        {
            trace.sample(ProxyTrace.POST_TO_WRITTEN, t - c.tracePostNs);
            trace.count(onAgentThread() ? ProxyTrace.SENT_BY_AGENT : ProxyTrace.SENT_BY_CALLER);
            c.traceWrittenNs = t;
            c.tracePostNs = 0;
        }
        if (c.inbound && c.traceServeNs != 0)
        {
            trace.sample(ProxyTrace.SERVE, t - c.traceServeNs);
            trace.count(onAgentThread() ? ProxyTrace.SERVED_BY_AGENT : ProxyTrace.SERVED_BY_CALLER);
            c.traceServeNs = 0;
        }
    }

    private int handleSelected()
    {
        int work = 0;
        final Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext())
        {
            final SelectionKey key = it.next();
            it.remove();
            if (!key.isValid())
            {
                continue;
            }
            if (!(key.attachment() instanceof PeerConnection c))
            {
                connector.onKey(key, now); // the listener, or an accepted connection in its handshake
                work++;
                continue;
            }
            if (c.dead)
            {
                continue;
            }
            if (c.connecting)
            {
                work += connector.stepDial(c, now);
                continue;
            }
            if (key.isReadable())
            {
                work += receive(c);
            }
            if (!c.dead && key.isValid() && key.isWritable())
            {
                flush(c);
            }
        }
        return work;
    }

    // ------------------------------------------------------------------ connections

    /** Connector: a connection finished its handshake (either direction); frames may flow. */
    void opened(final PeerConnection c)
    {
        c.lastReceivedNs = now; // a wait on the peer counts its silence from here
        c.lastActiveNs = now;
        final PeerConnection[] next = java.util.Arrays.copyOf(live, live.length + 1);
        next[live.length] = c;
        live = next;
        c.key.interestOps(SelectionKey.OP_READ | (c.unsent() > 0 ? SelectionKey.OP_WRITE : 0));
        try
        {
            c.channel.register(callerSelector, SelectionKey.OP_READ, c); // closing the channel deregisters it
        }
        catch (final java.nio.channels.ClosedChannelException ex)
        {
            lost(c, "closed before it opened", ex);
            return;
        }
        if (c.unsent() > 0)
        {
            flush(c); // the commands queued while it connected
            queueSend(c);
        }
    }

    /** The timer is needed soon: something is owed or being connected. */
    void armTimer()
    {
        if (!timerBusy)
        {
            timerBusy = true;
            nextTimer = Math.min(nextTimer, now + busyTimerNs);
        }
    }

    /** @return the peers this PE dialed whose connection is open (diagnostics; any thread). */
    int[] connectedPeers()
    {
        return peersOf(connector.dialedConnections());
    }

    /** @return the peers whose dialed connection this PE accepted (diagnostics; any thread). */
    int[] acceptedPeers()
    {
        return peersOf(connector.acceptedConnections());
    }

    /** @return bytes of the connections' receive and send buffers (diagnostics; any thread). */
    long bufferBytes()
    {
        lock.lock();
        try
        {
            long sum = 0;
            for (final PeerConnection c : live)
            {
                sum += c.bufferBytes();
            }
            return sum;
        }
        finally
        {
            lock.unlock();
        }
    }

    private int[] peersOf(final PeerConnection[] cs)
    {
        lock.lock();
        try
        {
            return java.util.stream.IntStream.range(0, cs.length).filter(pe -> cs[pe] != null && cs[pe].open()).toArray();
        }
        finally
        {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ sending

    private boolean onCommand(final int type, final MemorySegment buf, final long body, final int length)
    {
        final int pe = buf.get(Frames.I32, body);
        final int ctx = buf.get(Frames.I32, body + 4);
        final long frame = body + Frames.LOCAL;
        final int frameBytes = length - Frames.LOCAL;
        final PeerConnection c = connector.dialed(pe, now);
        if (c.dead)
        {
            // the job has failed (a lost peer or a failed dial reported it): drop the command; its waiter sees the failure
            return true;
        }
        final int cost = frameBytes + replyBytes(buf, frame);
        if (c.inflight > 0 && c.inflight + cost > window)
        {
            return false; // flow control: wait for the peer's ACKs (while connecting: up to a window is queued)
        }
        if (!c.connecting && c.unsent() > 2 * Frames.MAX_CHUNK && flush(c) >= 0 && c.unsent() > 2 * Frames.MAX_CHUNK)
        {
            return false; // the socket is full: keep the command in the ring until it drains
        }
        c.ensureTx(frameBytes);
        final int at = c.tx.position();
        MemorySegment.copy(buf, frame, c.txSegment, at, frameBytes);
        c.tx.position(at + frameBytes);
        queueSend(c);
        c.pushRequest(ctx, cost, now);
        if (ProxyTrace.ON && cost > frameBytes && c.tracePostNs == 0)
        {
            c.tracePostNs = trace.postNs; // a blocking get or fetching atomic (it asks for a reply)
        }
        if (ProxyTrace.ON && c.traceAnyPostNs == 0)
        {
            c.traceAnyPostNs = trace.takePending();
        }
        if (ProxyTrace.ON && frameBytes == Frames.fixed(Frames.PUT_SIGNAL)
            && buf.get(java.lang.foreign.ValueLayout.JAVA_BYTE, frame) == Frames.PUT_SIGNAL) // a signal without data
        {
            trace.signal(ProxyTrace.SIGNAL_FRAMED, pe, onAgentThread());
        }
        armTimer();
        return true;
    }

    private static int replyBytes(final MemorySegment buf, final long frame)
    {
        final byte type = buf.get(java.lang.foreign.ValueLayout.JAVA_BYTE, frame);
        return switch (type)
        {
            case Frames.GET -> Frames.fixed(Frames.GET_REPLY) + buf.get(Frames.I32, frame + Frames.HEADER);
            case Frames.AMO -> Frames.fixed(Frames.AMO_REPLY);
            default -> 0;
        };
    }

    // ------------------------------------------------------------------ receiving

    private int receive(final PeerConnection c)
    {
        int work = 0;
        final int queued = c.unsent();
        try
        {
            for (int i = 0; i < READS_PER_PEER; i++)
            {
                // a put's payload from the socket into the heap, and in the same system call what follows it into the
                // (then empty) receive buffer; or the receive buffer alone
                final boolean direct = c.directLeft > 0;
                final int room = c.rx.remaining() + (direct ? c.directLeft : 0);
                final int n;
                if (direct)
                {
                    c.scatter[0] = applier.directTarget(c);
                    c.scatter[1] = c.rx;
                    n = (int)c.channel.read(c.scatter);
                    c.scatter[0] = null;
                }
                else
                {
                    n = c.channel.read(c.rx);
                }
                if (ProxyTrace.ON)
                {
                    trace.count(n > 0 ? ProxyTrace.READ_DATA : ProxyTrace.READ_EMPTY);
                    c.traceReadNs = System.nanoTime();
                }
                if (n < 0)
                {
                    lost(c, "closed by the peer", null);
                    return work;
                }
                if (n == 0)
                {
                    break;
                }
                work++;
                c.lastReceivedNs = now;
                c.lastActiveNs = now;
                if (direct)
                {
                    final int intoHeap = Math.min(n, c.directLeft);
                    applier.directRead(c, intoHeap);
                    if (n > intoHeap)
                    {
                        // the frames after the put: no growing for a full buffer, so large puts keep coming the direct way
                        applier.parse(c, false);
                        if (c.dead)
                        {
                            return work;
                        }
                    }
                    if (n < room)
                    {
                        break; // the socket had no more
                    }
                    continue;
                }
                applier.parse(c, n == room);
                if (c.dead)
                {
                    return work;
                }
                if (n < room && (!c.inbound || c.unsent() > queued))
                {
                    // the socket had no more, and this read brought replies to this PE or requests that want answers:
                    // another read now would most likely be an empty system call before they complete or leave (a stream
                    // of puts reads on, to take what arrived meanwhile with one ACK)
                    break;
                }
            }
        }
        catch (final IOException ex)
        {
            lost(c, "read failed: " + ex.getMessage(), ex);
            return work;
        }
        final boolean replies = c.unsent() > queued;
        if (c.applied != c.ackSent)
        {
            c.ensureTx(Frames.HEADER);
            FrameApplier.header(c, Frames.ACK, 0, 0, 0, c.applied);
            c.ackSent = c.applied;
        }
        if (c.unsent() > 0)
        {
            if (replies || !deferAcks || onAgentThread())
            {
                flush(c);
            }
            else
            {
                // a polling wait read requests that ask for no reply (puts, signals): their ACK leaves at its next poll or
                // the agent's next duty cycle, so the wait sees a signal without first paying a write (on veth a write
                // also runs the peer's TCP receive path)
                ackDeferred = true;
            }
            queueSend(c);
        }
        return work;
    }

    private String state(final PeerConnection c)
    {
        return "requests sent " + c.sent + ", acknowledged " + c.acked + ", in flight " + c.inflight + " bytes, unsent " + c.unsent() +
            " bytes; commands waiting here: " + !ring.isEmpty();
    }

    /** The peer's stream is corrupt: the peer is lost. @return false (what a frame's handler returns to stop). */
    boolean corrupt(final PeerConnection c, final String what)
    {
        lost(c, "sent a corrupt stream (" + what + ")", null);
        return false;
    }

    private void lost(final PeerConnection c, final String why, final Throwable cause)
    {
        if (c.dead)
        {
            return;
        }
        c.dead = true;
        c.closeChannel();
        final PeerConnection[] cur = live;
        live = java.util.Arrays.stream(cur).filter(x -> x != c).toArray(PeerConnection[]::new);
        transport.peerLost(c.pe, why, cause);
    }

    private void timers()
    {
        boolean busy = connector.busy();
        connector.timers(now);
        for (final PeerConnection c : live)
        {
            if (c.dead)
            {
                continue;
            }
            if (!c.inbound && c.owed())
            {
                if (now - c.lastReceivedNs > peerTimeoutNs)
                {
                    lost(c, "silent for " + (now - c.lastReceivedNs) / 1_000_000 + " ms while this PE waited on it " +
                        "(SHMEM_PROXY_PEER_TIMEOUT); " + state(c), null);
                    continue;
                }
                busy = true;
            }
            busy |= c.shrinkIfIdle(now, SHRINK_AFTER_NS);
        }
        timerBusy = busy || connector.busy();
        nextTimer = now + (timerBusy ? busyTimerNs : IDLE_TIMER_NS);
    }

    /** Sleeps in the selector until a peer's bytes, a wake-up or the next timer. */
    void sleep(final boolean blockedOnPeers)
    {
        sleeping = SELECTING;
        try
        {
            if (!ring.isEmpty() && !blockedOnPeers)
            {
                return;
            }
            final long untilTimer = Math.max(1, (nextTimer - System.nanoTime()) / 1_000_000);
            if (ProxyTrace.ON)
            {
                trace.count(ProxyTrace.SELECT);
            }
            selector.select(blockedOnPeers ? 1 : untilTimer);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
        finally
        {
            sleeping = AWAKE;
        }
    }

    /** @return whether a caller ran a duty cycle within {@link #CALLER_FRESH_NS}: it is polling and will send what is posted. */
    boolean callerFresh()
    {
        return System.nanoTime() - callerNs < CALLER_FRESH_NS;
    }

    /**
     * Idle step while a caller polls: parks up to {@link #ASIDE_PARK_NS} (not in the selector, which the peers' bytes
     * would wake although the caller reads them).
     *
     * @return false when no caller polls (the usual idle steps apply).
     */
    boolean standAside()
    {
        if (agentBusy || !callerFresh())
        {
            return false;
        }
        sleeping = ASIDE;
        try
        {
            if (ring.isEmpty())
            {
                LockSupport.parkNanos(ASIDE_PARK_NS);
            }
        }
        finally
        {
            sleeping = AWAKE;
        }
        return true;
    }

    /**
     * A caller whose poll found the agent thread in a transfer parks until the agent's cycle finds nothing more to do, or
     * it applies a peer's signal or atomic (what a wait may be waiting for), or {@link #BACKOFF_PARK_NS}: at a core per PE
     * the waiting thread then leaves the core to the proxy thread instead of spinning beside it.
     *
     * @return 0 (no work done by the caller).
     */
    private int backOff()
    {
        backedOff = Thread.currentThread();
        if (agentBusy) // after publishing itself: pairs with the agent's store of agentBusy before it reads backedOff
        {
            LockSupport.parkNanos(BACKOFF_PARK_NS);
        }
        backedOff = null;
        return 0;
    }

    /** Wakes a caller parked in {@link #backOff()} (agent thread). */
    private void wakeBackedOff()
    {
        final Thread t = backedOff;
        if (t != null)
        {
            LockSupport.unpark(t);
        }
    }

    /**
     * After a caller's duty cycle (a waiting caller's or a poster's): where it left bytes the sockets did not take or commands
     * in the ring, a transfer is under way, and the agent thread drives it from here ({@link #handOver()}); the caller waits,
     * and is unparked by the replies.
     */
    private void handOverIfSending()
    {
        if (unsentLeft || !ring.isEmpty())
        {
            handOver();
        }
    }

    /** A caller's duty cycle left bytes to send or commands in the ring: the agent thread takes the transfer over now. */
    private void handOver()
    {
        agentBusy = true;
        callerNs = System.nanoTime() - 2 * CALLER_FRESH_NS;
        if (sleeping == ASIDE)
        {
            final Thread t = agentThread;
            if (t != null)
            {
                LockSupport.unpark(t);
            }
        }
        else if (sleeping == SELECTING)
        {
            selector.wakeup();
        }
    }

    /** A caller that polled parks now: the agent serves the peers from now on. */
    void callerParks()
    {
        callerNs = System.nanoTime() - 2 * CALLER_FRESH_NS;
        final Thread t = agentThread;
        if (t != null && sleeping == ASIDE)
        {
            LockSupport.unpark(t);
        }
    }

    /** Wakes the agent from either sleep (a full ring, close). */
    void wakeup()
    {
        if (sleeping == ASIDE)
        {
            final Thread t = agentThread;
            if (t != null)
            {
                LockSupport.unpark(t);
            }
        }
        selector.wakeup();
    }

    /** After a post found the agent asleep: wakes it, unless it stands aside for a caller that is polling (which sends it). */
    void wakeupForPost()
    {
        if (ProxyTrace.ON)
        {
            trace.count(ProxyTrace.WAKEUP);
        }
        if (sleeping == ASIDE)
        {
            final Thread t = agentThread;
            if (t != null && !callerFresh())
            {
                LockSupport.unpark(t);
            }
            return;
        }
        selector.wakeup();
    }

    @Override
    public void onClose()
    {
        if (ProxyTrace.ON)
        {
            System.err.println(trace.report(io.jshmem.ShmemException.pePrefix(transport.myPe(), transport.nPes()), transport.myPe()));
        }
        lock.lock(); // no API thread is in a duty cycle while the sockets close, and none starts after
        try
        {
            stopped = true;
            live = new PeerConnection[0];
            sendingRequests.clear();
            sendingReplies.clear();
            connector.close();
        }
        finally
        {
            lock.unlock();
        }
        try
        {
            selector.close();
        }
        catch (final IOException ignore)
        {
            // teardown
        }
        try
        {
            callerSelector.close();
        }
        catch (final IOException ignore)
        {
            // teardown
        }
    }

    /**
     * Spin ({@code spins} polls, each one {@link #doWork} with a non-blocking select), then
     * {@code yields} polls with {@link Thread#yield()}, then sleep in the selector. A PE with nothing in
     * flight uses no CPU but one timer wake-up a second.
     */
    static final class Idle implements IdleStrategy
    {
        private final ProxyAgent agent;
        private final int spins;
        private final int spinsAndYields;
        private int count;

        Idle(final ProxyAgent agent, final int spins, final int yields)
        {
            this.agent = agent;
            this.spins = spins;
            this.spinsAndYields = spins + yields;
        }

        @Override
        public void idle(final int workCount)
        {
            if (workCount > 0)
            {
                count = 0;
                return;
            }
            idle();
        }

        @Override
        public void idle()
        {
            if (agent.standAside())
            {
                return; // a caller polls: one duty cycle per park, for accepts, handshakes and timers
            }
            if (count < spins)
            {
                count++;
                Thread.onSpinWait();
            }
            else if (count < spinsAndYields)
            {
                count++;
                Thread.yield();
            }
            else
            {
                agent.sleep(!agent.ring.isEmpty());
            }
        }

        @Override
        public void reset()
        {
            count = 0;
        }

        @Override
        public String alias()
        {
            return "jshmem-proxy";
        }
    }
}
