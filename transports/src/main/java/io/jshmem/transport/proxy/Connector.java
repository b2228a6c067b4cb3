package io.jshmem.transport.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Wire-up on first use, run by the proxy agent in its own selector (no thread of its own): dials a peer
 * when the first command to it arrives, and accepts peers on the listener for the whole job. Both
 * sides are non-blocking state machines (TCP connect, then {@link Handshake}), each with a deadline of
 * its own ({@code SHMEM_BOOTSTRAP_TIMEOUT}), so a slow or silent peer, or a stranger, never holds up the
 * agent's service of the others. A dial that fails transiently (no route yet, reset, timed out) is
 * retried with backoff until its deadline; a refused connection (the peer's listener is gone) or a
 * failed authentication fails at once; either way the job fails naming the peer and its address.
 * Agent thread only (or an API thread holding the agent's lock).
 */
final class Connector
{
    private static final long FIRST_RETRY_NS = 20_000_000L;
    private static final long MAX_RETRY_NS = 1_000_000_000L;
    private static final PeerConnection[] NO_CONNECTIONS = new PeerConnection[0];

    /** An accepted connection still in its handshake (its peer's rank is not yet known). */
    private static final class Accepting
    {
        final SocketChannel channel;
        final Handshake handshake;
        final long deadlineNs;
        SelectionKey key;

        Accepting(final SocketChannel channel, final Handshake handshake, final long deadlineNs)
        {
            this.channel = channel;
            this.handshake = handshake;
            this.deadlineNs = deadlineNs;
        }
    }

    private final ProxyTransport transport;
    private final ProxyAgent agent;
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final byte[] key;
    private final int me;
    private final long timeoutNs;
    private final PeerConnection[] dialed;
    private final PeerConnection[] accepted;
    private final List<PeerConnection> dialing = new ArrayList<>();
    private final List<Accepting> accepting = new ArrayList<>();

    Connector(final ProxyTransport transport, final ProxyAgent agent, final Selector selector, final ServerSocketChannel listener,
        final byte[] key, final int me, final int n, final long timeoutNs) throws IOException
    {
        this.transport = transport;
        this.agent = agent;
        this.selector = selector;
        this.listener = listener;
        this.key = key;
        this.me = me;
        this.timeoutNs = timeoutNs;
        this.dialed = new PeerConnection[n];
        this.accepted = new PeerConnection[n];
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT, this);
    }

    /** @return this PE's connection for requests to {@code pe}, dialed now if there is none yet. */
    PeerConnection dialed(final int pe, final long now)
    {
        PeerConnection c = dialed[pe];
        if (c == null)
        {
            c = new PeerConnection(pe, false, now);
            c.connecting = true;
            c.endpoint = transport.endpointOf(pe);
            c.deadlineNs = now + timeoutNs;
            dialed[pe] = c;
            dialing.add(c);
            startDial(c, now);
            agent.armTimer();
            if (!agent.onAgentThread())
            {
                selector.wakeup(); // the agent thread may sleep in a select that does not yet watch this channel
            }
        }
        return c;
    }

    PeerConnection[] dialedConnections()
    {
        return dialed;
    }

    PeerConnection[] acceptedConnections()
    {
        return accepted;
    }

    /** @return whether dials or handshakes are under way (their deadlines need the timer). */
    boolean busy()
    {
        return !dialing.isEmpty() || !accepting.isEmpty();
    }

    private void startDial(final PeerConnection c, final long now)
    {
        c.retryAtNs = 0;
        c.handshake = null;
        try
        {
            final InetSocketAddress to = transport.addressOf(c.pe);
            final SocketChannel ch = SocketChannel.open();
            c.channel = ch;
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ProxyTransport.socketBuffers(ch);
            final boolean done = ch.connect(to);
            c.key = ch.register(selector, done ? 0 : SelectionKey.OP_CONNECT, c);
            if (done)
            {
                stepDial(c, now);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            dialFailed(c, ex, now);
        }
    }

    /** Moves a dial on (its key is ready, or a waiting thread polls it); @return 1 when it moved. */
    int stepDial(final PeerConnection c, final long now)
    {
        if (c.dead || !c.connecting || c.channel == null)
        {
            return 0;
        }
        try
        {
            if (c.handshake == null)
            {
                if (!c.channel.finishConnect())
                {
                    return 0;
                }
                c.handshake = Handshake.client(key, me, c.pe);
            }
            if (c.handshake.step(c.channel))
            {
                c.handshake = null;
                c.connecting = false;
                dialing.remove(c);
                agent.opened(c);
            }
            else
            {
                c.key.interestOps(c.handshake.interestOps());
            }
            return 1;
        }
        catch (final IOException | RuntimeException ex)
        {
            dialFailed(c, ex, now);
            return 1;
        }
    }

    private void dialFailed(final PeerConnection c, final Exception ex, final long now)
    {
        c.closeChannel();
        c.channel = null;
        c.key = null;
        c.lastError = ex.toString();
        final boolean refused = ex instanceof java.net.ConnectException && String.valueOf(ex.getMessage()).contains("refused");
        if (refused || ex instanceof ProtocolException || ex instanceof RuntimeException || now - c.deadlineNs >= 0)
        {
            fail(c, c.lastError);
            return;
        }
        c.retryDelayNs = c.retryDelayNs == 0 ? FIRST_RETRY_NS : Math.min(MAX_RETRY_NS, 2 * c.retryDelayNs);
        c.retryAtNs = now + c.retryDelayNs;
    }

    private void fail(final PeerConnection c, final String why)
    {
        dialing.remove(c);
        c.dead = true;
        c.closeChannel();
        transport.connectFailed(c.pe, c.endpoint, why);
    }

    /** Waiting API threads poll the dials (the selector is the agent thread's). */
    int pollDials(final long now)
    {
        int work = 0;
        for (final PeerConnection c : dialingNow())
        {
            if (c.channel != null)
            {
                work += stepDial(c, now);
            }
        }
        return work;
    }

    /** @return whether dials are under way: a waiting thread's duty cycle then polls them ({@link #pollDials}). */
    boolean dialsUnderWay()
    {
        return !dialing.isEmpty();
    }

    /**
     * The dials under way, copied: a step may end one. A plain loop over a copy, not an index loop over the list that its
     * body shrinks: C2 compiled the latter, inlined into the callers' duty cycle, with a loop-limit predicate that failed
     * while the job's first dials were under way, and every PE then recompiled its duty cycle at once. At 64 PEs ISx's
     * first timed exchange took 549-602 ms with it and 300-347 without (docs/perf/jfr-gate-20261127.md).
     */
    private PeerConnection[] dialingNow()
    {
        return dialing.toArray(NO_CONNECTIONS);
    }

    /** A ready key of the listener or of an accepted connection in its handshake. */
    void onKey(final SelectionKey k, final long now)
    {
        if (k.attachment() == this)
        {
            acceptAll(now);
        }
        else if (k.attachment() instanceof Accepting a)
        {
            stepAccepting(a, now);
        }
    }

    private void acceptAll(final long now)
    {
        while (true)
        {
            final SocketChannel ch;
            try
            {
                ch = listener.accept();
            }
            catch (final IOException ex)
            {
                transport.acceptFailed(ex);
                return;
            }
            if (ch == null)
            {
                return;
            }
            final Accepting a = new Accepting(ch, Handshake.server(key, me, this::expects), now + timeoutNs);
            try
            {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ProxyTransport.socketBuffers(ch);
                a.key = ch.register(selector, SelectionKey.OP_READ, a);
            }
            catch (final IOException ex)
            {
                transport.stranger(ch, ex);
                continue;
            }
            accepting.add(a);
            agent.armTimer();
            stepAccepting(a, now);
        }
    }

    private boolean expects(final int rank)
    {
        return rank >= 0 && rank < accepted.length && rank != me && transport.reaches(rank) && accepted[rank] == null;
    }

    private void stepAccepting(final Accepting a, final long now)
    {
        try
        {
            if (!a.handshake.step(a.channel))
            {
                a.key.interestOps(a.handshake.interestOps());
                return;
            }
            accepting.remove(a);
            final int rank = a.handshake.peerRank();
            if (accepted[rank] != null)
            {
                throw new ProtocolException("pe " + rank + " connected a second time");
            }
            final PeerConnection c = new PeerConnection(rank, true, now);
            c.channel = a.channel;
            c.key = a.key;
            a.key.attach(c);
            a.key.interestOps(SelectionKey.OP_READ);
            accepted[rank] = c;
            agent.opened(c);
        }
        catch (final IOException | RuntimeException ex)
        {
            accepting.remove(a);
            a.key.cancel();
            transport.stranger(a.channel, ex instanceof IOException io ? io : new IOException(ex));
        }
    }

    /** Deadlines of dials and handshakes, and dials' retries; agent timer. */
    void timers(final long now)
    {
        for (final PeerConnection c : dialingNow())
        {
            if (now - c.deadlineNs >= 0)
            {
                fail(c, "no connection within " + timeoutNs / 1_000_000 + " ms (SHMEM_BOOTSTRAP_TIMEOUT)" +
                    (c.lastError != null ? "; last error: " + c.lastError : c.channel != null && c.handshake != null ?
                        "; connected, but the peer's proxy did not complete the handshake" : "; no answer to the connection request"));
            }
            else if (c.channel == null && now - c.retryAtNs >= 0)
            {
                startDial(c, now);
            }
        }
        for (int i = accepting.size() - 1; i >= 0 && i < accepting.size(); i--)
        {
            final Accepting a = accepting.get(i);
            if (now - a.deadlineNs >= 0)
            {
                accepting.remove(i);
                a.key.cancel();
                transport.stranger(a.channel, new SocketTimeoutException("handshake deadline passed"));
            }
        }
    }

    /** Closes the listener, every handshake and every connection; frees the buffers. Agent stopped. */
    void close()
    {
        closeQuietly(listener);
        for (final Accepting a : accepting)
        {
            closeQuietly(a.channel);
        }
        accepting.clear();
        dialing.clear();
        for (final PeerConnection[] cs : new PeerConnection[][] {dialed, accepted})
        {
            for (final PeerConnection c : cs)
            {
                if (c != null)
                {
                    c.closeChannel();
                    c.free();
                }
            }
        }
    }

    private static void closeQuietly(final AutoCloseable c)
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
