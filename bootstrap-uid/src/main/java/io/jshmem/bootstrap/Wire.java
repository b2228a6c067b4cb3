package io.jshmem.bootstrap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ProtocolException;
import java.util.ArrayList;
import java.util.List;

/**
 * The bootstrap wire format: a layout descriptor for frames and the codec of their payloads.
 * <pre>
 *   0                   4        5
 *   +-------------------+--------+---------------------------+
 *   | length (int, BE)  |  type  |  payload (length-1 bytes) |
 *   +-------------------+--------+---------------------------+
 * </pre>
 * {@code length} counts the type byte and the payload. A frame longer than the reader's limit
 * ({@link #MAX_HANDSHAKE_FRAME} before authentication, {@link #MAX_FRAME} after) or shorter than 1 is
 * a protocol error, detected before anything is allocated. Payload fields are big-endian ints/longs,
 * strings as {@link DataOutputStream#writeUTF}, byte arrays as an int length then the bytes.
 */
final class Wire
{
    /**
     * Version of this protocol, in the unique id and every HELLO; a mismatch is rejected naming both.
     * 2: HELLO carries the PE's generation (its init number), and the root may answer RETRY.
     */
    static final short PROTOCOL_VERSION = 2;
    /** "JSHB": first int of every connection's first frame. */
    static final int CONNECTION_MAGIC = 0x4A534842;
    /** Limit of a frame before the peer has proved it knows the secret. */
    static final int MAX_HANDSHAKE_FRAME = 512;
    /** Limit of any frame after authentication (bootstrap data is small; this bounds a rogue peer). */
    static final int MAX_FRAME = 64 << 20;

    // authentication (see Auth)
    static final byte AUTH_HELLO = 1;
    static final byte AUTH_CHALLENGE = 2;
    static final byte AUTH_RESPONSE = 3;
    static final byte AUTH_OK = 4;
    // control channel: PE <-> root
    static final byte HELLO = 10;
    static final byte WELCOME = 11;
    static final byte REJECT = 12;
    static final byte QUERY_MISSING = 13;
    static final byte MISSING = 14;
    /** The root serves an earlier generation of the job still: connect again in a moment. */
    static final byte RETRY = 15;
    static final byte HEARTBEAT = 20;
    static final byte LOST = 21;
    static final byte EXIT = 22;
    static final byte LEAVE = 23;
    static final byte KV_REQUEST = 30;
    static final byte KV_RESPONSE = 31;
    // PE <-> PE
    static final byte PEER_IDENT = 40;
    static final byte DATA = 41;

    private Wire()
    {
    }

    /** One decoded frame. */
    record Frame(byte type, byte[] payload)
    {
        Reader reader()
        {
            return new Reader(payload);
        }
    }

    static String typeName(final byte type)
    {
        return switch (type)
        {
            case AUTH_HELLO -> "AUTH_HELLO";
            case AUTH_CHALLENGE -> "AUTH_CHALLENGE";
            case AUTH_RESPONSE -> "AUTH_RESPONSE";
            case AUTH_OK -> "AUTH_OK";
            case HELLO -> "HELLO";
            case WELCOME -> "WELCOME";
            case REJECT -> "REJECT";
            case QUERY_MISSING -> "QUERY_MISSING";
            case MISSING -> "MISSING";
            case RETRY -> "RETRY";
            case HEARTBEAT -> "HEARTBEAT";
            case LOST -> "LOST";
            case EXIT -> "EXIT";
            case LEAVE -> "LEAVE";
            case KV_REQUEST -> "KV_REQUEST";
            case KV_RESPONSE -> "KV_RESPONSE";
            case PEER_IDENT -> "PEER_IDENT";
            case DATA -> "DATA";
            default -> "type " + type;
        };
    }

    /**
     * Reads one frame.
     *
     * @throws EOFException      if the stream ends before a whole frame (a truncated frame).
     * @throws ProtocolException if the length is out of range.
     */
    static Frame read(final DataInputStream in, final int maxLength) throws IOException
    {
        final int length = in.readInt();
        if (length < 1 || length > maxLength)
        {
            throw new ProtocolException("frame length " + length + " outside 1.." + maxLength);
        }
        final byte type = in.readByte();
        final byte[] payload = new byte[length - 1];
        in.readFully(payload);
        return new Frame(type, payload);
    }

    /** Writes one frame and flushes; callers serialise writes to one stream. */
    static void write(final DataOutputStream out, final byte type, final byte[] payload) throws IOException
    {
        if (payload.length + 1L > MAX_FRAME)
        {
            throw new IllegalArgumentException("frame payload " + payload.length + " bytes exceeds limit " + (MAX_FRAME - 1));
        }
        out.writeInt(payload.length + 1);
        out.writeByte(type);
        out.write(payload);
        out.flush();
    }

    /** Builds a payload. */
    static final class Writer
    {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        private final DataOutputStream out = new DataOutputStream(bytes);

        Writer i8(final int v)
        {
            return run(() -> out.writeByte(v));
        }

        Writer i16(final int v)
        {
            return run(() -> out.writeShort(v));
        }

        Writer i32(final int v)
        {
            return run(() -> out.writeInt(v));
        }

        Writer i64(final long v)
        {
            return run(() -> out.writeLong(v));
        }

        Writer str(final String v)
        {
            return run(() -> out.writeUTF(v));
        }

        Writer bytes(final byte[] v)
        {
            return run(() ->
            {
                out.writeInt(v.length);
                out.write(v);
            });
        }

        Writer raw(final byte[] v)
        {
            return run(() -> out.write(v));
        }

        Writer strings(final List<String> v)
        {
            i32(v.size());
            v.forEach(this::str);
            return this;
        }

        byte[] toBytes()
        {
            return bytes.toByteArray();
        }

        private interface IoAction
        {
            void run() throws IOException;
        }

        private Writer run(final IoAction a)
        {
            try
            {
                a.run();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex); // cannot happen on a byte array
            }
            return this;
        }
    }

    /** Reads a payload; any overrun is a {@link ProtocolException}. */
    static final class Reader
    {
        private final int size;
        private final DataInputStream in;

        Reader(final byte[] payload)
        {
            this.size = payload.length;
            this.in = new DataInputStream(new ByteArrayInputStream(payload));
        }

        int i8() throws IOException
        {
            return guard(() -> in.readByte());
        }

        int i16() throws IOException
        {
            return guard(() -> (int)in.readShort());
        }

        int i32() throws IOException
        {
            return guard(in::readInt);
        }

        long i64() throws IOException
        {
            return guard(in::readLong);
        }

        String str() throws IOException
        {
            return guard(in::readUTF);
        }

        byte[] raw(final int n) throws IOException
        {
            final byte[] b = new byte[n];
            guard(() ->
            {
                in.readFully(b);
                return 0;
            });
            return b;
        }

        byte[] bytes() throws IOException
        {
            final int n = i32();
            if (n < 0 || n > size)
            {
                throw new ProtocolException("byte array length " + n + " exceeds payload of " + size);
            }
            return raw(n);
        }

        List<String> strings() throws IOException
        {
            final int n = i32();
            if (n < 0 || n > size)
            {
                throw new ProtocolException("string count " + n + " exceeds payload of " + size);
            }
            final List<String> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++)
            {
                out.add(str());
            }
            return out;
        }

        private interface IoGet<T>
        {
            T get() throws IOException;
        }

        private <T> T guard(final IoGet<T> g) throws IOException
        {
            try
            {
                return g.get();
            }
            catch (final EOFException ex)
            {
                throw new ProtocolException("payload of " + size + " bytes ends early");
            }
        }
    }
}
