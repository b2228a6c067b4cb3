package io.jshmem.bootstrap;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bootstrap root: the listener every PE phones home to, as NVSHMEM's root thread. It checks each
 * PE's version, size and rank (duplicates, out of range), waits for all, sends everyone the address
 * table (so each knows its ring neighbour and the peers its barrier rounds reach), then stays as
 * the hub of the control channel: heartbeats both ways, the key-value store, loss reports and the
 * global-exit relay. A member is lost when its channel closes without LEAVE, or when its {@link PeerWatch}
 * says so (silence past the peer timeout and past what its observed heartbeats make likely). Created by whoever creates the {@link UniqueId}: shmemrun, the application (UID
 * API) or rank 0 (torchrun, SLURM, MPI modes).
 * <p>
 * Threads: two whatever the job's size, both daemon and named {@code jshmem-bootstrap-root<n>-...}:
 * {@code conns}, one {@link Selector} that accepts, runs every connection's handshake as a state
 * machine and reads every member's control channel, and {@code ticker} (heartbeats, failure
 * detection). Writes to a member (answers, WELCOME, LOST, EXIT, heartbeats) are made by the thread that
 * has them to say. Public methods are safe from any thread.
 * <p>
 * Strangers: a connection's authentication has one deadline, {@link BootstrapSettings#handshakeTimeoutNs()}
 * (not the liveness timeout: a PE JVM on a loaded machine may take seconds between its connect and its
 * HELLO), and an authenticated peer's HELLO {@link BootstrapSettings#timeoutNs()}; at most {@link BootstrapSettings#maxPendingHandshakes()}
 * connections wait for it at once, more are closed on arrival (a PE retries); an arrival the admission
 * rejects gets a REJECT and nothing else changes. Drops and rejections are logged, rate-limited
 * ({@link DropLog}).
 * <p>
 * Generations (OpenSHMEM 1.6: init again after the last finalize): every HELLO names the PE's
 * generation, the number of its process's init. The root serves one generation at a time. A PE of the
 * next generation that arrives while PEs of the current one have not left gets RETRY (it connects
 * again); once all have left (farewell, not loss), the root starts the next generation afresh: no
 * member, an empty store, job id {@code <job id>.g<n>}. A root that lives in PE 0's own bootstrap
 * (torchrun, SLURM, MPI modes) ends with its generation and only ever says RETRY to the next one; PE
 * 0's next init hosts the next root on the same address. A job that failed or exited does not start
 * again: its next generation is rejected.
 */
public final class BootstrapRoot implements AutoCloseable
{
    private static final AtomicInteger ROOTS = new AtomicInteger();

    private static final class Member
    {
        final int rank;
        final Channel ch;
        final String host;
        final int port;
        final PeerWatch watch;
        boolean left;
        boolean lost;

        Member(final int rank, final Channel ch, final String host, final int port, final PeerWatch watch)
        {
            this.rank = rank;
            this.ch = ch;
            this.host = host;
            this.port = port;
            this.watch = watch;
        }
    }

    private final BootstrapSettings settings;
    private final byte[] secret;
    private final UniqueId id;
    private final ServerSocketChannel server;
    private final Selector selector;
    /** Connections still in their handshake, in arrival order (the connections thread's). */
    private final Set<Conn> handshaking = new java.util.LinkedHashSet<>();
    private final String logPrefix;
    private final String jobId;
    private final String name;
    private final int expectedSize;
    private final boolean advances;
    private final StoreCore store = new StoreCore();
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final Object lock = new Object();
    private final AtomicInteger pending = new AtomicInteger();
    private final DropLog drops;
    private final StallClock stalls;
    private int size;
    private Member[] members;
    private int joined;
    private boolean formed;
    private int generation;
    private volatile Integer exitStatus;
    private volatile boolean closed;
    private volatile boolean ending;

