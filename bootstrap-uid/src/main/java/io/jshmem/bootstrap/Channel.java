package io.jshmem.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * One bootstrap TCP connection: framed reads by one reader thread, framed writes from any thread
 * (serialised on the output stream), an idempotent close that unblocks the reader.
 */
final class Channel implements AutoCloseable
{
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final String remote;
    private volatile int maxFrame = Wire.MAX_HANDSHAKE_FRAME;
    private volatile boolean closed;

    Channel(final Socket socket) throws IOException
    {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        socket.setKeepAlive(true);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 8192));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 8192));
        this.remote = String.valueOf(socket.getRemoteSocketAddress());
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

    /** After authentication the peer may send frames up to {@link Wire#MAX_FRAME}. */
    void authenticated()
    {
        maxFrame = Wire.MAX_FRAME;
    }

    /** @param timeoutNs read deadline per frame read (0: none), so a silent peer cannot block a reader. */
    void readTimeout(final long timeoutNs) throws IOException
    {
        socket.setSoTimeout(timeoutNs <= 0 ? 0 : (int)Math.max(1, Math.min(Integer.MAX_VALUE, timeoutNs / 1_000_000)));
    }

    /**
     * @return the next frame.
     * @throws SocketTimeoutException if the read deadline passes first.
     */
    Wire.Frame read() throws IOException
    {
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
        synchronized (out)
        {
            Wire.write(out, type, payload);
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

    String remote()
    {
        return remote;
    }

    boolean isClosed()
    {
        return closed;
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
    }
}
