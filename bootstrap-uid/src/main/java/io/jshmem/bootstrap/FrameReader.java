package io.jshmem.bootstrap;

import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Assembles {@link Wire} frames from a non-blocking socket for a selector thread: each call takes
 * what has arrived and returns a whole frame once there is one. The length is checked against the
 * limit ({@link Wire#MAX_HANDSHAKE_FRAME} until {@link #authenticated()}, {@link Wire#MAX_FRAME} after)
 * before anything is allocated, as {@link Wire#read} does. Not thread-safe: one selector thread.
 */
final class FrameReader
{
    /** Most bytes one read takes (a large frame is read in pieces: no temporary direct buffer of its size). */
    private static final int READ_CHUNK = 256 << 10;

    private final ByteBuffer header = ByteBuffer.allocate(5); // length(int) type(byte)
    private ByteBuffer body;
    private int maxFrame = Wire.MAX_HANDSHAKE_FRAME;

    /** Frames up to {@link Wire#MAX_FRAME} from now on. */
    void authenticated()
    {
        maxFrame = Wire.MAX_FRAME;
    }

    /**
     * @return the next whole frame, or null if the rest of it has not arrived yet.
     * @throws EOFException      if the peer closed the connection (mid-frame or between frames).
     * @throws ProtocolException if the length is out of range.
     */
    Wire.Frame next(final SocketChannel sc) throws IOException
    {
        while (true)
        {
            if (body == null)
            {
                final int n = sc.read(header);
                if (n < 0)
                {
                    throw new EOFException("connection closed");
                }
                if (header.position() >= 4)
                {
                    final int length = header.getInt(0);
                    if (length < 1 || length > maxFrame)
                    {
                        throw new ProtocolException("frame length " + length + " outside 1.." + maxFrame);
                    }
                    if (!header.hasRemaining())
                    {
                        body = ByteBuffer.allocate(length - 1);
                    }
                }
                if (body == null)
                {
                    return null; // the rest has not arrived
                }
            }
            if (body.hasRemaining())
            {
                body.limit(Math.min(body.capacity(), body.position() + READ_CHUNK));
                final int n = sc.read(body);
                body.limit(body.capacity());
                if (n < 0)
                {
                    throw new EOFException("connection closed mid-frame");
                }
                if (body.hasRemaining())
                {
                    if (n == 0)
                    {
                        return null;
                    }
                    continue;
                }
            }
            final Wire.Frame f = new Wire.Frame(header.get(4), body.array());
            header.clear();
            body = null;
            return f;
        }
    }
}