    private BootstrapRoot(final BootstrapSettings settings, final int expectedSize, final byte[] secret, final InetSocketAddress bind,
        final boolean advances) throws IOException
    {
        this.settings = settings;
        this.expectedSize = expectedSize;
        this.advances = advances;
        this.generation = settings.generation();
        this.secret = secret;
        this.logPrefix = settings.rootLogPrefix() != null ? settings.rootLogPrefix() : "bootstrap: root: ";
        this.jobId = settings.jobId() != null ? settings.jobId() : BootstrapRoot.randomJobId();
        this.name = "jshmem-bootstrap-root" + ROOTS.incrementAndGet();
        this.drops = new DropLog(this::log, "bootstrap root");
        this.stalls = new StallClock(settings.silenceCheckNs(), StallClock.WINDOW * BootstrapSettings.CHECKS_PER_HEARTBEAT, System.nanoTime());
        this.server = Net.listenChannel(bind.getAddress(), bind.getPort());
        try
        {
            this.selector = Selector.open();
            server.register(selector, SelectionKey.OP_ACCEPT);
        }
        catch (final IOException | RuntimeException ex)
        {
            server.close();
            throw ex;
        }
        this.id = UniqueId.of(secret, new InetSocketAddress(bind.getAddress(), server.socket().getLocalPort()));
        if (expectedSize > 0)
        {
            size = expectedSize;
            members = new Member[expectedSize];
        }
        startThread(name + "-conns", this::selectLoop);
        startThread(name + "-ticker", this::tickLoop);
    }

    /**
     * Starts a root with a fresh secret, listening on {@code SHMEM_BOOTSTRAP_UID_SESSION_ID}'s port if
     * set, else an ephemeral one, and advertising the interface and family of the settings.
     *
     * @param settings     timeouts, interface, family, log sink and prefix, job id.
     * @param expectedSize the job size if known (shmemrun), or 0 to take the first PE's word for it.
     * @return the running root.
     */
    public static BootstrapRoot start(final BootstrapSettings settings, final int expectedSize)
    {
        return start(settings, expectedSize, (byte[])null);
    }

    static BootstrapRoot start(final BootstrapSettings settings, final int expectedSize, final byte[] secret)
    {
        InetSocketAddress bind;
        if (settings.sessionId() != null)
        {
            bind = Net.parseHostPort(settings.sessionId(), "SHMEM_BOOTSTRAP_UID_SESSION_ID");
        }
        else
        {
            bind = new InetSocketAddress(Net.advertised(settings.ifname(), settings.family()), 0);
        }
        return start(settings, expectedSize, secret, bind);
    }

    /**
     * Starts a root with a fresh secret on an explicit address (shmemrun binds loopback for a local job).
     *
     * @param settings     timeouts, log sink and prefix, job id.
     * @param expectedSize the job size if known, or 0.
     * @param bind         the address to listen on and advertise; port 0 for an ephemeral one.
     * @return the running root.
     */
    public static BootstrapRoot start(final BootstrapSettings settings, final int expectedSize, final InetSocketAddress bind)
    {
        return start(settings, expectedSize, null, bind);
    }

    static BootstrapRoot start(final BootstrapSettings settings, final int expectedSize, final byte[] secret, final InetSocketAddress bind)
    {
        return start(settings, expectedSize, secret, bind, true);
    }

    /**
     * Starts the root PE 0 hosts for one generation ({@link BootstrapSettings#generation()}): it tells PEs
     * of later generations to retry, and PE 0 closes it when its generation ends.
     */
    static BootstrapRoot startHosted(final BootstrapSettings settings, final int size, final byte[] secret, final InetSocketAddress bind)
    {
        return start(settings, size, secret, bind, false);
    }

    private static BootstrapRoot start(final BootstrapSettings settings, final int expectedSize, final byte[] secret,
        final InetSocketAddress bind, final boolean advances)
    {
        try
        {
            return new BootstrapRoot(settings, expectedSize, secret == null ? UniqueId.randomSecret() : secret.clone(), bind, advances);
        }
        catch (final IOException ex)
        {
            throw new io.jshmem.ShmemInitException("bootstrap: root: cannot listen on " + bind + ": " + ex.getMessage(), ex);
        }
    }

