package io.jshmem.bootstrap;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;

/**
 * HMAC-SHA256 (RFC 2104) built on {@link MessageDigest}, for the bootstrap's and the proxy's connection handshakes: the
 * same tags as {@code javax.crypto.Mac.getInstance("HmacSHA256")}. The first use of {@code javax.crypto.Mac} in a JVM
 * initialises the JCE framework, 17-24 ms on the 2-core machine (four runs), and every PE authenticates its bootstrap
 * connection during {@code Shmem.init} and its proxy connections at their first use; SHA-256 is initialised in a PE
 * before either (docs/perf/startup-options-20261127.md). {@code HmacSha256Test} checks it against RFC 4231's test
 * vectors and against {@code Mac}.
 */
public final class HmacSha256
{
    /** Bytes of a tag. */
    public static final int BYTES = 32;
    /** SHA-256's block: the key pads are this long. */
    private static final int BLOCK = 64;

    private HmacSha256()
    {
    }

    /**
     * The tag of the concatenated parts under {@code key}.
     *
     * @param key   the key, any length (one longer than SHA-256's 64-byte block is hashed first, as RFC 2104 says).
     * @param parts the message, in parts.
     * @return the 32-byte tag.
     */
    public static byte[] of(final byte[] key, final byte[]... parts)
    {
        final MessageDigest sha256;
        try
        {
            sha256 = MessageDigest.getInstance("SHA-256");
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException("SHA-256 unavailable", ex);
        }
        final byte[] k = key.length > BLOCK ? sha256.digest(key) : key;
        sha256.update(pad(k, 0x36));
        for (final byte[] part : parts)
        {
            sha256.update(part);
        }
        final byte[] inner = sha256.digest();
        sha256.update(pad(k, 0x5c));
        return sha256.digest(inner);
    }

    /** {@return the key, zero-filled to SHA-256's block, each byte XOR {@code with}: RFC 2104's ipad or opad} */
    private static byte[] pad(final byte[] key, final int with)
    {
        final byte[] pad = new byte[BLOCK];
        for (int i = 0; i < BLOCK; i++)
        {
            pad[i] = (byte)((i < key.length ? key[i] : 0) ^ with);
        }
        return pad;
    }
}
