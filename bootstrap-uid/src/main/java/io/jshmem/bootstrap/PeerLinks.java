package io.jshmem.bootstrap;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
 * An inbound connection's handshake (authentication and PEER_IDENT) has one deadline
 * ({@link BootstrapSettings#handshakeTimeoutNs()}; an outbound one that times out or is cut is tried
 * again until the collective's deadline), at most
 * {@link BootstrapSettings#maxPendingHandshakes()} wait for it at once, and drops are logged
 * rate-limited, as on the root.
 */
final class PeerLinks implements AutoCloseable
{
    private final byte[] secret;
    private final int rank;
    private final int size;
    private final BootstrapSettings settings;
    private final Consumer<String> log;
    private final Mailbox mailbox;
    private final String threadPrefix;
    private final ServerSocket listener;
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicInteger pending = new java.util.concurrent.atomic.AtomicInteger();
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
        this.listener = Net.listen(advertised, 0);
        start("acceptor", this::acceptLoop);
    }

    int port()
    {
        return listener.getLocalPort();
    }

    void table(final InetSocketAddress[] addresses)
    {
        this.table = addresses;
    }

    private void start(final String name, final Runnable body)
    {
        Threads.start(threadPrefix + name, threads, body);
    }

    private void acceptLoop()
    {
        int n = 0;
        while (!closed)
        {
            final Socket s;
            try
            {
                s = listener.accept();
            }
            catch (final IOException ex)
            {
                return;
            }
            if (pending.get() >= settings.maxPendingHandshakes())
            {
                try
                {
                    s.close();
                }
                catch (final IOException ignore)
                {
                    // dropping it anyway
                }
                drops.drop("dropped connection from " + s.getRemoteSocketAddress() + " on the PE listener: "
                    + settings.maxPendingHandshakes() + " connections are already waiting for authentication");
                continue;
            }
            try
            {
                final Channel ch = new Channel(s);
                pending.incrementAndGet();
                channels.add(ch);
                start("in" + ++n, () -> serve(ch));
            }
            catch (final IOException ex)
            {
                try
                {
                    s.close();
                }
                catch (final IOException ignore)
                {
                    // dropping it anyway
                }
            }
        }
    }

    private void serve(final Channel ch)
    {
        int src = -1;
        boolean handshaking = true;
        try
        {
            ch.handshakeDeadline(settings.handshakeTimeoutNs());
            Auth.server(ch, secret);
            ch.handshakeDeadline(settings.timeoutNs()); // authenticated: its PEER_IDENT may be slow on a loaded machine
            final int claimed = ch.expect(Wire.PEER_IDENT).reader().i32();
            if (claimed < 0 || claimed >= size || claimed == rank)
            {
                throw new java.net.ProtocolException("peer claims rank " + claimed + " (job size " + size + ", this is PE " + rank + ")");
            }
            ch.authenticated();
            src = claimed;
            handshaking = false;
            pending.decrementAndGet();
            Thread.currentThread().setName(threadPrefix + "from" + src);
            while (!closed)
            {
                final Wire.Frame f = ch.expect(Wire.DATA);
                final Wire.Reader r = f.reader();
                final long seq = r.i64();
                final int round = r.i32();
                mailbox.put(src, seq, round, r.bytes());
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            if (src < 0 && !closed)
            {
                drops.drop("dropped connection from " + ch.remote() + " on the PE listener: " + BootstrapRoot.describe(ex));
            }
            // an identified peer closing is normal at the end of a job; losses are reported by the root
        }
        finally
        {
            if (handshaking)
            {
                pending.decrementAndGet();
            }
            ch.close();
            channels.remove(ch);
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
    }
}
