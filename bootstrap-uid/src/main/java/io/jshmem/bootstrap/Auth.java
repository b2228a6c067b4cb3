package io.jshmem.bootstrap;

import java.io.IOException;
import java.net.ProtocolException;
import java.security.MessageDigest;

/**
 * Mutual challenge-response authentication of a bootstrap connection with HMAC-SHA256 over the
 * job's 256-bit secret; the secret never travels.
 * <pre>
 *   client -> server  AUTH_HELLO     magic(int) version(short) nonceC[32]
 *   server -> client  AUTH_CHALLENGE nonceS[32] HMAC(secret, "jshmem-server" | nonceC | nonceS)
 *   client -> server  AUTH_RESPONSE  HMAC(secret, "jshmem-client" | nonceC | nonceS)
 *   server -> client  AUTH_OK
 * </pre>
 * The server proves itself first, so a client never answers a server that does not know the
 * secret. Fresh nonces on both sides and distinct labels stop replay and reflection. Authentication
 * does not end the connection's handshake limits: the caller does, once the peer has also said who it
 * is ({@link Channel#authenticated()}).
 */
final class Auth
{
    static final int NONCE_BYTES = 32;
    static final int MAC_BYTES = HmacSha256.BYTES;

    private Auth()
    {
    }

    /** Authentication failed: the other side does not know the secret (or spoke nonsense). */
    static final class AuthException extends ProtocolException
    {
        private static final long serialVersionUID = 1L;

        AuthException(final String message)
        {
            super(message);
        }
    }

    /**
     * The server closed the connection before it answered the client's hello: it may have too many
     * connections waiting for authentication, so the client may try again.
     */
    static final class Unheard extends IOException
    {
        private static final long serialVersionUID = 1L;

        Unheard(final IOException cause)
        {
            super("the other side closed the connection before authenticating (busy?): " + cause.getMessage(), cause);
        }
    }

    /**
     * Runs the client side; on return the server has proved itself and accepted us.
     *
     * @throws Unheard if the server closed the connection without answering (retry).
     */
    static void client(final Channel ch, final byte[] secret) throws IOException
    {
        final byte[] nonceC = nonce();
        final Wire.Frame challenge;
        try
        {
            ch.send(Wire.AUTH_HELLO, new Wire.Writer().i32(Wire.CONNECTION_MAGIC).i16(Wire.PROTOCOL_VERSION).raw(nonceC).toBytes());
            challenge = ch.read();
        }
        catch (final java.io.EOFException | java.net.SocketException ex)
        {
            throw new Unheard(ex);
        }
        if (challenge.type() != Wire.AUTH_CHALLENGE)
        {
            throw new ProtocolException("expected AUTH_CHALLENGE, got " + Wire.typeName(challenge.type()));
        }
        final Wire.Reader r = challenge.reader();
        final byte[] nonceS = r.raw(NONCE_BYTES);
        final byte[] proof = r.raw(MAC_BYTES);
        if (!MessageDigest.isEqual(proof, mac(secret, "jshmem-server", nonceC, nonceS)))
        {
            throw new AuthException("the other side failed to prove it knows the job secret "
                + "(a different job, a stale SHMEM_BOOTSTRAP_UID or a different SHMEM_BOOTSTRAP_SECRET)");
        }
        ch.send(Wire.AUTH_RESPONSE, mac(secret, "jshmem-client", nonceC, nonceS));
        ch.expect(Wire.AUTH_OK);
    }

    /** Runs the server side; on return the client has proved itself. */
    static void server(final Channel ch, final byte[] secret) throws IOException
    {
        final byte[] nonceC = serverHello(ch.expect(Wire.AUTH_HELLO).reader());
        final byte[] nonceS = nonce();
        ch.send(Wire.AUTH_CHALLENGE, serverChallenge(secret, nonceC, nonceS));
        serverCheck(ch.expect(Wire.AUTH_RESPONSE).payload(), secret, nonceC, nonceS);
        ch.send(Wire.AUTH_OK, new byte[0]);
    }

    /**
     * The server's steps one by one, for a server that does not block on the connection (the PE
     * listener's selector): check the hello, answer {@link #serverChallenge}, check the response.
     *
     * @return the client's nonce.
     */
    static byte[] serverHello(final Wire.Reader r) throws IOException
    {
        final int magic = r.i32();
        if (magic != Wire.CONNECTION_MAGIC)
        {
            throw new ProtocolException(String.format("bad magic 0x%08x (not a jshmem bootstrap peer)", magic));
        }
        final int version = r.i16();
        if (version != Wire.PROTOCOL_VERSION)
        {
            throw new ProtocolException("protocol version " + version + " but this side speaks " + Wire.PROTOCOL_VERSION);
        }
        return r.raw(NONCE_BYTES);
    }

    /** @return the AUTH_CHALLENGE payload: the server's nonce and its proof. */
    static byte[] serverChallenge(final byte[] secret, final byte[] nonceC, final byte[] nonceS)
    {
        return new Wire.Writer().raw(nonceS).raw(mac(secret, "jshmem-server", nonceC, nonceS)).toBytes();
    }

    /** Checks the client's AUTH_RESPONSE payload. */
    static void serverCheck(final byte[] answer, final byte[] secret, final byte[] nonceC, final byte[] nonceS) throws AuthException
    {
        if (!MessageDigest.isEqual(answer, mac(secret, "jshmem-client", nonceC, nonceS)))
        {
            throw new AuthException("failed authentication (wrong job secret)");
        }
    }

    static byte[] nonce()
    {
        return Entropy.bytes(NONCE_BYTES);
    }

    static byte[] mac(final byte[] secret, final String label, final byte[] a, final byte[] b)
    {
        return HmacSha256.of(secret, label.getBytes(java.nio.charset.StandardCharsets.US_ASCII), a, b);
    }
}
