package io.jshmem.transport.proxy;

import io.jshmem.bootstrap.Entropy;
import io.jshmem.bootstrap.HmacSha256;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.util.function.IntPredicate;

/**
 * Mutual challenge-response authentication of a proxy connection, the bootstrap's scheme with a key
 * derived from the job secret ({@code Bootstrap.deriveKey("proxy")}): the key never travels, the
 * server proves itself first, and both ranks are bound into the proofs.
 * <pre>
 *   client -> server  HELLO     magic(int) version(short) clientRank(int) nonceC[32]
 *   server -> client  CHALLENGE nonceS[32] HMAC(key, "proxy-server" | nonceC | nonceS | ranks)
 *   client -> server  RESPONSE  HMAC(key, "proxy-client" | nonceC | nonceS | ranks)
 *   server -> client  OK        one byte
 * </pre>
 * A non-blocking state machine: the proxy agent calls {@link #step} whenever the channel is ready (or
 * a waiting API thread polls it) and keeps the deadline itself, so a slow or silent peer, or a stranger
 * that drips bytes, never holds up the agent's service of other peers. Each side reads exactly the
 * handshake's bytes: the client sends no frame before it has read OK, so nothing of the stream that
 * follows is consumed here. Version 2: a connection carries one direction's requests (the dialer's)
 * and the replies and acknowledgements to them.
 */
final class Handshake
{
    static final int MAGIC = 0x4a53_4850; // "JSHP"
    static final short VERSION = 2;
    private static final int NONCE = 32;
    private static final int MAC = HmacSha256.BYTES;
    private static final int HELLO = 4 + 2 + 4 + NONCE;

    private static final int CHALLENGE = 1;
    private static final int OK = 2;
    private static final int RESPONSE = 3;
    private static final int DONE = 4;

    private final boolean client;
    private final byte[] key;
    private final int myRank;
    private final IntPredicate expected;
    private int peerRank;
    private final byte[] nonceC;
    private byte[] nonceS;
    private ByteBuffer out;
    private ByteBuffer in;
    private int phase;

    private Handshake(final boolean client, final byte[] key, final int myRank, final int peerRank, final IntPredicate expected)
    {
        this.client = client;
        this.key = key;
        this.myRank = myRank;
        this.peerRank = peerRank;
        this.expected = expected;
        if (client)
        {
            nonceC = nonce();
            out = buffer(HELLO).putInt(MAGIC).putShort(VERSION).putInt(myRank).put(nonceC).flip();
            in = buffer(NONCE + MAC);
            phase = CHALLENGE;
        }
        else
        {
            nonceC = new byte[NONCE];
            in = buffer(HELLO);
            phase = CHALLENGE;
        }
    }

    /** The dialing side: done once the server proved it is {@code serverRank} of this job and accepted us. */
    static Handshake client(final byte[] key, final int myRank, final int serverRank)
    {
        return new Handshake(true, key, myRank, serverRank, null);
    }

    /**
     * The accepting side.
     *
     * @param expected which client ranks may connect (and have not yet).
     */
    static Handshake server(final byte[] key, final int myRank, final IntPredicate expected)
    {
        return new Handshake(false, key, myRank, -1, expected);
    }

    /** @return the peer's rank (the server learns it from HELLO; -1 before). */
    int peerRank()
    {
        return peerRank;
    }

    /** @return the selector interest the next step waits for. */
    int interestOps()
    {
        return out != null ? SelectionKey.OP_WRITE : SelectionKey.OP_READ;
    }

    /**
     * Moves the handshake on as far as the non-blocking channel allows.
     *
     * @return true when the handshake is complete and the peer authenticated.
     * @throws IOException the connection failed or closed; {@link ProtocolException} when the peer is not
     *                     one this PE accepts (wrong magic, version, rank or key).
     */
    boolean step(final SocketChannel ch) throws IOException
    {
        while (true)
        {
            if (out != null)
            {
                ch.write(out);
                if (out.hasRemaining())
                {
                    return false;
                }
                out = null;
                if (phase == DONE)
                {
                    return true;
                }
            }
            if (in == null)
            {
                return phase == DONE;
            }
            if (ch.read(in) < 0)
            {
                throw new ProtocolException("connection closed during the handshake");
            }
            if (in.hasRemaining())
            {
                return false;
            }
            final ByteBuffer b = in.flip();
            in = null;
            if (client)
            {
                clientRead(b);
            }
            else
            {
                serverRead(b);
            }
            if (phase == DONE && out == null)
            {
                return true;
            }
        }
    }

    private void clientRead(final ByteBuffer b) throws ProtocolException
    {
        if (phase == CHALLENGE)
        {
            nonceS = new byte[NONCE];
            final byte[] proof = new byte[MAC];
            b.get(nonceS).get(proof);
            if (!MessageDigest.isEqual(proof, mac(key, "proxy-server", nonceC, nonceS, myRank, peerRank)))
            {
                throw new ProtocolException("the proxy of pe " + peerRank + " failed to prove it belongs to this job");
            }
            out = buffer(MAC).put(mac(key, "proxy-client", nonceC, nonceS, myRank, peerRank)).flip();
            in = buffer(1);
            phase = OK;
        }
        else
        {
            if (b.get() != 1)
            {
                throw new ProtocolException("the proxy of pe " + peerRank + " did not accept this PE");
            }
            phase = DONE;
        }
    }

    private void serverRead(final ByteBuffer b) throws ProtocolException
    {
        if (phase == CHALLENGE)
        {
            final int magic = b.getInt();
            final short version = b.getShort();
            final int clientRank = b.getInt();
            if (magic != MAGIC || version != VERSION)
            {
                throw new ProtocolException(String.format("not a jshmem proxy of this version (magic %08x version %d, expected %08x %d)",
                    magic, version, MAGIC, VERSION));
            }
            if (!expected.test(clientRank))
            {
                throw new ProtocolException("rank " + clientRank + " is not a peer this PE expects a connection from");
            }
            peerRank = clientRank;
            b.get(nonceC);
            nonceS = nonce();
            out = buffer(NONCE + MAC).put(nonceS).put(mac(key, "proxy-server", nonceC, nonceS, clientRank, myRank)).flip();
            in = buffer(MAC);
            phase = RESPONSE;
        }
        else
        {
            final byte[] answer = new byte[MAC];
            b.get(answer);
            if (!MessageDigest.isEqual(answer, mac(key, "proxy-client", nonceC, nonceS, peerRank, myRank)))
            {
                throw new ProtocolException("failed authentication (not this job's key)");
            }
            out = buffer(1).put((byte)1).flip();
            phase = DONE;
        }
    }

    private static ByteBuffer buffer(final int n)
    {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] nonce()
    {
        return Entropy.bytes(NONCE);
    }

    static byte[] mac(final byte[] key, final String label, final byte[] a, final byte[] b, final int clientRank, final int serverRank)
    {
        return HmacSha256.of(key, label.getBytes(java.nio.charset.StandardCharsets.US_ASCII), a, b,
            ByteBuffer.allocate(8).putInt(clientRank).putInt(serverRank).array());
    }
}
