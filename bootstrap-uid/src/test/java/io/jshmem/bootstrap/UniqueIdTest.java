package io.jshmem.bootstrap;

import io.jshmem.ConfigurationException;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UniqueIdTest
{
    @Test
    void textRoundTripV4AndV6() throws Exception
    {
        for (final String host : new String[] {"127.0.0.1", "::1", "10.1.2.3"})
        {
            final UniqueId id = UniqueId.of(UniqueId.randomSecret(), new InetSocketAddress(InetAddress.getByName(host), 4242));
            assertEquals(128, id.toBytes().length);
            final String text = id.toText();
            assertTrue(text.startsWith("jsuid1-"));
            assertTrue(text.matches("[A-Za-z0-9_-]+"), text);
            final UniqueId back = UniqueId.parse("  " + text + "\n");
            assertEquals(id, back);
            assertArrayEquals(id.secret(), back.secret());
            assertEquals(4242, back.rootAddress().getPort());
            assertFalse(id.toString().contains(Base64.getUrlEncoder().withoutPadding().encodeToString(id.secret()).substring(0, 8)));
        }
    }

    @Test
    void malformedTextFailsNamingTheVariable() throws Exception
    {
        final String good = UniqueId.of(UniqueId.randomSecret(), new InetSocketAddress(InetAddress.getLoopbackAddress(), 1)).toText();
        assertBad("", "is empty");
        assertBad("hello", "must start with 'jsuid1-'");
        assertBad("jsuid1-!!!!", "not valid base64url");
        assertBad(good.substring(0, 7 + 64), "holds 48 bytes, expected 128");
        final byte[] raw = Base64.getUrlDecoder().decode(good.substring(7));
        raw[0] = 'X';
        assertBad("jsuid1-" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw), "magic");
        raw[0] = 'J';
        raw[5] = 9;
        assertBad("jsuid1-" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw), "protocol version 9");
        raw[5] = 1;
        raw[6] = 5;
        assertBad("jsuid1-" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw), "address family 5");
    }

    private static void assertBad(final String text, final String why)
    {
        final ConfigurationException ex = assertThrows(ConfigurationException.class, () -> UniqueId.parse(text));
        assertEquals("SHMEM_BOOTSTRAP_UID", ex.optionName());
        assertTrue(ex.getMessage().contains(why), ex.getMessage());
        assertTrue(ex.getMessage().contains("SHMEM_BOOTSTRAP_UID"), ex.getMessage());
    }
}
