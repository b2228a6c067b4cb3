package io.jshmem.bootstrap;

/**
 * HMAC-SHA256 (RFC 2104) built on {@link Sha256}, for the bootstrap's and the proxy's connection handshakes: the same
 * tags as {@code javax.crypto.Mac.getInstance("HmacSHA256")}. The first use of {@code javax.crypto.Mac} in a JVM
 * initialises the JCE framework, 17-24 ms on the 2-core machine (four runs), and the first {@code MessageDigest} the
 * security providers (docs/bootstrap.md, "Wire protocol"); every PE authenticates its bootstrap connection during
 * {@code Shmem.init} and its proxy connections at their first use (docs/perf/startup-options-20261127.md).
 * {@code HmacSha256Test} checks it against RFC 4231's test vectors and against {@code Mac}.
 */
public final class HmacSha256
{
    /** Bytes of a tag. */
    public static final int BYTES = Sha256.BYTES;
    /** SHA-256's block: the key pads are this long. */
    private static final int BLOCK = Sha256.BLOCK;

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
        final byte[] k = key.length > BLOCK ? Sha256.of(key) : key;
        final Sha256 inner = new Sha256();
        inner.update(pad(k, 0x36));
        for (final byte[] part : parts)
        {
            inner.update(part);
        }
        final Sha256 outer = new Sha256();
        outer.update(pad(k, 0x5c));
        outer.update(inner.digest());
        return outer.digest();
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