    /** @return a random job id (16 hex digits): every root, and shmemrun for the job it launches, names a job so. */
    public static String randomJobId()
    {
        return java.util.HexFormat.of().formatHex(Entropy.bytes(8));
    }

    /** @return the id naming this root; ship {@link UniqueId#toText()} to the PEs. */
    public UniqueId uniqueId()
    {
        return id;
    }

    /** @return the job id this root hands every PE of the first generation (later ones add {@code .g<n>}). */
    public String jobId()
    {
        return jobId;
    }

    /** @return the generation the root serves now (1 until the job's PEs re-initialize). */
    public int generation()
    {
        synchronized (lock)
        {
            return generation;
        }
    }

    /**
     * @return the job id of a generation: the root's for the first, {@code <job id>.g<n>} for later ones
     *         (so no name of a generation, heap files included, is another's), at most 64 characters.
     */
    static String generationJobId(final String jobId, final int generation)
    {
        if (generation <= 1)
        {
            return jobId;
        }
        final String suffix = ".g" + generation;
        final int keep = Math.min(jobId.length(), 64 - suffix.length());
        return jobId.substring(0, keep) + suffix;
    }

    /** @return connections dropped or rejected so far (strangers, bad handshakes, refused arrivals). */
    public long droppedConnections()
    {
        return drops.total();
    }

    /** @return PEs admitted so far (tests). */
    int joinedForTesting()
    {
        synchronized (lock)
        {
            return joined;
        }
    }

    /** @return connections now waiting for their handshake (at most {@link BootstrapSettings#maxPendingHandshakes()}). */
    int pendingHandshakes()
    {
        return pending.get();
    }

    /** @return the status of a global exit some PE requested, or null. */
    public Integer exitStatus()
    {
        return exitStatus;
    }

    /**
     * The owner (shmemrun) is ending the job itself: keep telling PEs about losses, but stop logging
     * each one (the owner says why the job ends).
     */
    public void ending()
    {
        ending = true;
    }

    /** @return true once every PE has joined. */
    public boolean formed()
    {
        synchronized (lock)
        {
            return formed;
        }
    }

    /**
     * Waits until every PE of a formed job has left, been lost or the job exited.
     *
     * @return true if so before the deadline.
     */
    public boolean awaitDone(final long timeoutNs)
    {
        final long deadline = System.nanoTime() + timeoutNs;
        synchronized (lock)
        {
            while (!done())
            {
                final long left = deadline - System.nanoTime();
                if (left <= 0 || closed)
                {
                    return done();
                }
                try
                {
                    lock.wait(Math.max(1, Math.min(100, left / 1_000_000)));
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return done();
                }
            }
            return true;
        }
    }

    private boolean done()
    {
        if (exitStatus != null)
        {
            return true;
        }
        if (members == null || joined == 0)
        {
            return false;
        }
        for (final Member m : members)
        {
            if (m == null || !(m.left || m.lost))
            {
                return false;
            }
        }
        return true;
    }

    private void log(final String line)
    {
        if (!closed)
        {
            settings.log().accept(logPrefix + line);
        }
    }

    private void startThread(final String threadName, final Runnable body)
    {
        Threads.start(threadName, threads, body);
    }

    /** The connections thread: accepts, runs handshakes, reads every member's frames, drops handshakes past their deadline. */
    private void selectLoop()
    {
        try
        {
            SelectLoop.run(selector, () -> closed, handshaking, this::accept);
        }
        catch (final IOException | java.nio.channels.ClosedSelectorException ex)
        {
            if (!closed)
            {
                log("listener failed: " + describe(ex));
            }
        }
        finally
        {
            for (final Conn c : List.copyOf(handshaking))
            {
                c.end();
            }
        }
    }

