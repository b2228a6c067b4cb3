package io.jshmem.transport.proxy;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The agent's state for one peer: the TCP stream, its receive and send buffers, and the requests in
 * flight (in stream order: the context each came from and the credit it holds) until the peer's ACK.
 * Agent thread only.
 */
final class PeerConnection
{
    static final int RX_BYTES = 4 * Frames.MAX_CHUNK;

    final int pe;
    final SocketChannel channel;
    SelectionKey key;
    final ByteBuffer rx;
    final MemorySegment rxSegment;
    ByteBuffer tx;
    MemorySegment txSegment;

    /** Requests sent, and acknowledged by the peer. */
    long sent;
    long acked;
    /** Requests of the peer's applied here, and the count last acknowledged to it. */
    long applied;
    long ackSent;
    /** Credit in use: request bytes plus the reply bytes they ask for. */
    long inflight;

    private int[] fifoCtx = new int[1024];
    private int[] fifoCost = new int[1024];
    private int fifoHead;
    private int fifoSize;

    long lastReceivedNs;
    long lastSentNs;
    boolean dead;

    PeerConnection(final int pe, final SocketChannel channel, final long nowNs)
    {
        this.pe = pe;
        this.channel = channel;
        this.rx = ByteBuffer.allocateDirect(RX_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        this.rxSegment = MemorySegment.ofBuffer(rx);
        allocateTx(2 * Frames.MAX_CHUNK);
        this.lastReceivedNs = nowNs;
        this.lastSentNs = nowNs;
    }

    private void allocateTx(final int capacity)
    {
        final ByteBuffer next = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
        if (tx != null)
        {
            tx.flip();
            next.put(tx);
        }
        tx = next;
        txSegment = MemorySegment.ofBuffer(next.duplicate().clear());
    }

    /** Makes room for {@code bytes} more in the send buffer (replies must never wait: the buffer grows). */
    void ensureTx(final int bytes)
    {
        if (tx.remaining() < bytes)
        {
            allocateTx(Math.max(tx.capacity() * 2, tx.position() + bytes));
        }
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
            lastSentNs = nowNs;
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

    void pushRequest(final int ctx, final int cost)
    {
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
}
