package io.jshmem.bootstrap;

/**
 * SHA-256 (FIPS 180-4), for {@link HmacSha256}: the same digests as {@code MessageDigest.getInstance("SHA-256")}, without
 * the JDK's security providers. The first {@code MessageDigest} of a JVM initialises the provider list (the
 * {@code java.security} properties file, the SUN provider's services, {@code KnownOIDs}): 20.5–22 ms in a fresh JDK 25 JVM
 * on the 2-core machine, which every PE paid in its bootstrap handshake (docs/bootstrap.md, "Wire protocol"). Only short
 * handshake transcripts are hashed, a few per connection. {@code Sha256Test} checks FIPS 180-4's examples and random
 * inputs against {@code MessageDigest}. One instance per digest, one thread.
 */
final class Sha256
{
    /** Bytes of a digest. */
    static final int BYTES = 32;
    /** Bytes of a block. */
    static final int BLOCK = 64;

    /** The first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4, 4.2.2). */
    private static final int[] K = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

    /** The hash value: at first the fractional parts of the square roots of the first 8 primes (FIPS 180-4, 5.3.3). */
    private final int[] h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    private final int[] w = new int[64];
    private final byte[] block = new byte[BLOCK];
    private int filled;
    private long bytes;

    /** Adds {@code data} to the message. */
    void update(final byte[] data)
    {
        int at = 0;
        while (at < data.length)
        {
            final int n = Math.min(BLOCK - filled, data.length - at);
            System.arraycopy(data, at, block, filled, n);
            filled += n;
            at += n;
            if (filled == BLOCK)
            {
                compress();
            }
        }
        bytes += data.length;
    }

    /** {@return the digest of the message; this instance is spent} */
    byte[] digest()
    {
        final long bits = bytes * 8;
        block[filled++] = (byte)0x80;
        if (filled > BLOCK - 8)
        {
            java.util.Arrays.fill(block, filled, BLOCK, (byte)0);
            compress();
        }
        java.util.Arrays.fill(block, filled, BLOCK - 8, (byte)0);
        for (int i = 0; i < 8; i++)
        {
            block[BLOCK - 1 - i] = (byte)(bits >>> (8 * i));
        }
        compress();
        final byte[] out = new byte[BYTES];
        for (int i = 0; i < BYTES; i++)
        {
            out[i] = (byte)(h[i >> 2] >>> (24 - 8 * (i & 3)));
        }
        return out;
    }

    /** {@return the digest of {@code data}} */
    static byte[] of(final byte[] data)
    {
        final Sha256 s = new Sha256();
        s.update(data);
        return s.digest();
    }

    private void compress()
    {
        for (int t = 0; t < 16; t++)
        {
            final int i = 4 * t;
            w[t] = (block[i] & 0xff) << 24 | (block[i + 1] & 0xff) << 16 | (block[i + 2] & 0xff) << 8 | block[i + 3] & 0xff;
        }
        for (int t = 16; t < 64; t++)
        {
            final int s0 = Integer.rotateRight(w[t - 15], 7) ^ Integer.rotateRight(w[t - 15], 18) ^ w[t - 15] >>> 3;
            final int s1 = Integer.rotateRight(w[t - 2], 17) ^ Integer.rotateRight(w[t - 2], 19) ^ w[t - 2] >>> 10;
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        int a = h[0];
        int b = h[1];
        int c = h[2];
        int d = h[3];
        int e = h[4];
        int f = h[5];
        int g = h[6];
        int hh = h[7];
        for (int t = 0; t < 64; t++)
        {
            final int t1 = hh + (Integer.rotateRight(e, 6) ^ Integer.rotateRight(e, 11) ^ Integer.rotateRight(e, 25)) + (e & f ^ ~e & g) + K[t] + w[t];
            final int t2 = (Integer.rotateRight(a, 2) ^ Integer.rotateRight(a, 13) ^ Integer.rotateRight(a, 22)) + (a & b ^ a & c ^ b & c);
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
        filled = 0;
    }
}
