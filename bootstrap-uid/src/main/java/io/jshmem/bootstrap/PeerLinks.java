package io.jshmem.bootstrap;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * This PE's connections to other PEs: a listener whose inbound connections (after mutual
 * authentication and a {@code PEER_IDENT}) feed the {@link Mailbox}, and outbound connections opened
 * lazily the first time a collective sends to a peer (the 2^k peers of the log-round algorithms).
 * <pre>
 *   PEER_IDENT rank(int)                      first frame after authentication
 *   DATA       seq(long) round(int) bytes     one collective message
 * </pre>
 * One thread, {@code jshmem-bootstrap-pe<rank>-links}, serves the listener and every inbound
 * connection through a {@link Selector}: it accepts, runs each handshake as a state machine
 * (AUTH_HELLO, AUTH_RESPONSE, PEER_IDENT) and reads DATA frames into the mailbox, so a PE's threads do
 * not grow with the job (the collectives' log2 N partners connect to it). Outbound connections are
 * written by the collective's own thread and need none.
 * <p>
 * An inbound connection's handshake has one deadline until it is authenticated
 * ({@link BootstrapSettings#handshakeTimeoutNs()}, however the bytes are split) and
 * {@link BootstrapSettings#timeoutNs()} from then until its PEER_IDENT; frames are limited to
 * {@link Wire#MAX_HANDSHAKE_FRAME} until then and {@link Wire#MAX_FRAME} after. At most
 * {@link BootstrapSettings#maxPendingHandshakes()} wait for it at once (more are closed at accept), and
 * drops are logged rate-limited, as on the root. An outbound one that times out or is cut is tried again
 * until the collective's deadline.
 */
final class PeerLinks implements AutoCloseable
{
    private static final int HELLO = 0;
    private static final int RESPONSE = 1;
    private static final int IDENT = 2;
    private static final int DATA = 3;

    private final byte[] secret;
    private final int rank;
    private final int size;
    private final BootstrapSettings settings;
    private final Consumer<String> log;
    private final Mailbox mailbox;
    private final String threadPrefix;
    private final ServerSocketChannel listener;
    private final Selector selector;
    /** Outbound connections (the collectives' threads write them). */
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    /** Inbound connections (the selector thread's; here so close can close them whatever that thread does). */
    private final Set<Inbound> inbound = ConcurrentHashMap.newKeySet();
    /** Inbound connections still in their handshake, in arrival order (selector thread only). */
    private final Set<Inbound> handshaking = new LinkedHashSet<>();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final DropLog drops;
    private final Channel[] outbound;
    private final Object[] connectLocks;
    private volatile InetSocketAddress[] table;
    private volatile boolean closed;

    PeerLinks(final byte[] secret, final int rank, final int size, final BootstrapSettings settings,
        final Consumer<String> log, final Mailbox mailbox, final java.net.InetAddress advertised) throws IOException
    {
        this.secret = secret;
        this.rank = rank;
        this.size = size;
        this.settings = settings;
        this.log = log;
        this.mailbox = mailbox;
        this.drops = new DropLog(log, "PE listener");
        this.threadPrefix = "jshmem-bootstrap-pe" + rank + "-";
        this.outbound = new Channel[size];
        this.connectLocks = new Object[size];
        for (int i = 0; i < size; i++)
        {
            connectLocks[i] = new Object();
        }
        this.listener = Net.listenChannel(advertised, 0);
        try
        {
            this.selector = Selector.open();
            listener.register(selector, SelectionKey.OP_ACCEPT);
        }
        catch (final IOException | RuntimeException ex)
        {
            listener.close();
            throw ex;
        }
        Threads.start(threadPrefix + "links", threads, this::selectLoop);
    }

    int port()
    {
        return listener.socket().getLocalPort();
    }

    void table(final InetSocketAddress[] addresses)
    {
        this.table = addresses;
    }

    /** The links thread: accepts, runs handshakes, reads DATA, drops handshakes past their deadline. */
    private void selectLoop()
    {
        try
        {
            SelectLoop.run(selector, () -> closed, handshaking, this::accept);
        }
        catch (final IOException | ClosedSelectorException ex)
        {
            if (!closed)
            {
                log.accept("bootstrap: PE listener stopped: " + BootstrapRoot.describe(ex));
            }
        }
        finally
        {
            inbound.forEach(Inbound::close);
            handshaking.clear();
        }
    }

    private void accept()
    {
        while (!closed)
        {
            final SocketChannel sc;
            try
            {
                sc = listener.accept();
            }
            catch (final IOException ex)
            {
                // as a blocking listener that stops on an accept error: no spinning on a listener that keeps failing
                if (!closed)
                {
                    log.accept("bootstrap: PE listener stopped accepting: " + BootstrapRoot.describe(ex));
                    listener.keyFor(selector).cancel();
                }
                return;
            }
            if (sc == null)
            {
                return;
            }
            String remote = "?";
            try
            {
                remote = String.valueOf(sc.getRemoteAddress());
                if (handshaking.size() >= settings.maxPendingHandshakes())
                {
                    sc.close();
                    drops.drop("dropped connection from " + remote + " on the PE listener: "
                        + settings.maxPendingHandshakes() + " connections are already waiting for authentication");
                    continue;
                }
                sc.configureBlocking(false);
                sc.setOption(StandardSocketOptions.TCP_NODELAY, true);
                sc.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
                final Inbound c = new Inbound(sc, remote);
                c.key = sc.register(selector, SelectionKey.OP_READ, c);
                inbound.add(c);
                handshaking.add(c);
            }
            catch (final IOException | RuntimeException ex)
            {
                try
                {
                    sc.close();
                }
                catch (final IOException ignore)
                {
                    // dropping it anyway
                }
            }
        }
    }

    /** Ends a connection; one that never said who it is is logged (rate-limited). */
    private void drop(final Inbound c, final Exception ex)
    {
        if (c.src < 0 && !closed)
        {
            drops.drop("dropped connection from " + c.remote + " on the PE listener: " + BootstrapRoot.describe(ex));
        }
        // an identified peer closing is normal at the end of a job; losses are reported by the root
        c.close();
    }

    /** One inbound connection, its handshake state and its partial frame (selector thread only). */
    private final class Inbound implements SelectLoop.Connection
    {
        private final SocketChannel sc;
        private final String remote;
        private final FrameReader frames = new FrameReader();
        private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
        private SelectionKey key;
        private int state = HELLO;
        private long deadlineNs = System.nanoTime() + Math.max(1, settings.handshakeTimeoutNs());
        private byte[] nonceC;
        private byte[] nonceS;
        private int src = -1;

        Inbound(final SocketChannel sc, final String remote)
        {
            this.sc = sc;
            this.remote = remote;
        }

        @Override
        public long handshakeDeadlineNs()
        {
            return deadlineNs;
        }

        /** Flushes what waits to be written, then reads; a failure drops the connection. */
        @Override
        public void ready(final SelectionKey k)
        {
            try
            {
                if (k.isWritable())
                {
                    flush();
                }
                if (k.isValid() && k.isReadable())
                {
                    read();
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                drop(this, ex);
            }
        }

        @Override
        public void expire(final SocketTimeoutException reason)
        {
            drop(this, reason);
        }

        /** Reads what has arrived, handling every whole frame. */
        void read() throws IOException
        {
            while (sc.isOpen())
            {
                final Wire.Frame f;
                try
                {
                    f = frames.next(sc);
                }
                catch (final EOFException ex)
                {
                    if (src < 0)
                    {
                        throw ex; // during the handshake: logged as truncated
                    }
                    close(); // an identified peer leaving (mid-frame too: it died; the root reports losses)
                    return;
                }
                if (f == null)
                {
                    return;
                }
                frame(f);
            }
        }

        private Wire.Reader expect(final Wire.Frame f, final byte type) throws ProtocolException
        {
            if (f.type() != type)
            {
                throw new ProtocolException("expected " + Wire.typeName(type) + ", got " + Wire.typeName(f.type()));
            }
            return f.reader();
        }

        private void frame(final Wire.Frame f) throws IOException
        {
            switch (state)
            {
                case HELLO ->
                {
                    nonceC = Auth.serverHello(expect(f, Wire.AUTH_HELLO));
                    nonceS = Auth.nonce();
                    state = RESPONSE;
                    send(Wire.AUTH_CHALLENGE, Auth.serverChallenge(secret, nonceC, nonceS));
                }
                case RESPONSE ->
                {
                    Auth.serverCheck(expect(f, Wire.AUTH_RESPONSE).raw(f.payload().length), secret, nonceC, nonceS);
                    state = IDENT;
                    // authenticated: its PEER_IDENT may be slow on a loaded machine
                    deadlineNs = System.nanoTime() + Math.max(1, settings.timeoutNs());
                    send(Wire.AUTH_OK, new byte[0]);
                }
                case IDENT ->
                {
                    final int claimed = expect(f, Wire.PEER_IDENT).i32();
                    if (claimed < 0 || claimed >= size || claimed == rank)
                    {
                        throw new ProtocolException("peer claims rank " + claimed + " (job size " + size + ", this is PE " + rank + ")");
                    }
                    src = claimed;
                    state = DATA;
                    frames.authenticated();
                    handshaking.remove(this);
                }
                default ->
                {
                    final Wire.Reader r = expect(f, Wire.DATA);
                    final long seq = r.i64();
                    final int round = r.i32();
                    mailbox.put(src, seq, round, r.bytes());
                }
            }
        }

        /** Queues a frame (handshake answers: small, the peer waits for each) and writes what the socket takes. */
        private void send(final byte type, final byte[] payload) throws IOException
        {
            out.add(ByteBuffer.allocate(5 + payload.length).putInt(payload.length + 1).put(type).put(payload).flip());
            flush();
        }

        void flush() throws IOException
        {
            while (!out.isEmpty())
            {
                sc.write(out.peek());
                if (out.peek().hasRemaining())
                {
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return;
                }
                out.poll();
            }
            key.interestOps(SelectionKey.OP_READ);
        }

        void close()
        {
            inbound.remove(this);
            handshaking.remove(this);
            if (key != null)
            {
                key.cancel();
            }
            try
            {
                sc.close();
            }
            catch (final IOException ignore)
            {
                // closing anyway
            }
        }
    }

    /**
     * Sends one collective message to {@code peer}, connecting first if needed.
     *
     * @param deadline the collective's deadline: a connect or handshake that times out or is cut (the peer's
     *                 JVM slow to run on a loaded machine) is tried again until then.
     * @param failed   true once the job failed (stop trying).
     */
    void send(final int peer, final long seq, final int round, final byte[] data, final long deadline,
        final java.util.function.BooleanSupplier failed) throws IOException
    {
        final byte[] payload = new Wire.Writer().i64(seq).i32(round).bytes(data).toBytes();
        connection(peer, deadline, failed).send(Wire.DATA, payload);
    }

    private Channel connection(final int peer, final long deadline, final java.util.function.BooleanSupplier failed) throws IOException
    {
        synchronized (connectLocks[peer])
        {
            long backoffMs = 20;
            while (outbound[peer] == null)
            {
                if (closed)
                {
                    throw new IOException("bootstrap closed");
                }
                final InetSocketAddress a = table[peer];
                Channel ch = null;
                try
                {
                    final long attemptNs = Math.max(1, Math.min(settings.handshakeTimeoutNs(), deadline - System.nanoTime()));
                    ch = Channel.connect(a, attemptNs);
                    channels.add(ch);
                    ch.handshakeDeadline(attemptNs);
                    Auth.client(ch, secret);
                    ch.authenticated();
                    ch.send(Wire.PEER_IDENT, new Wire.Writer().i32(rank).toBytes());
                    outbound[peer] = ch;
                }
                catch (final IOException | RuntimeException ex)
                {
                    if (ch != null)
                    {
                        ch.close();
                        channels.remove(ch);
                    }
                    final boolean again = ex instanceof IOException && !(ex instanceof java.net.ProtocolException)
                        && !closed && !failed.getAsBoolean() && System.nanoTime() + backoffMs * 1_000_000 < deadline;
                    if (!again)
                    {
                        throw new IOException("cannot connect to PE " + peer + " at " + a + ": " + BootstrapRoot.describe(ex), ex);
                    }
                    try
                    {
                        Thread.sleep(backoffMs);
                    }
                    catch (final InterruptedException ie)
                    {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted while connecting to PE " + peer, ie);
                    }
                    backoffMs = Math.min(500, backoffMs * 2);
                }
            }
            return outbound[peer];
        }
    }

    /** Ends the drop log's interval if it is over (called by the PE's ticker). */
    void tick()
    {
        drops.tick();
    }

    @Override
    public void close()
    {
        closed = true;
        selector.wakeup();
        try
        {
            listener.close();
        }
        catch (final IOException ignore)
        {
            // closing anyway
        }
        channels.forEach(Channel::close);
        Threads.joinAll(threads, 2000, false);
        // the links thread closed the inbound connections as it ended; these are any it could not reach
        inbound.forEach(c ->
        {
            try
            {
                c.sc.close();
            }
            catch (final IOException ignore)
            {
                // closing anyway
            }
        });
        try
        {
            selector.close();
        }
        catch (final IOException ignore)
        {
            // closing anyway
        }
    }
}
