package io.jshmem.bootstrap;

import io.jshmem.JobFailedException;
import io.jshmem.ShmemException;
import io.jshmem.ShmemInitException;
import io.jshmem.ShmemTimeoutException;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The UID/TCP bootstrap of one PE (NVSHMEM's UID bootstrap): phones home to the root named by a
 * {@link UniqueId}, authenticates both ways, receives the address table, then runs allgather and
 * alltoall with Bruck's algorithms, broadcast as a binomial tree and barrier as a dissemination
 * barrier ({@link Collectives}: ⌈log2 N⌉ rounds each) over lazily opened, authenticated PE-to-PE
 * connections. The control channel to the root stays open for the job's life (heartbeats both ways,
 * the store, loss reports, global exit); the root is lost when it closes or when its {@link PeerWatch}
 * says so.
 * <p>
 * Generations: HELLO names {@link BootstrapSettings#generation()}; a root still serving the previous
 * generation (PEs that have not finalized yet, or PE 0's root of the previous init) answers RETRY, and
 * the PE connects again, with backoff, within the same formation deadline. At a later init a root that
 * closes the connection before admitting the PE counts as such an answer too (PE 0's previous root
 * closing while the PE connected); at the first init it is a failure, as always.
 * <p>
 * Threads: collectives from one thread at a time; everything else from any thread. Background
 * threads are daemon and named {@code jshmem-bootstrap-pe<rank>-...}: three whatever the job's size,
 * {@code control} (reads the root's connection), {@code ticker} (heartbeats, failure detection) and
 * {@code links} (the {@link PeerLinks} selector: every inbound peer connection).
 */
public final class UidBootstrap extends AbstractBootstrap
{
    private final UniqueId id;
    private final byte[] secret;
    private final Mailbox mailbox = new Mailbox();
    private final ControlStore store = new ControlStore(this);
    private final PeerLinks links;
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.CompletableFuture<Wire.Reader> welcome = new java.util.concurrent.CompletableFuture<>();
    private final java.util.concurrent.CompletableFuture<List<String>> missing = new java.util.concurrent.CompletableFuture<>();
    private volatile Channel control;
    private volatile Channel connecting;
    private final StallClock stalls = new StallClock(settings.heartbeatNs(), System.nanoTime());
    private final PeerWatch rootWatch = PeerWatch.of(settings, stalls, System.nanoTime());
    private volatile boolean leaving;
    /**
     * The root admitted this PE to its generation (a heartbeat came before the welcome): from then on a closed
     * connection is that root lost, not the root of an earlier init going away.
     */
    private volatile boolean admitted;
    private volatile boolean heartbeatsPaused;
    private volatile BootstrapRoot hostedRoot;
    private String jobId;
    private long seq;

    private UidBootstrap(final UniqueId id, final int rank, final int size, final BootstrapSettings settings) throws IOException
    {
        super(rank, size, settings);
        this.id = id;
        this.secret = id.secret();
        // a root on loopback means a job on this machine: stay on loopback unless an interface is named
        final InetAddress rootAddress = id.rootAddress().getAddress();
        final InetAddress advertised = settings.ifname() == null && rootAddress.isLoopbackAddress() ? rootAddress
            : Net.advertised(settings.ifname(), rootAddress instanceof java.net.Inet6Address ? "AF_INET6" : settings.family());
        this.links = new PeerLinks(secret, rank, size, settings, this::log, mailbox, advertised);
        this.advertised = advertised;
    }

    private final InetAddress advertised;

    @Override
    public InetAddress address()
    {
        return advertised;
    }

    @Override
    public byte[] deriveKey(final String label)
    {
        return Auth.mac(secret, "jshmem-derive:" + label, new byte[0], new byte[0]);
    }

    /**
     * Joins the job whose root {@code id} names, as {@code nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID)}.
     * Returns once every PE has joined and node identity is known.
     *
     * @param id       the job's unique id.
     * @param rank     this PE's rank, 0..size-1.
     * @param size     the number of PEs.
     * @param settings timeouts, interface, exit action...
     * @return the bootstrap, formed.
     * @throws ShmemInitException      if the root rejects this PE (naming why) or authentication fails.
     * @throws ShmemTimeoutException   if the job does not form in time, naming the ranks that never came.
     * @throws JobFailedException      if the job fails while forming.
     */
    public static UidBootstrap connect(final UniqueId id, final int rank, final int size, final BootstrapSettings settings)
    {
        if (size < 1 || rank < 0 || rank >= size)
        {
            throw new IllegalArgumentException("rank " + rank + " outside 0.." + (size - 1) + " (size " + size + ")");
        }
        final long deadline = System.nanoTime() + settings.timeoutNs();
        long backoffMs = 20;
        while (true)
        {
            final UidBootstrap b;
            try
            {
                b = new UidBootstrap(id, rank, size, settings);
            }
            catch (final IOException ex)
            {
                throw new ShmemInitException(ShmemException.pePrefix(rank, size) + "bootstrap: cannot open a listener: " + ex.getMessage(), ex);
            }
            if (settings.launcherPid() > 0)
            {
                b.exitWithLauncher(settings.launcherPid());
            }
            try
            {
                b.form(deadline);
                return b;
            }
            catch (final RetryLater retry)
            {
                b.closeNow(false);
                if (System.nanoTime() + backoffMs * 1_000_000 > deadline)
                {
                    throw new ShmemTimeoutException(b.prefix() + "bootstrap: the job did not form within " + settings.timeoutNs() / 1_000_000
                        + " ms (SHMEM_BOOTSTRAP_TIMEOUT): this PE is at init " + settings.generation() + " of its process, and the root at "
                        + b.where() + " still says: " + retry.getMessage(), new int[0]);
                }
                sleepMs(backoffMs);
                backoffMs = Math.min(500, backoffMs * 2);
            }
            catch (final RuntimeException ex)
            {
                b.closeNow(false);
                throw ex;
            }
        }
    }

    private static final String ROOT_GOING = "the root closed the connection before admitting this PE (at a later init, the root of "
        + "the previous one may be closing, e.g. PE 0's under torchrun; ";

    /** The root serves an earlier generation of the job still: close this attempt and connect again. */
    private static final class RetryLater extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        RetryLater(final String why)
        {
            super(why, null, false, false);
        }
    }

    /** Joins as rank 0 while hosting the root in this process (torchrun, SLURM, MPI modes). */
    static UidBootstrap connectHosting(final BootstrapRoot root, final int size, final BootstrapSettings settings)
    {
        try
        {
            final UidBootstrap b = connect(root.uniqueId(), 0, size, settings);
            b.hostedRoot = root;
            return b;
        }
        catch (final RuntimeException ex)
        {
            root.close();
            throw ex;
        }
    }

    private void form(final long deadline)
    {
        final Channel ch = connectRoot(deadline);
        control = ch;
        startThread("control", () -> readControl(ch));
        sendToRoot(Wire.HELLO, new Wire.Writer().i16(Wire.PROTOCOL_VERSION).i32(rank).i32(size)
            .str(advertised.getHostAddress()).i32(links.port()).i32(settings.generation()).toBytes(), "join");
        startThread("ticker", this::tickLoop);
        Wire.Reader table;
        try
        {
            table = await(welcome, deadline);
        }
        catch (final JobFailedException ex)
        {
            throw formationFailed(ex);
        }
        if (table == null)
        {
            // this PE's own formation deadline: the job fails anyway, so a peer lost meanwhile (one whose own
            // deadline came a moment earlier) must not hide who never connected
            final List<String> m = askMissing();
            final int[] ranks = m == null ? new int[0] : m.stream().mapToInt(Integer::parseInt).toArray();
            final ShmemTimeoutException ex = new ShmemTimeoutException(prefix() + "bootstrap: the job did not form within "
                + settings.timeoutNs() / 1_000_000 + " ms (SHMEM_BOOTSTRAP_TIMEOUT): "
                + (m == null ? "the root did not say who is missing" : "ranks " + m + " never connected to the root at " + where()),
                ranks);
            fail(ex);
            throw ex;
        }
        try
        {
            final int n = table.i32();
            jobId = table.str();
            final InetSocketAddress[] addresses = new InetSocketAddress[n];
            for (int i = 0; i < n; i++)
            {
                final String host = table.str();
                addresses[i] = new InetSocketAddress(InetAddress.getByName(host), table.i32());
            }
            links.table(addresses);
        }
        catch (final IOException ex)
        {
            throw new ShmemInitException(prefix() + "bootstrap: bad address table from the root: " + ex.getMessage(), ex);
        }
        final String me = settings.hostIdentity() != null ? settings.hostIdentity() : Net.hostIdentity();
        final byte[][] all = allgather(me.getBytes(StandardCharsets.UTF_8));
        final String[] hosts = new String[size];
        for (int i = 0; i < size; i++)
        {
            hosts[i] = new String(all[i], StandardCharsets.UTF_8);
        }
        nodes(hosts);
    }

    private String where()
    {
        return id.rootAddress().getAddress().getHostAddress() + ":" + id.rootAddress().getPort();
    }

    /**
     * Connects and authenticates to the root, retrying (with backoff, until the deadline) while it
     * does not listen yet or closes the connection before authenticating (it has too many
     * connections waiting); stops as soon as the job fails (a launcher that ended, say).
     */
    private Channel connectRoot(final long deadline)
    {
        long backoffMs = 20;
        while (true)
        {
            checkFailure("join");
            Channel ch = null;
            try
            {
                // one attempt may take the handshake deadline (the root and this JVM may both be slow to run on a
                // loaded machine); a cut or timed-out attempt is tried again until the formation deadline
                final long attemptNs = Math.max(1, Math.min(settings.handshakeTimeoutNs(), deadline - System.nanoTime()));
                ch = Channel.connect(id.rootAddress(), attemptNs);
                connecting = ch;
                if (failure() != null)
                {
                    ch.close();
                }
                ch.handshakeDeadline(attemptNs);
                Auth.client(ch, secret);
                ch.authenticated();
                connecting = null;
                return ch;
            }
            catch (final ConnectException | Auth.Unheard | java.net.SocketTimeoutException ex)
            {
                connecting = null;
                if (ch != null)
                {
                    ch.close();
                }
                checkFailure("join");
                if (System.nanoTime() + backoffMs * 1_000_000 > deadline)
                {
                    throw new ShmemTimeoutException(prefix() + "bootstrap: cannot reach the root at " + where() + " within "
                        + settings.timeoutNs() / 1_000_000 + " ms: " + ex.getMessage(), new int[0]);
                }
                pause(backoffMs);
                backoffMs = Math.min(500, backoffMs * 2);
            }
            catch (final IOException ex)
            {
                connecting = null;
                if (ch != null)
                {
                    ch.close();
                }
                checkFailure("join");
                if (settings.generation() > 1 && !(ex instanceof java.net.ProtocolException))
                {
                    throw new RetryLater(ROOT_GOING + BootstrapRoot.describe(ex) + ")");
                }
                if (ex instanceof java.net.ProtocolException || System.nanoTime() + backoffMs * 1_000_000 > deadline)
                {
                    throw new ShmemInitException(prefix() + "bootstrap: cannot join the root at " + where() + ": "
                        + BootstrapRoot.describe(ex), ex);
                }
                // the root cut the handshake (its deadline, on a loaded machine) or the connection broke: again
                pause(backoffMs);
                backoffMs = Math.min(500, backoffMs * 2);
            }
        }
    }

    /** Sleeps {@code ms}, waking early (to throw) if the job fails. */
    private void pause(final long ms)
    {
        final long until = System.nanoTime() + ms * 1_000_000;
        while (System.nanoTime() < until)
        {
            checkFailure("join");
            sleepMs(Math.min(20, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
        }
    }

    private static void sleepMs(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new ShmemException("interrupted");
        }
    }

    /**
     * A PE that joined was lost before the job formed (typically it reached its own formation deadline a
     * moment before this PE and left): the news users need is who never connected, so the root is asked
     * and, when ranks are missing, the failure says so as a formation timeout (the loss rides along as a suppressed exception).
     */
    private JobFailedException formationFailed(final JobFailedException lost)
    {
        if (lost instanceof ShmemTimeoutException)
        {
            return lost;
        }
        final List<String> m = askMissing();
        if (m == null || m.isEmpty())
        {
            return lost;
        }
        final ShmemTimeoutException ex = new ShmemTimeoutException(prefix() + "bootstrap: the job did not form: ranks " + m
            + " never connected to the root at " + where() + ", and another PE gave up first ("
            + lost.getMessage().replaceFirst("^\\[pe [^]]*] ", "") + ")",
            m.stream().mapToInt(Integer::parseInt).toArray());
        ex.addSuppressed(lost);
        return ex;
    }

    /**
     * Asks the root which ranks never connected, once the formation has failed (this PE's deadline, or a
     * peer lost while forming): no failure check, only a bound of 2 s.
     *
     * @return the missing ranks, or null if the root did not say.
     */
    private List<String> askMissing()
    {
        try
        {
            control.send(Wire.QUERY_MISSING, new byte[0]);
            return missing.get(2, TimeUnit.SECONDS);
        }
        catch (final IOException | java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException ex)
        {
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private <T> T await(final java.util.concurrent.CompletableFuture<T> f, final long deadline)
    {
        while (true)
        {
            if (!f.isDone())
            {
                checkFailure("join");
            }
            final long left = deadline - System.nanoTime();
            if (left <= 0)
            {
                return null;
            }
            try
            {
                return f.get(Math.min(left, 50_000_000L), TimeUnit.NANOSECONDS);
            }
            catch (final java.util.concurrent.TimeoutException ex)
            {
                // re-check
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new ShmemException(prefix() + "interrupted while joining");
            }
            catch (final java.util.concurrent.ExecutionException ex)
            {
                throw ex.getCause() instanceof RuntimeException re ? re : new ShmemInitException(ex.getMessage(), ex);
            }
        }
    }

    private void startThread(final String name, final Runnable body)
    {
        Threads.start("jshmem-bootstrap-pe" + rank + "-" + name, threads, body);
    }

    private void readControl(final Channel ch)
    {
        try
        {
            while (true)
            {
                final Wire.Frame f = ch.read();
                rootWatch.heard(System.nanoTime(), f.type() == Wire.HEARTBEAT);
                final Wire.Reader r = f.reader();
                switch (f.type())
                {
                    case Wire.HEARTBEAT -> admitted = true; // rootWatch heard it; only members get heartbeats
                    case Wire.WELCOME ->
                    {
                        rootWatch.formed();
                        welcome.complete(r);
                    }
                    case Wire.MISSING -> missing.complete(r.strings());
                    case Wire.RETRY ->
                    {
                        leaving = true; // the root closes next: an early arrival, not a loss
                        welcome.completeExceptionally(new RetryLater(r.str()));
                    }
                    case Wire.REJECT ->
                    {
                        leaving = true; // the root closes next: that is the rejection, not a loss
                        welcome.completeExceptionally(new ShmemInitException(prefix()
                            + "bootstrap: the root at " + where() + " rejected this PE: " + r.str()));
                    }
                    case Wire.KV_RESPONSE -> store.complete(r);
                    case Wire.LOST ->
                    {
                        final int lost = r.i32();
                        final String reason = r.str();
                        fail(new JobFailedException(prefix() + (lost >= 0 ? "PE " + lost + " was lost (" + reason + ")"
                            : "the job failed: " + reason), lost, null));
                    }
                    case Wire.EXIT ->
                    {
                        final int status = r.i32();
                        final int from = r.i32();
                        exitRequested(status, new JobFailedException(prefix() + "PE " + from + " called global exit("
                            + status + ")", from, null));
                    }
                    default -> throw new java.net.ProtocolException("unexpected " + Wire.typeName(f.type()) + " from the root");
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            if (!leaving && !closed())
            {
                if (settings.generation() > 1 && !welcome.isDone() && !admitted && ex instanceof IOException)
                {
                    leaving = true; // a root of an earlier init going away as this PE joined: connect again
                    welcome.completeExceptionally(new RetryLater(ROOT_GOING + BootstrapRoot.describe(ex) + ")"));
                    return;
                }
                fail(new JobFailedException(prefix() + "the bootstrap root at " + where()
                    + " was lost (control channel closed: " + BootstrapRoot.describe(ex) + ")", -1, null));
            }
        }
    }

    private void tickLoop()
    {
        final long period = settings.heartbeatNs();
        while (!closed())
        {
            try
            {
                if (awaitClosed(period))
                {
                    return;
                }
            }
            catch (final InterruptedException ex)
            {
                return;
            }
            stalls.tick(System.nanoTime());
            links.tick();
            if (failure() != null || heartbeatsPaused)
            {
                continue;
            }
            final long now = System.nanoTime();
            // a heartbeat waiting unread in the socket is this PE's reader late (a loaded machine), not the root silent
            if (rootWatch.lost(now) && control.unreadBytes() == 0)
            {
                fail(new JobFailedException(prefix() + "the bootstrap root at " + where() + " was lost (" + rootWatch.describe(now) + ")",
                    -1, null));
                control.close();
            }
            else
            {
                control.trySend(Wire.HEARTBEAT, new byte[0]);
            }
        }
    }

    void sendToRoot(final byte type, final byte[] payload, final String what)
    {
        try
        {
            control.send(type, payload);
        }
        catch (final IOException ex)
        {
            awaitFailure();
            checkFailure(what);
            final JobFailedException f = new JobFailedException(prefix() + "the bootstrap root at " + where()
                + " was lost (" + ex.getMessage() + ")", -1, ex);
            fail(f);
            throw f;
        }
    }

    @Override
    protected void onFailed(final JobFailedException ex)
    {
        final Channel ch = connecting;
        if (ch != null)
        {
            ch.close(); // a handshake in progress ends now
        }
        mailbox.wakeAll();
        store.failAll(ex);
    }



    // ---------------------------------------------------------------- collectives

    private void send(final int peer, final long s, final int round, final byte[] data, final long deadline, final String op)
    {
        try
        {
            links.send(peer, s, round, data, deadline, () -> failure() != null);
        }
        catch (final IOException ex)
        {
            awaitFailure();
            checkFailure(op);
            final JobFailedException f = new JobFailedException(prefix() + op + ": lost the connection to PE " + peer
                + " (" + ex.getMessage() + ")", peer, ex);
            fail(f);
            throw f;
        }
    }

    /** A send failed: give the root a moment to say why (it names the lost PE). */
    private void awaitFailure()
    {
        final long until = System.nanoTime() + Math.min(2_000_000_000L, settings.peerTimeoutNs());
        while (failure() == null && System.nanoTime() < until && !closed())
        {
            sleepMs(10);
        }
    }

    private byte[] recv(final int src, final long s, final int round, final long deadline, final String op)
    {
        try
        {
            return mailbox.take(src, s, round, deadline, () -> failure() == null ? null : wrapFailure(op));
        }
        catch (final Mailbox.Timeout t)
        {
            final ShmemTimeoutException ex = new ShmemTimeoutException(prefix() + op + " timed out after "
                + settings.timeoutNs() / 1_000_000 + " ms (SHMEM_BOOTSTRAP_TIMEOUT) waiting for PE " + src
                + " (round " + round + "); it never arrived", new int[] {src});
            fail(ex);
            throw ex;
        }
    }

    private long begin(final String op)
    {
        if (closed())
        {
            throw new IllegalStateException(prefix() + op + " after close()");
        }
        checkFailure(op);
        return ++seq;
    }

    @Override
    public byte[][] allgather(final byte[] mine)
    {
        final long s = begin("allgather");
        return Collectives.allgather(rank, size, mine, links(s, "allgather"));
    }

    @Override
    public byte[][] alltoall(final byte[][] toEach)
    {
        if (toEach.length != size)
        {
            throw new IllegalArgumentException(prefix() + "alltoall: " + toEach.length + " arrays for " + size + " PEs");
        }
        final long s = begin("alltoall");
        return Collectives.alltoall(rank, size, toEach, links(s, "alltoall"));
    }

    @Override
    public byte[] broadcast(final byte[] data, final int root)
    {
        if (root < 0 || root >= size)
        {
            throw new IllegalArgumentException(prefix() + "broadcast: root " + root + " outside 0.." + (size - 1));
        }
        if (rank == root && data == null)
        {
            throw new IllegalArgumentException(prefix() + "broadcast: null data on the root");
        }
        final long s = begin("broadcast");
        return Collectives.broadcast(rank, size, data, root, links(s, "broadcast from root " + root));
    }

    @Override
    public void barrier()
    {
        final long s = begin("barrier");
        Collectives.barrier(rank, size, links(s, "barrier"));
    }

    /** The messaging of one collective call: sequence number, deadline, failure handling. */
    private Collectives.Links links(final long s, final String op)
    {
        final long deadline = System.nanoTime() + settings.timeoutNs();
        return new Collectives.Links()
        {
            @Override
            public void send(final int peer, final int round, final byte[] data)
            {
                UidBootstrap.this.send(peer, s, round, data, deadline, op);
            }

            @Override
            public byte[] recv(final int src, final int round)
            {
                return UidBootstrap.this.recv(src, s, round, deadline, op);
            }
        };
    }

    @Override
    public KeyValueStore store()
    {
        return store;
    }

    @Override
    public String jobId()
    {
        return jobId;
    }

    @Override
    protected void announceExit(final int status)
    {
        final Channel ch = control;
        if (ch != null)
        {
            ch.trySend(Wire.EXIT, new Wire.Writer().i32(status).toBytes());
        }
    }

    // ---------------------------------------------------------------- test hooks

    /** @return the port of this PE's listener (diagnostics and tests). */
    int listenerPort()
    {
        return links.port();
    }

    /** Test hook: stop heartbeating (a hung PE) while keeping every socket open. */
    void pauseHeartbeatsForTesting()
    {
        heartbeatsPaused = true;
    }

    /** Test hook: close every socket abruptly without saying goodbye (a crashed PE). */
    void crashForTesting()
    {
        leaving = true;
        closeNow(false);
    }

    // ---------------------------------------------------------------- close

    @Override
    public void close()
    {
        closeNow(failure() == null);
    }

    private void closeNow(final boolean farewell)
    {
        if (closed())
        {
            return;
        }
        leaving = true;
        final Channel ch = control;
        if (settings.debug())
        {
            log(String.format("liveness: longest heartbeat interval from the root in the last %d %.2f s, this process's longest stall %.2f s",
                PeerWatch.WINDOW, rootWatch.maxIntervalNs() / 1e9, stalls.maxLateNs() / 1e9));
        }
        if (farewell && ch != null)
        {
            ch.trySend(Wire.LEAVE, new byte[0]);
        }
        final BootstrapRoot root = hostedRoot;
        if (root != null)
        {
            // the others still talk to the root until they leave; do not cut them off
            if (farewell && !root.awaitDone(settings.timeoutNs()))
            {
                log("closing the root before every PE left");
            }
            root.close();
        }
        markClosed();
        mailbox.wakeAll();
        store.failAll(new JobFailedException(prefix() + "bootstrap closed", -1, null));
        if (ch != null)
        {
            ch.close();
        }
        links.close();
        Threads.joinAll(threads, 2000, false);
        joinExitThreads();
    }

    @Override
    public String toString()
    {
        return "UidBootstrap[pe " + rank + "/" + size + " root=" + where() + "]";
    }
}
