package io.jshmem.bootstrap;

import java.io.IOException;
import java.util.List;

/**
 * Serves one store request on the root (the Adapter of the store protocol). Requests and answers:
 * <pre>
 *   KV_REQUEST  reqId(long) op(byte) args...      KV_RESPONSE reqId(long) status(byte) body(bytes)
 *   op SET(1) key value | GET(2) key | ADD(3) key delta | DELETE(4) key | CONTAINS(5) key
 *      WAIT(6) keys (answered once all are set) | MISSING(7) keys
 *   status OK(0) | ABSENT(1) | ERROR(2) with the message as UTF-8 body
 * </pre>
 */
final class RootStoreHandler
{
    static final byte SET = 1;
    static final byte GET = 2;
    static final byte ADD = 3;
    static final byte DELETE = 4;
    static final byte CONTAINS = 5;
    static final byte WAIT = 6;
    static final byte MISSING = 7;
    static final byte OK = 0;
    static final byte ABSENT = 1;
    static final byte ERROR = 2;

    private RootStoreHandler()
    {
    }

    static void handle(final StoreCore store, final Channel ch, final Wire.Reader r) throws IOException
    {
        final long reqId = r.i64();
        final int op = r.i8();
        switch (op)
        {
            case SET ->
            {
                final String key = r.str();
                store.set(key, r.bytes());
                reply(ch, reqId, OK, new byte[0]);
            }
            case GET ->
            {
                final byte[] v = store.get(r.str());
                reply(ch, reqId, v == null ? ABSENT : OK, v == null ? new byte[0] : v);
            }
            case ADD ->
            {
                final String key = r.str();
                final long delta = r.i64();
                try
                {
                    reply(ch, reqId, OK, new Wire.Writer().i64(store.add(key, delta)).toBytes());
                }
                catch (final IllegalStateException ex)
                {
                    reply(ch, reqId, ERROR, ex.getMessage().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            case DELETE -> reply(ch, reqId, OK, new byte[] {(byte)(store.delete(r.str()) ? 1 : 0)});
            case CONTAINS -> reply(ch, reqId, OK, new byte[] {(byte)(store.contains(r.str()) ? 1 : 0)});
            case WAIT ->
            {
                final List<String> keys = r.strings();
                if (store.await(keys, () -> ch.trySend(Wire.KV_RESPONSE, response(reqId, OK, new byte[0])), ch))
                {
                    reply(ch, reqId, OK, new byte[0]);
                }
            }
            case MISSING -> reply(ch, reqId, OK, new Wire.Writer().strings(store.missing(r.strings())).toBytes());
            default -> throw new java.net.ProtocolException("unknown store op " + op);
        }
    }

    private static void reply(final Channel ch, final long reqId, final byte status, final byte[] body) throws IOException
    {
        ch.send(Wire.KV_RESPONSE, response(reqId, status, body));
    }

    private static byte[] response(final long reqId, final byte status, final byte[] body)
    {
        return new Wire.Writer().i64(reqId).i8(status).bytes(body).toBytes();
    }
}
