package io.jshmem.transport.proxy;

import java.io.IOException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

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
 * Every read has the handshake's one deadline, so a peer that drips bytes is dropped at it.
 */
final class Handshake
{
    static final int MAGIC = 0x4a53_4850; // "JSHP"
    static final short VERSION = 1;
    private static final int NONCE = 32;
    private static final int MAC = 32;
    private static final int HELLO = 4 + 2 + 4 + NONCE;
    private static final SecureRandom RANDOM = new SecureRandom();

    private Handshake()
    {
    }

    /** Client side: on return the server proved it is {@code serverRank} of this job and accepted us. */
    static void client(final SocketChannel ch, final byte[] key, final int myRank, final int serverRank, final long deadlineNs)
        throws IOException
    {
        final byte[] nonceC = nonce();
        final ByteBuffer hello = buffer(HELLO).putInt(MAGIC).putShort(VERSION).putInt(myRank).put(nonceC).flip();
        writeFully(ch, hello);
        final ByteBuffer challenge = readFully(ch, NONCE + MAC, deadlineNs);
        final byte[] nonceS = new byte[NONCE];
        final byte[] proof = new byte[MAC];
        challenge.get(nonceS).get(proof);
        if (!MessageDigest.isEqual(proof, mac(key, "proxy-server", nonceC, nonceS, myRank, serverRank)))
        {
            throw new ProtocolException("the proxy of pe " + serverRank + " failed to prove it belongs to this job");
        }
        writeFully(ch, buffer(MAC).put(mac(key, "proxy-client", nonceC, nonceS, myRank, serverRank)).flip());
        if (readFully(ch, 1, deadlineNs).get() != 1)
        {
            throw new ProtocolException("the proxy of pe " + serverRank + " did not accept this PE");
        }
    }

    /**
     * Server side.
     *
     * @param expected which client ranks may connect (and have not yet).
     * @return the authenticated client's rank.
     */
    static int server(final SocketChannel ch, final byte[] key, final int myRank, final java.util.function.IntPredicate expected,
        final long deadlineNs) throws IOException
    {
        final ByteBuffer hello = readFully(ch, HELLO, deadlineNs);
        final int magic = hello.getInt();
        final short version = hello.getShort();
        final int clientRank = hello.getInt();
        if (magic != MAGIC || version != VERSION)
        {
            throw new ProtocolException(String.format("not a jshmem proxy (magic %08x version %d)", magic, version));
        }
        if (!expected.test(clientRank))
        {
            throw new ProtocolException("rank " + clientRank + " is not a peer this PE expects a connection from");
        }
        final byte[] nonceC = new byte[NONCE];
        hello.get(nonceC);
        final byte[] nonceS = nonce();
        writeFully(ch, buffer(NONCE + MAC).put(nonceS).put(mac(key, "proxy-server", nonceC, nonceS, clientRank, myRank)).flip());
        final byte[] answer = new byte[MAC];
        readFully(ch, MAC, deadlineNs).get(answer);
        if (!MessageDigest.isEqual(answer, mac(key, "proxy-client", nonceC, nonceS, clientRank, myRank)))
        {
            throw new ProtocolException("failed authentication (not this job's key)");
        }
        writeFully(ch, buffer(1).put((byte)1).flip());
        return clientRank;
    }

    private static ByteBuffer buffer(final int n)
    {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] nonce()
    {
        final byte[] n = new byte[NONCE];
        RANDOM.nextBytes(n);
        return n;
    }

    static byte[] mac(final byte[] key, final String label, final byte[] a, final byte[] b, final int clientRank, final int serverRank)
    {
        try
        {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(label.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            mac.update(a);
            mac.update(b);
            mac.update(ByteBuffer.allocate(8).putInt(clientRank).putInt(serverRank).array());
            return mac.doFinal();
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("HmacSHA256 unavailable", ex);
        }
    }

    /** The channel is blocking: small writes complete at once (the peer's buffer is empty at handshake). */
    private static void writeFully(final SocketChannel ch, final ByteBuffer b) throws IOException
    {
        while (b.hasRemaining())
        {
            ch.write(b);
        }
    }

    /** Reads exactly n bytes by the deadline (the channel is switched to non-blocking for the wait). */
    private static ByteBuffer readFully(final SocketChannel ch, final int n, final long deadlineNs) throws IOException
    {
        final ByteBuffer b = buffer(n);
        ch.configureBlocking(false);
        try (Selector sel = Selector.open())
        {
            ch.register(sel, SelectionKey.OP_READ);
            while (b.hasRemaining())
            {
                final int r = ch.read(b);
                if (r < 0)
                {
                    throw new ProtocolException("connection closed during the handshake");
                }
                if (r == 0)
                {
                    final long left = (deadlineNs - System.nanoTime()) / 1_000_000;
                    if (left <= 0)
                    {
                        throw new SocketTimeoutException("handshake deadline passed");
                    }
                    sel.select(left);
                }
            }
        }
        finally
        {
            ch.configureBlocking(true);
        }
        return b.flip();
    }
}