    private void accept()
    {
        while (!closed)
        {
            final SocketChannel s;
            try
            {
                s = server.accept();
            }
            catch (final IOException ex)
            {
                // as a blocking listener that stops on an accept error: no spinning on a listener that keeps failing
                if (!closed)
                {
                    log("listener failed: " + ex.getMessage());
                    server.keyFor(selector).cancel();
                }
                return;
            }
            if (s == null)
            {
                return;
            }
            if (handshaking.size() >= settings.maxPendingHandshakes())
            {
                String remote = "?";
                try
                {
                    remote = String.valueOf(s.getRemoteAddress());
                }
                catch (final IOException ignore)
                {
                    // closing it anyway
                }
                closeQuietly(s);
                drops.drop("dropped connection from " + remote + ": " + settings.maxPendingHandshakes()
                    + " connections are already waiting for authentication");
                continue;
            }
            try
            {
                final Conn c = new Conn(new Channel(s));
                channels.add(c.ch);
                c.key = s.register(selector, SelectionKey.OP_READ, c);
                handshaking.add(c);
                pending.set(handshaking.size());
            }
            catch (final IOException | RuntimeException ex)
            {
                closeQuietly(s);
            }
        }
    }

    private static void closeQuietly(final SocketChannel s)
    {
        try
        {
            s.close();
        }
        catch (final IOException ignore)
        {
            // already failing
        }
    }

    /**
     * One connection on the connections thread: its handshake as a state machine (AUTH_HELLO,
     * AUTH_RESPONSE, HELLO), then a member's control channel (heartbeats, store, EXIT, LEAVE).
     */
    private final class Conn implements SelectLoop.Connection
    {
        private static final int AUTH_HELLO = 0;
        private static final int AUTH_RESPONSE = 1;
        private static final int HELLO = 2;
        private static final int MEMBER = 3;

        final Channel ch;
        final FrameReader frames = new FrameReader();
        SelectionKey key;
        int state = AUTH_HELLO;
        long deadlineNs = System.nanoTime() + Math.max(1, settings.handshakeTimeoutNs());
        byte[] nonceC;
        byte[] nonceS;
        Member m;

        Conn(final Channel ch)
        {
            this.ch = ch;
        }

        @Override
        public long handshakeDeadlineNs()
        {
            return deadlineNs;
        }

        @Override
        public void ready(final SelectionKey key)
        {
            read();
        }

        @Override
        public void expire(final SocketTimeoutException reason)
        {
            fail(reason);
        }

        /** Takes every whole frame that has arrived. */
        void read()
        {
            try
            {
                while (true)
                {
                    final Wire.Frame f = frames.next(ch.selectable());
                    if (f == null)
                    {
                        return;
                    }
                    if (!frame(f))
                    {
                        end();
                        return;
                    }
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                fail(ex);
            }
        }

        /** @return false once the connection is over (a PE that got RETRY or REJECT). */
        private boolean frame(final Wire.Frame f) throws IOException
        {
            switch (state)
            {
                case AUTH_HELLO ->
                {
                    nonceC = Auth.serverHello(expect(f, Wire.AUTH_HELLO));
                    nonceS = Auth.nonce();
                    state = AUTH_RESPONSE;
                    ch.send(Wire.AUTH_CHALLENGE, Auth.serverChallenge(secret, nonceC, nonceS));
                }
                case AUTH_RESPONSE ->
                {
                    expect(f, Wire.AUTH_RESPONSE);
                    Auth.serverCheck(f.payload(), secret, nonceC, nonceS);
                    state = HELLO;
                    // the peer knows the secret: its HELLO may take as long as the job may take to form (a PE JVM starved on a
                    // loaded machine took more than 30 s between its AUTH_OK and its HELLO); strangers never get here
                    deadlineNs = System.nanoTime() + Math.max(1, settings.timeoutNs());
                    ch.send(Wire.AUTH_OK, new byte[0]);
                }
                case HELLO ->
                {
                    handshaking.remove(this);
                    pending.set(handshaking.size());
                    m = hello(ch, expect(f, Wire.HELLO));
                    if (m == null)
                    {
                        return false;
                    }
                    frames.authenticated();
                    state = MEMBER;
                }
                default ->
                {
                    m.watch.heard(System.nanoTime(), f.type() == Wire.HEARTBEAT);
                    dispatch(m, f);
                }
            }
            return true;
        }

        private Wire.Reader expect(final Wire.Frame f, final byte type) throws java.net.ProtocolException
        {
            if (f.type() != type)
            {
                throw new java.net.ProtocolException("expected " + Wire.typeName(type) + ", got " + Wire.typeName(f.type()));
            }
            return f.reader();
        }

        /** The connection failed: a stranger's drop is logged (rate-limited), a member is gone. */
        void fail(final Exception ex)
        {
            if (m == null)
            {
                if (!closed)
                {
                    drops.drop("dropped connection from " + ch.remote() + ": " + describe(ex));
                }
            }
            else
            {
                gone(m, "control channel closed");
            }
            end();
        }

        void end()
        {
            handshaking.remove(this);
            pending.set(handshaking.size());
            if (key != null)
            {
                key.cancel();
            }
            ch.close();
            channels.remove(ch);
        }
    }

