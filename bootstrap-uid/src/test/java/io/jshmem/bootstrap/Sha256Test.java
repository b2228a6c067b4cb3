package io.jshmem.bootstrap;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link Sha256} against FIPS 180-4's examples and against the JDK's SHA-256, and {@link Entropy}'s bytes. */
class Sha256Test
{
    private static String hex(final byte[] b)
    {
        return HexFormat.of().formatHex(b);
    }

    @Test
    void fipsExamples()
    {
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", hex(Sha256.of("abc".getBytes(StandardCharsets.US_ASCII))));
        assertEquals("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            hex(Sha256.of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".getBytes(StandardCharsets.US_ASCII))));
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", hex(Sha256.of(new byte[0])));
        final Sha256 million = new Sha256();
        final byte[] as = new byte[1000];
        java.util.Arrays.fill(as, (byte)'a');
        for (int i = 0; i < 1000; i++)
        {
            million.update(as);
        }
        assertEquals("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", hex(million.digest()));
    }

    @Test
    void sameDigestsAsTheJdkAtEveryLengthAroundTheBlocks() throws Exception
    {
        final SplittableRandom random = new SplittableRandom(20261127);
        for (int length = 0; length < 300; length++)
        {
            final byte[] data = new byte[length];
            random.nextBytes(data);
            // in random parts, so that blocks fill across updates
            final Sha256 s = new Sha256();
            int at = 0;
            while (at < length)
            {
                final int n = Math.min(length - at, random.nextInt(1, 80));
                s.update(java.util.Arrays.copyOfRange(data, at, at + n));
                at += n;
            }
            assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(data), s.digest(), "length " + length);
        }
    }

    @Test
    void entropyGivesFreshBytesOfTheLengthAsked()
    {
        final byte[] a = Entropy.bytes(32);
        final byte[] b = Entropy.bytes(32);
        assertEquals(32, a.length);
        assertEquals(0, Entropy.bytes(0).length);
        // two 256-bit draws are equal with probability 2^-256; all-zero output would mean nothing was read
        assertEquals(false, java.util.Arrays.equals(a, b));
        assertEquals(false, java.util.Arrays.equals(a, new byte[32]));
    }
}
