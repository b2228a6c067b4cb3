package io.jshmem.transport.proxy;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The proxy's wire format, little-endian. Each direction of a PE pair owns a TCP stream: the requester's
 * requests travel on the stream it dialed, and the replies and ACKs to them come back on it.
 * <pre>
 *   header (16 bytes): u8 type | u8 op | u8 size | u8 0 | i32 payload length | i64 heap offset (ACK: count)
 *   PUT         header | payload                                   applied in order
 *   PUT_SIGNAL  header | i64 signal offset | i64 signal | payload  data, full fence, then the signal
 *   GET         header | i32 length | i32 slot                     answered by GET_REPLY
 *   AMO         header | i64 value | i64 cond | i32 slot | i32 0   answered by AMO_REPLY when slot >= 0
 *   GET_REPLY   header | i32 slot | i32 0 | payload
 *   AMO_REPLY   header | i64 old value | i32 slot | i32 0
 *   ACK         header (offset = requests applied so far, cumulative)
 *   HEARTBEAT   header                                             accepted; no longer sent
 * </pre>
 * Requests (PUT, PUT_SIGNAL, GET, AMO) are applied in stream order; the target acknowledges how many it
 * has applied after each batch it reads, after the replies of that batch, so an ACK completes every
 * request up to it (the requester's quiet) and a reply precedes the ACK that covers it.
 */
final class Frames
{
    static final byte PUT = 1;
    static final byte PUT_SIGNAL = 2;
    static final byte GET = 3;
    static final byte AMO = 4;
    static final byte GET_REPLY = 5;
    static final byte AMO_REPLY = 6;
    static final byte ACK = 7;
    static final byte HEARTBEAT = 8;

    static final int HEADER = 16;
    /** Largest payload of one frame; larger transfers are split (each part is its own request). */
    static final int MAX_CHUNK = 64 << 10;
    /** Bytes before the wire frame in a ring record: target PE and context id. */
    static final int LOCAL = 8;

    static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Frames()
    {
    }

    /** @return the bytes of a frame of this type before its payload, or -1 for an unknown type. */
    static int fixed(final int type)
    {
        return switch (type)
        {
            case PUT, ACK, HEARTBEAT -> HEADER;
            case PUT_SIGNAL -> HEADER + 16;
            case GET, GET_REPLY -> HEADER + 8;
            case AMO -> HEADER + 24;
            case AMO_REPLY -> HEADER + 16;
            default -> -1;
        };
    }

    /** @return whether frames of this type may carry a payload. */
    static boolean hasPayload(final int type)
    {
        return type == PUT || type == PUT_SIGNAL || type == GET_REPLY;
    }

    static boolean isRequest(final int type)
    {
        return type >= PUT && type <= AMO;
    }

    static String name(final int type)
    {
        return switch (type)
        {
            case PUT -> "PUT";
            case PUT_SIGNAL -> "PUT_SIGNAL";
            case GET -> "GET";
            case AMO -> "AMO";
            case GET_REPLY -> "GET_REPLY";
            case AMO_REPLY -> "AMO_REPLY";
            case ACK -> "ACK";
            case HEARTBEAT -> "HEARTBEAT";
            default -> "type " + type;
        };
    }
}
