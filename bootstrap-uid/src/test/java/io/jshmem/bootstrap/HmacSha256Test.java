package io.jshmem.bootstrap;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link HmacSha256} is HMAC-SHA256: RFC 4231's test vectors, and the JDK's {@code Mac} on random keys and messages. */
class HmacSha256Test
{
    private static final HexFormat HEX = HexFormat.of();

    /** RFC 4231 test cases 1, 2, 6 and 7 (20-, 4- and 131-byte keys; the last two longer than the block). */
    @Test
    void rfc4231TestVectors()
    {
        assertEquals("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            HEX.formatHex(HmacSha256.of(HEX.parseHex("0b".repeat(20)), ascii("Hi There"))));
        assertEquals("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            HEX.formatHex(HmacSha256.of(ascii("Jefe"), ascii("what do ya want "), ascii("for nothing?"))));
        assertEquals("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            HEX.formatHex(HmacSha256.of(HEX.parseHex("aa".repeat(131)), ascii("Test Using Larger Than Block-Size Key - Hash Key First"))));
        assertEquals("9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
            HEX.formatHex(HmacSha256.of(HEX.parseHex("aa".repeat(131)), ascii("This is a test using a larger than block-size key and a larger than "
                + "block-size data. The key needs to be hashed before being used by the HMAC algorithm."))));
    }

    /** Random keys from 1 to 199 bytes (across the 64-byte block) and messages in up to four parts, one of them empty. */
    @Test
    void sameTagsAsTheJdksHmacSha256() throws Exception
    {
        final long seed = System.nanoTime();
        final Random random = new Random(seed);
        for (int i = 0; i < 500; i++)
        {
            final byte[] key = bytes(random, 1 + random.nextInt(199));
            final byte[][] parts = new byte[random.nextInt(5)][];
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (int p = 0; p < parts.length; p++)
            {
                parts[p] = bytes(random, random.nextInt(100));
                mac.update(parts[p]);
            }
            assertArrayEquals(mac.doFinal(), HmacSha256.of(key, parts), "seed=" + seed + " key of " + key.length + " bytes");
        }
    }

    /** Auth's tags are HMAC over label, then both nonces. */
    @Test
    void authTagsAreHmacOfLabelAndNonces() throws Exception
    {
        final byte[] secret = bytes(new Random(7), 32);
        final byte[] a = Auth.nonce();
        final byte[] b = Auth.nonce();
        final Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        mac.update(ascii("jshmem-server"));
        mac.update(a);
        mac.update(b);
        assertArrayEquals(mac.doFinal(), Auth.mac(secret, "jshmem-server", a, b));
    }

    private static byte[] ascii(final String s)
    {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] bytes(final Random random, final int n)
    {
        final byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }
}