    static String describe(final Exception ex)
    {
        if (ex instanceof EOFException)
        {
            return "connection closed mid-frame or before authentication (truncated)";
        }
        if (ex instanceof SocketTimeoutException)
        {
            if (ex.getMessage() != null && ex.getMessage().contains("connect"))
            {
                return ex.getMessage(); // "Connect timed out": nothing answered
            }
            return "silent past the handshake deadline (the whole handshake must finish within SHMEM_BOOTSTRAP_HANDSHAKE_TIMEOUT)";
        }
        return ex.getMessage() == null ? ex.toString() : ex.getMessage();
    }

    /** Admits a PE (null if rejected: it got a REJECT, the job is untouched). Sends WELCOME to all once complete. */
    private Member hello(final Channel ch, final Wire.Reader r) throws IOException
    {
        final int version = r.i16();
        final int rank = r.i32();
        final int peSize = r.i32();
        final String host = r.str();
        final int port = r.i32();
        final int peGeneration = version == Wire.PROTOCOL_VERSION ? r.i32() : 0;
        String reject = null;
        String retry = null;
        final Member m;
        final boolean complete;
        final String welcomeJobId;
        synchronized (lock)
        {
            if (version == Wire.PROTOCOL_VERSION && peGeneration != generation)
            {
                final String turn = turn(rank, peGeneration);
                if (turn != null && turn.startsWith(RETRY))
                {
                    retry = turn.substring(RETRY.length());
                }
                else
                {
                    reject = turn;
                }
            }
            if (reject == null && retry == null)
            {
                reject = Admission.check(version, rank, peSize, size, expectedSize, formed, taken());
            }
            welcomeJobId = generationJobId(jobId, generation);
            if (reject == null && retry == null)
            {
                if (members == null)
                {
                    size = peSize;
                    members = new Member[peSize];
                }
                ch.authenticated();
                m = new Member(rank, ch, host, port, PeerWatch.of(settings, stalls, System.nanoTime()));
                members[rank] = m;
                joined++;
                complete = joined == size;
                formed = complete;
            }
            else
            {
                m = null;
                complete = false;
            }
        }
        if (retry != null)
        {
            ch.trySend(Wire.RETRY, new Wire.Writer().str(retry).toBytes());
            return null;
        }
        if (reject != null)
        {
            drops.drop("rejected " + ch.remote() + ": " + reject);
            ch.trySend(Wire.REJECT, new Wire.Writer().str(reject).toBytes());
            return null;
        }
        if (!complete)
        {
            // admitted to this generation: the member's first heartbeat says so, so that a root lost while the PE
            // waits for the others is a failure for it, not the root of an earlier init going away (a retry)
            m.ch.trySend(Wire.HEARTBEAT, new byte[0]);
        }
        else
        {
            final Wire.Writer w = new Wire.Writer().i32(size).str(welcomeJobId);
            for (final Member each : members)
            {
                w.str(each.host).i32(each.port);
            }
            final byte[] welcome = w.toBytes();
            for (final Member each : members)
            {
                each.watch.formed();
                each.ch.trySend(Wire.WELCOME, welcome);
            }
        }
        return m;
    }

    private static final String RETRY = "retry:";

