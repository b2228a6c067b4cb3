package io.jshmem.transport.proxy;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The agent's state for one connection with a peer. Each direction owns its connection: the one this
 * PE dialed ({@code inbound == false}) carries this PE's requests to the peer and brings back the
 * peer's replies and ACKs, in stream order with the requests in flight (the context each came from
 * and the credit it holds); the one the peer dialed ({@code inbound == true}) brings the peer's
 * requests and carries the replies and ACKs back. A dialed connection exists from the first command
 * to its peer: commands queue in its send buffer (within the peer's credit) while it connects and
 * authenticates ({@link #handshake} non-null), and leave once it is open.
 * <p>
 * Buffers are sized by traffic: both start at {@link #MIN_BUFFER}, the receive buffer grows to what a
 * frame needs (and, while reads fill it, up to {@link #RX_MAX}), the send buffer to what is queued,
 * and both go back to {@link #MIN_BUFFER} once the connection has been idle a while. Each is a {@link NativeBuffer},
 * freed when replaced. Agent thread only (or an API thread holding the agent's lock).
 */
final class PeerConnection
{
    static final int MIN_BUFFER = 4 << 10;
    static final int RX_MAX = 4 * Frames.MAX_CHUNK;

    final int pe;
    final boolean inbound;
    SocketChannel channel;
    SelectionKey key;
    /** While this PE's dial is connecting and authenticating; null once open. */
    Handshake handshake;
    boolean connecting;
    /** Where a dialed connection goes ("host:port"), for messages; and its connect deadline. */
    String endpoint;
    long deadlineNs;
    /** A failed dial's next attempt, its backoff, and the last error (for the message if it never connects). */
    long retryAtNs;
    long retryDelayNs;
    String lastError;

    ByteBuffer rx;
    MemorySegment rxSegment;
    private NativeBuffer rxBuffer;
    ByteBuffer tx;
    MemorySegment txSegment;
    private NativeBuffer txBuffer;

    /**
     * A peer's put (or put-with-signal) whose payload is being read from the socket into the heap
     * ({@link FrameApplier#directTarget}): its type, where its next byte goes, the bytes still to come (0: none in
     * progress), and the signal a put-with-signal sets once they are in.
     */
    int directType;
    /** The scattering read's targets while a put is read into the heap: the heap's bytes, then {@link #rx}. */
    final ByteBuffer[] scatter = new ByteBuffer[2];
    long directOffset;
    int directLeft;
    long directSignalOffset;
    long directSignal;
    int directSignalOp;

    /** Requests sent, and acknowledged by the peer (dialed connections). */
    long sent;
    long acked;
    /** Requests of the peer's applied here, and the count last acknowledged to it (accepted connections). */
    long applied;
    long ackSent;
    /** Credit in use: request bytes plus the reply bytes they ask for. */
    long inflight;

    private int[] fifoCtx = new int[64];
    private int[] fifoCost = new int[64];
    private int fifoHead;
    private int fifoSize;

    /** Last bytes from the peer, or the start of a wait on it (the silence a waiting PE measures). */
    long lastReceivedNs;
    /** Last bytes either way (buffers shrink after a quiet spell). */
    long lastActiveNs;
    boolean dead;
    /** In the agent's list of connections with bytes to send ({@code ProxyAgent.queueSend}): a duty cycle flushes those only. */
    boolean sendQueued;
    /** {@link ProxyTrace} only: a blocking request's post time until written; the write; the last read with data; a served request's read. */
    long tracePostNs;
    long traceWrittenNs;
    /** ProxyTrace: the oldest post framed onto this connection and not yet written, else 0. */
    long traceAnyPostNs;
    long traceReadNs;
    long traceServeNs;

    PeerConnection(final int pe, final boolean inbound, final long nowNs)
    {
        this.pe = pe;
        this.inbound = inbound;
        this.lastReceivedNs = nowNs;
        this.lastActiveNs = nowNs;
        allocateRx(MIN_BUFFER);
        allocateTx(MIN_BUFFER);
    }

    /** @return whether the connection is open (authenticated; frames flow). */
    boolean open()
    {
        return !connecting && !dead;
    }

    /** @return whether this PE waits on the peer here: requests sent or queued and not yet acknowledged. */
    boolean owed()
    {
        return fifoSize > 0;
    }

    private void allocateRx(final int capacity)
    {
        rxBuffer = rxBuffer == null ? NativeBuffer.allocate(capacity) : rxBuffer.resize(capacity);
        rx = rxBuffer.bytes;
        rxSegment = rxBuffer.segment;
    }

    private void allocateTx(final int capacity)
    {
        txBuffer = txBuffer == null ? NativeBuffer.allocate(capacity) : txBuffer.resize(capacity);
        tx = txBuffer.bytes;
        txSegment = txBuffer.segment;
    }

    /** Makes room for {@code bytes} more in the send buffer (replies must never wait: the buffer grows). */
    void ensureTx(final int bytes)
    {
        if (tx.remaining() < bytes)
        {
            allocateTx(Integer.highestOneBit(Math.max(tx.capacity() * 2, tx.position() + bytes) - 1) << 1);
        }
    }

    /**
     * After a parse left {@code partial} bytes of an incomplete frame that needs {@code frameBytes} in
     * all, or after a read that filled the buffer: grows the receive buffer so the frame fits, or to
     * read more per call while the stream is busy.
     */
    void growRx(final int frameBytes, final boolean filled)
    {
        int want = rx.capacity();
        if (frameBytes > want)
        {
            want = Integer.highestOneBit(frameBytes - 1) << 1;
        }
        if (filled && want < RX_MAX)
        {
            want = Math.min(RX_MAX, want * 2);
        }
        if (want > rx.capacity())
        {
            allocateRx(want);
        }
    }

    /** Returns both buffers to {@link #MIN_BUFFER} when they are empty and larger; @return whether either is still larger. */
    boolean shrinkIfIdle(final long nowNs, final long idleNs)
    {
        final boolean grown = rx.capacity() > MIN_BUFFER || tx.capacity() > MIN_BUFFER;
        if (!grown || nowNs - lastActiveNs < idleNs || rx.position() != 0 || tx.position() != 0)
        {
            return grown;
        }
        if (rx.capacity() > MIN_BUFFER)
        {
            allocateRx(MIN_BUFFER);
        }
        if (tx.capacity() > MIN_BUFFER)
        {
            allocateTx(MIN_BUFFER);
        }
        return false;
    }

    /** @return the bytes of the two buffers. */
    long bufferBytes()
    {
        return (long)rx.capacity() + tx.capacity();
    }

    /** @return bytes queued but not yet written to the socket. */
    int unsent()
    {
        return tx.position();
    }

    /**
     * Writes what the socket takes.
     *
     * @return bytes written.
     */
    int flush(final long nowNs) throws IOException
    {
        if (tx.position() == 0)
        {
            return 0;
        }
        tx.flip();
        final int n = channel.write(tx);
        tx.compact();
        if (n > 0)
        {
            lastActiveNs = nowNs;
        }
        final boolean more = tx.position() > 0;
        final int ops = key.interestOps();
        final int want = more ? ops | SelectionKey.OP_WRITE : ops & ~SelectionKey.OP_WRITE;
        if (want != ops)
        {
            key.interestOps(want);
        }
        return n;
    }

    void pushRequest(final int ctx, final int cost, final long nowNs)
    {
        if (fifoSize == 0)
        {
            lastReceivedNs = Math.max(lastReceivedNs, nowNs); // a wait on the peer starts: its silence counts from here
        }
        if (fifoSize == fifoCtx.length)
        {
            final int[] c = new int[fifoSize * 2];
            final int[] k = new int[fifoSize * 2];
            for (int i = 0; i < fifoSize; i++)
            {
                c[i] = fifoCtx[(fifoHead + i) % fifoSize];
                k[i] = fifoCost[(fifoHead + i) % fifoSize];
            }
            fifoCtx = c;
            fifoCost = k;
            fifoHead = 0;
        }
        final int tail = (fifoHead + fifoSize) % fifoCtx.length;
        fifoCtx[tail] = ctx;
        fifoCost[tail] = cost;
        fifoSize++;
        sent++;
        inflight += cost;
    }

    /** Pops the oldest request in flight; @return its context id (its cost is returned to the credit). */
    int popRequest()
    {
        final int ctx = fifoCtx[fifoHead];
        inflight -= fifoCost[fifoHead];
        fifoHead = (fifoHead + 1) % fifoCtx.length;
        fifoSize--;
        acked++;
        return ctx;
    }

    /** Closes the socket (idempotent); the buffers stay until {@link #free()}. */
    void closeChannel()
    {
        if (key != null)
        {
            key.cancel();
        }
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // closing a broken connection
            }
        }
    }

    /** Frees the buffers; only when no thread can use them again (the agent has stopped). */
    void free()
    {
        rxBuffer.free();
        txBuffer.free();
    }
}
