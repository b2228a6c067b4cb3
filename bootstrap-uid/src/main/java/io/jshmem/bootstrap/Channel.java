package io.jshmem.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * One bootstrap TCP connection: framed reads by one reader thread, framed writes from any thread
 * (serialised on the output stream), an idempotent close that unblocks the reader. A connection made
 * from a non-blocking {@link SocketChannel} ({@link #Channel(SocketChannel)}) is read by a selector
 * thread instead ({@link FrameReader}); its writes still block the writer until the socket takes them.
 * <p>
 * A connection starts in its handshake: frames are limited to {@link Wire#MAX_HANDSHAKE_FRAME} and
 * every read shares one deadline ({@link #handshakeDeadline}), so a peer that drips a byte at a
 * time cannot hold it longer than that. {@link #authenticated()} ends both.
 */
final class Channel implements AutoCloseable
{
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    /** A selected connection's channel, null for a blocking one. */
    private final SocketChannel nio;
    /** Where a selected connection's writer waits for room in the socket (lazily opened; under {@link #nio}). */
    private Selector writable;
    private final String remote;
    private volatile int maxFrame = Wire.MAX_HANDSHAKE_FRAME;
    private volatile long deadlineNs;
    private volatile boolean deadlineSet;
    private volatile boolean closed;

    Channel(final Socket socket) throws IOException
    {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        socket.setKeepAlive(true);
        this.in = new DataInputStream(new BufferedInputStream(new DeadlineStream(socket.getInputStream()), 8192));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 8192));
        this.remote = String.valueOf(socket.getRemoteSocketAddress());
        this.nio = null;
    }

    /** A connection read by a selector thread: {@code sc} becomes non-blocking; {@link #read()} is not for it. */
    Channel(final SocketChannel sc) throws IOException
    {
        sc.configureBlocking(false);
        this.nio = sc;
        this.socket = sc.socket();
        socket.setTcpNoDelay(true);
        socket.setKeepAlive(true);
        this.in = null;
        this.out = null;
        this.remote = String.valueOf(sc.getRemoteAddress());
    }

    /** @return the channel of a connection made by {@link #Channel(SocketChannel)}. */
    SocketChannel selectable()
    {
        return nio;
    }

    /** Connects with a deadline. */
    static Channel connect(final InetSocketAddress address, final long timeoutNs) throws IOException
    {
        final Socket s = new Socket();
        try
        {
            s.connect(address, (int)Math.max(1, Math.min(Integer.MAX_VALUE, timeoutNs / 1_000_000)));
            return new Channel(s);
        }
        catch (final IOException | RuntimeException ex)
        {
            s.close();
            throw ex;
        }
    }

    /**
     * Gives every read from now on one shared deadline (the whole handshake's), however the peer
     * splits its bytes; a read past it throws {@link SocketTimeoutException}.
     *
     * @param timeoutNs the time the handshake may take from now.
     */
    void handshakeDeadline(final long timeoutNs)
    {
        deadlineNs = System.nanoTime() + Math.max(1, timeoutNs);
        deadlineSet = true;
    }

    /**
     * The handshake is over and the peer is trusted: no more read deadline (the heartbeats watch the
     * peer), and frames up to {@link Wire#MAX_FRAME}.
     */
    void authenticated() throws IOException
    {
        deadlineSet = false;
        socket.setSoTimeout(0);
        maxFrame = Wire.MAX_FRAME;
    }

    /**
     * @return the next frame.
     * @throws SocketTimeoutException if the read deadline passes first.
     */
    Wire.Frame read() throws IOException
    {
        if (nio != null)
        {
            throw new IllegalStateException("a selected connection is read by its selector");
        }
        return Wire.read(in, maxFrame);
    }

    /** Reads a frame and checks its type. */
    Wire.Frame expect(final byte type) throws IOException
    {
        final Wire.Frame f = read();
        if (f.type() != type)
        {
            throw new java.net.ProtocolException("expected " + Wire.typeName(type) + ", got " + Wire.typeName(f.type()));
        }
        return f;
    }

    void send(final byte type, final byte[] payload) throws IOException
    {
        if (nio != null)
        {
            sendSelected(type, payload);
            return;
        }
        synchronized (out)
        {
            Wire.write(out, type, payload);
        }
    }

    private void sendSelected(final byte type, final byte[] payload) throws IOException
    {
        if (payload.length + 1L > Wire.MAX_FRAME)
        {
            throw new IllegalArgumentException("frame payload " + payload.length + " bytes exceeds limit " + (Wire.MAX_FRAME - 1));
        }
        final ByteBuffer b = ByteBuffer.allocate(5 + payload.length).putInt(payload.length + 1).put(type).put(payload).flip();
        synchronized (nio)
        {
            while (b.hasRemaining())
            {
                if (closed)
                {
                    throw new SocketException("Socket closed");
                }
                if (nio.write(b) == 0)
                {
                    try
                    {
                        if (writable == null)
                        {
                            writable = Selector.open();
                            nio.register(writable, SelectionKey.OP_WRITE);
                        }
                        writable.select(100); // rechecks closed
                        writable.selectedKeys().clear();
                    }
                    catch (final ClosedSelectorException ex)
                    {
                        throw new SocketException("Socket closed");
                    }
                }
            }
        }
    }

    /** Sends, ignoring failure (best effort: heartbeats, farewells). */
    boolean trySend(final byte type, final byte[] payload)
    {
        try
        {
            send(type, payload);
            return true;
        }
        catch (final IOException | RuntimeException ex)
        {
            return false;
        }
    }

    /**
     * @return bytes the peer sent that this side's reader has not taken yet (in the kernel's receive
     *         buffer), 0 if closed or unknown: a peer whose heartbeats sit there is not silent, this
     *         process's reader merely did not run (a loaded machine). Safe while the reader blocks.
     */
    int unreadBytes()
    {
        try
        {
            return closed ? 0 : socket.getInputStream().available();
        }
        catch (final IOException ex)
        {
            return 0;
        }
    }

    String remote()
    {
        return remote;
    }

    boolean isClosed()
    {
        return closed;
    }

    /** Applies the handshake deadline to every read of the socket. */
    private final class DeadlineStream extends FilterInputStream
    {
        DeadlineStream(final InputStream in)
        {
            super(in);
        }

        private void arm() throws IOException
        {
            if (deadlineSet)
            {
                final long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0)
                {
                    throw new SocketTimeoutException("handshake deadline passed");
                }
                socket.setSoTimeout((int)Math.max(1, Math.min(Integer.MAX_VALUE, (leftNs + 999_999) / 1_000_000)));
            }
        }

        @Override
        public int read() throws IOException
        {
            arm();
            return super.read();
        }

        @Override
        public int read(final byte[] b, final int off, final int len) throws IOException
        {
            arm();
            return super.read(b, off, len);
        }
    }

    @Override
    public void close()
    {
        closed = true;
        try
        {
            socket.close();
        }
        catch (final IOException ignore)
        {
            // closing: nothing to do
        }
        if (nio != null)
        {
            synchronized (nio)
            {
                // a writer waiting for room checks closed within 100 ms, then leaves the lock
                if (writable != null)
                {
                    try
                    {
                        writable.close();
                    }
                    catch (final IOException ignore)
                    {
                        // closing: nothing to do
                    }
                }
            }
        }
    }
}