    /**
     * Decides about a PE of another generation than the current one; under the lock. Starts the next
     * generation when that is due.
     *
     * @return null to go on to admission (the root now serves the PE's generation), {@link #RETRY} and why
     *         for a PE that is early, or why the PE is rejected.
     */
    private String turn(final int rank, final int peGeneration)
    {
        if (peGeneration < generation)
        {
            return "PE " + rank + " is at init " + peGeneration + " of its process, but the job is at init " + generation
                + ": its PEs finalized and initialized again without this PE";
        }
        if (peGeneration > generation + 1)
        {
            return "PE " + rank + " is at init " + peGeneration + " of its process, but the job is at init " + generation
                + ": a PE cannot skip an init of the others";
        }
        if (exitStatus != null)
        {
            return "PE " + rank + " initialized again (init " + peGeneration + "), but the job called global exit("
                + exitStatus + ") during init " + generation;
        }
        final List<Integer> lost = new ArrayList<>();
        final List<Integer> in = new ArrayList<>();
        if (members != null)
        {
            for (int i = 0; i < members.length; i++)
            {
                if (members[i] == null || !members[i].left)
                {
                    (members[i] != null && members[i].lost ? lost : in).add(i);
                }
            }
        }
        if (!lost.isEmpty())
        {
            return "PE " + rank + " initialized again (init " + peGeneration + "), but init " + generation
                + " of the job failed (PEs " + lost + " were lost): a failed job does not start again";
        }
        if (!formed)
        {
            return RETRY + "the job's init " + generation + " has not formed yet" + (in.isEmpty() ? "" : " (waiting for PEs " + in + ")");
        }
        if (!in.isEmpty())
        {
            return RETRY + "the job's init " + generation + " has not ended: PEs " + in + " have not finalized yet";
        }
        if (!advances)
        {
            return RETRY + "this root (hosted by PE 0) serves init " + generation + " only; PE 0 hosts the next one";
        }
        generation = peGeneration;
        size = expectedSize;
        members = expectedSize > 0 ? new Member[expectedSize] : null;
        joined = 0;
        formed = false;
        store.clear();
        if (settings.debug())
        {
            log("init " + generation + " of the job begins (PE " + rank + " arrived)");
        }
        return null;
    }

    /** @return the remote address holding each rank (null: free), or null before the first PE; under the lock. */
    private String[] taken()
    {
        if (members == null)
        {
            return null;
        }
        final String[] out = new String[members.length];
        for (int i = 0; i < members.length; i++)
        {
            out[i] = members[i] == null ? null : members[i].ch.remote();
        }
        return out;
    }

    private List<Member> live(final int except)
    {
        final List<Member> out = new ArrayList<>();
        if (members != null)
        {
            for (final Member x : members)
            {
                if (x != null && x.rank != except && !x.left && !x.lost)
                {
                    out.add(x);
                }
            }
        }
        return out;
    }

    private void dispatch(final Member m, final Wire.Frame f) throws IOException
    {
        switch (f.type())
        {
            case Wire.HEARTBEAT ->
            {
                // its watch heard it already
            }
            case Wire.QUERY_MISSING ->
            {
                final List<String> missing = new ArrayList<>();
                synchronized (lock)
                {
                    for (int i = 0; i < size; i++)
                    {
                        if (members[i] == null)
                        {
                            missing.add(Integer.toString(i));
                        }
                    }
                }
                m.ch.send(Wire.MISSING, new Wire.Writer().strings(missing).toBytes());
            }
            case Wire.KV_REQUEST -> RootStoreHandler.handle(store, m.ch, f.reader());
            case Wire.EXIT ->
            {
                final int status = f.reader().i32();
                final List<Member> others;
                synchronized (lock)
                {
                    if (exitStatus == null)
                    {
                        exitStatus = status;
                    }
                    m.left = true;
                    others = live(m.rank);
                    lock.notifyAll();
                }
                log("PE " + m.rank + " called global exit(" + status + "); telling " + others.size() + " other PEs");
                final byte[] msg = new Wire.Writer().i32(status).i32(m.rank).toBytes();
                others.forEach(x -> x.ch.trySend(Wire.EXIT, msg));
            }
            case Wire.LEAVE ->
            {
                synchronized (lock)
                {
                    m.left = true;
                    lock.notifyAll();
                }
                store.cancel(m.ch);
            }
            default -> throw new java.net.ProtocolException("unexpected " + Wire.typeName(f.type()) + " from PE " + m.rank);
        }
    }

