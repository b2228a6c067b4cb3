package io.jshmem.bootstrap;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A client of PyTorch's c10d {@code TCPStore} (the key-value store torchrun's agents host on the
 * master port), speaking the wire protocol of PyTorch 1.13: one request is a query byte followed by
 * its operands, a string or byte vector is its length as a 64-bit little-endian {@code size_t} then
 * its bytes, an integer is 64-bit little-endian. Used queries:
 *
 * <pre>
 *   SET  (0)  key value            no reply
 *   GET  (2)  key                  reply: value          (after WAIT: GET of a missing key is an error)
 *   ADD  (3)  key int64            reply: int64, the new value
 *   WAIT (5)  count key...         reply: one byte 0 (STOP_WAITING) once every key exists
 * </pre>
 *
 * Keys go on the wire with PyTorch's client prefix {@code /} (its {@code TCPStore} stores {@code set("k")}
 * as {@code /k}), so a key this client sets is the key a PyTorch process reads.
 *
 * <p>Every call has a deadline (the socket's read timeout); a store that goes away is an
 * {@link IOException} naming the address. One thread at a time.
 */
public final class TcpStore implements AutoCloseable
{
    static final byte SET = 0;
    static final byte GET = 2;
    static final byte ADD = 3;
    static final byte WAIT = 5;
    static final byte STOP_WAITING = 0;
    /** What PyTorch's TCPStore client puts before every key. */
    static final String KEY_PREFIX = "/";
    /** The longest value this client accepts from a store (a garbled length must not allocate gigabytes). */
    static final int MAX_VALUE = 1 << 20;

    private final InetSocketAddress address;
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    private TcpStore(final InetSocketAddress address, final Socket socket) throws IOException
    {
        this.address = address;
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = socket.getOutputStream();
    }

    /**
     * Connects, retrying until {@code deadlineNs} ({@link System#nanoTime}) while the store is not yet
     * listening (torchrun's agent on another host may start later than this worker).
     *
     * @param address the store (MASTER_ADDR:MASTER_PORT).
     * @param deadlineNs when to give up.
     * @return the connected client.
     * @throws IOException naming the address if no connection was made in time.
     */
    public static TcpStore connect(final InetSocketAddress address, final long deadlineNs) throws IOException
    {
        long backoffMs = 10;
        while (true)
        {
            final Socket s = new Socket();
            try
            {
                s.setTcpNoDelay(true);
                s.connect(address, (int)Math.max(1, Math.min(5_000, remainingMs(deadlineNs))));
                return new TcpStore(address, s);
            }
            catch (final IOException ex)
            {
                s.close();
                if (System.nanoTime() - deadlineNs >= 0)
                {
                    throw new IOException("TCPStore " + address + ": cannot connect before the deadline: " + ex.getMessage(), ex);
                }
                try
                {
                    Thread.sleep(backoffMs);
                }
                catch (final InterruptedException ie)
                {
                    Thread.currentThread().interrupt();
                    throw new IOException("TCPStore " + address + ": interrupted while connecting", ie);
                }
                backoffMs = Math.min(200, backoffMs * 2);
            }
        }
    }

    /** Stores {@code value} under {@code key} (replacing any value). */
    public void set(final String key, final byte[] value) throws IOException
    {
        final byte[] k = (KEY_PREFIX + key).getBytes(StandardCharsets.UTF_8);
        final ByteBuffer b = frame(1 + 8 + k.length + 8 + value.length);
        b.put(SET);
        putBytes(b, k);
        putBytes(b, value);
        send(b);
    }

    /**
     * Waits until {@code key} exists, then returns its value.
     *
     * @throws IOException naming the key and address on a deadline or a closed store.
     */
    public byte[] get(final String key, final long deadlineNs) throws IOException
    {
        waitFor(key, deadlineNs);
        final byte[] k = (KEY_PREFIX + key).getBytes(StandardCharsets.UTF_8);
        final ByteBuffer b = frame(1 + 8 + k.length);
        b.put(GET);
        putBytes(b, k);
        send(b);
        final long n = readLong(key, deadlineNs);
        if (n < 0 || n > MAX_VALUE)
        {
            throw new IOException("TCPStore " + address + ": value of '" + key + "' has length " + n + " (limit " + MAX_VALUE + ")");
        }
        final byte[] v = new byte[(int)n];
        read(key, deadlineNs, () -> in.readFully(v));
        return v;
    }

    /** Adds {@code delta} to the integer under {@code key} (0 if absent) and returns the new value. */
    public long add(final String key, final long delta, final long deadlineNs) throws IOException
    {
        final byte[] k = (KEY_PREFIX + key).getBytes(StandardCharsets.UTF_8);
        final ByteBuffer b = frame(1 + 8 + k.length + 8);
        b.put(ADD);
        putBytes(b, k);
        b.putLong(delta);
        send(b);
        return readLong(key, deadlineNs);
    }

    /** Blocks until {@code key} exists. */
    public void waitFor(final String key, final long deadlineNs) throws IOException
    {
        final byte[] k = (KEY_PREFIX + key).getBytes(StandardCharsets.UTF_8);
        final ByteBuffer b = frame(1 + 8 + 8 + k.length);
        b.put(WAIT);
        b.putLong(1);
        putBytes(b, k);
        send(b);
        final byte[] r = new byte[1];
        read(key, deadlineNs, () -> in.readFully(r));
        if (r[0] != STOP_WAITING)
        {
            throw new IOException("TCPStore " + address + ": WAIT for '" + key + "' answered " + r[0] + " (expected STOP_WAITING 0)");
        }
    }

    private static ByteBuffer frame(final int size)
    {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void putBytes(final ByteBuffer b, final byte[] bytes)
    {
        b.putLong(bytes.length);
        b.put(bytes);
    }

    private void send(final ByteBuffer b) throws IOException
    {
        try
        {
            out.write(b.array(), 0, b.position());
            out.flush();
        }
        catch (final IOException ex)
        {
            throw new IOException("TCPStore " + address + ": send failed: " + ex.getMessage(), ex);
        }
    }

    private long readLong(final String key, final long deadlineNs) throws IOException
    {
        final byte[] r = new byte[8];
        read(key, deadlineNs, () -> in.readFully(r));
        return ByteBuffer.wrap(r).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    private interface Read
    {
        void run() throws IOException;
    }

    private void read(final String key, final long deadlineNs, final Read r) throws IOException
    {
        final long ms = remainingMs(deadlineNs);
        if (ms <= 0)
        {
            throw new IOException("TCPStore " + address + ": deadline passed waiting for '" + key + "'");
        }
        socket.setSoTimeout((int)Math.min(Integer.MAX_VALUE, ms));
        try
        {
            r.run();
        }
        catch (final SocketTimeoutException ex)
        {
            throw new IOException("TCPStore " + address + ": no answer for '" + key + "' before the deadline", ex);
        }
        catch (final EOFException ex)
        {
            throw new IOException("TCPStore " + address + ": the store closed the connection while answering '" + key + "'", ex);
        }
    }

    private static long remainingMs(final long deadlineNs)
    {
        return Math.max(0, (deadlineNs - System.nanoTime()) / 1_000_000);
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }

    @Override
    public String toString()
    {
        return "TcpStore[" + address + "]";
    }
}