    private void gone(final Member m, final String reason)
    {
        store.cancel(m.ch);
        final List<Member> others;
        synchronized (lock)
        {
            if (m.left || m.lost || closed || exitStatus != null)
            {
                m.left = true;
                lock.notifyAll();
                return;
            }
            m.lost = true;
            others = live(m.rank);
            lock.notifyAll();
        }
        m.ch.close(); // its key goes with it: the connections thread will not see it again
        channels.remove(m.ch);
        if (!ending)
        {
            log("PE " + m.rank + " was lost (" + reason + "); telling " + others.size() + " other PEs");
        }
        final byte[] msg = new Wire.Writer().i32(m.rank).str(reason).toBytes();
        others.forEach(x -> x.ch.trySend(Wire.LOST, msg));
    }

    private void tickLoop()
    {
        // silence is checked every tick, heartbeats go out every CHECKS_PER_HEARTBEAT-th
        final long period = settings.silenceCheckNs();
        int tick = 0;
        while (!closed)
        {
            try
            {
                Thread.sleep(period / 1_000_000, (int)(period % 1_000_000));
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            final long lateNs = stalls.tick(System.nanoTime());
            if (lateNs > settings.peerTimeoutNs() / 2 && settings.debug())
            {
                log(String.format("this process stalled %.1f s (its ticker woke late); not counted as the PEs' silence", lateNs / 1e9));
            }
            drops.tick();
            final List<Member> live;
            synchronized (lock)
            {
                live = live(-1);
            }
            final long now = System.nanoTime();
            final boolean beat = tick++ % BootstrapSettings.CHECKS_PER_HEARTBEAT == 0;
            for (final Member m : live)
            {
                // a heartbeat waiting unread in the socket is the connections thread late, not the PE silent
                if (m.watch.lost(now) && m.ch.unreadBytes() == 0)
                {
                    gone(m, m.watch.describe(now));
                }
                else if (beat)
                {
                    m.ch.trySend(Wire.HEARTBEAT, new byte[0]);
                }
            }
        }
    }

    /** SHMEM_DEBUG: how close the job came to a false loss (the longest heartbeat interval seen, this process's longest stall). */
    private void logLiveness()
    {
        final Member[] all;
        synchronized (lock)
        {
            all = members == null ? new Member[0] : members.clone();
        }
        long max = 0;
        int who = -1;
        for (final Member m : all)
        {
            if (m != null && m.watch.maxIntervalNs() > max)
            {
                max = m.watch.maxIntervalNs();
                who = m.rank;
            }
        }
        log(String.format("liveness: longest heartbeat interval in the last %d from a PE %.2f s (PE %d), this process's longest stall %.2f s",
            PeerWatch.WINDOW, max / 1e9, who, stalls.maxLateNs() / 1e9));
    }

    /** Stops listening and closes every connection and thread. Idempotent. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        if (settings.debug())
        {
            logLiveness();
        }
        closed = true;
        synchronized (lock)
        {
            lock.notifyAll();
        }
        selector.wakeup();
        try
        {
            server.close();
        }
        catch (final IOException ignore)
        {
            // closing anyway
        }
        channels.forEach(Channel::close);
        Threads.joinAll(threads, 2000, true);
        try
        {
            selector.close();
        }
        catch (final IOException ignore)
        {
            // closing anyway
        }
    }

    @Override
    public String toString()
    {
        final InetAddress a = id.rootAddress().getAddress();
        return "BootstrapRoot[" + a.getHostAddress() + ":" + id.rootAddress().getPort() + " job=" + jobId + "]";
    }
}
