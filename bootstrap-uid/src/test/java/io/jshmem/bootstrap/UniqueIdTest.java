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
        raw[5] = (byte)Wire.PROTOCOL_VERSION;
        raw[6] = 5;
        assertBad("jsuid1-" + Base64.getUrlEncoder().withoutPadding().encodeToString(raw), "address family 5");
    }

    @Test
    void noMessageOrToStringShowsTheSecret() throws Exception
    {
        final UniqueId id = UniqueId.of(UniqueId.randomSecret(), new InetSocketAddress(InetAddress.getLoopbackAddress(), 4242));
        final String text = id.toText();
        final String body = text.substring(7);
        // a mangled id: prefix lost, prefix misspelt, a stray character in the middle
        for (final String bad : new String[] {body, "jsuid2-" + body, "jsuid1-" + body.substring(0, 60) + "!" + body.substring(61)})
        {
            final ConfigurationException ex = assertThrows(ConfigurationException.class, () -> UniqueId.parse(bad));
            assertNoSecret(ex.getMessage(), body);
        }
        assertNoSecret(id.toString(), body);
        final io.jshmem.config.ShmemConfig config = io.jshmem.config.ShmemConfig.of(java.util.Map.of("JSHMEM_RANK", "0",
            "JSHMEM_SIZE", "2", "SHMEM_BOOTSTRAP_UID", text, "SHMEM_BOOTSTRAP_SECRET", "hunter2-hunter2"), null, null);
        assertNoSecret(LaunchEnvironment.detect(config).toString(), body);
        assertNoSecret(config.setting(io.jshmem.config.ShmemOptions.BOOTSTRAP_UID).toString(), body);
        assertFalse(config.setting(io.jshmem.config.ShmemOptions.BOOTSTRAP_SECRET).toString().contains("hunter2"));
        assertNoSecret(BootstrapSettings.from(config).toString(), body);
    }

    /** No 6 characters in a row of the id's base64 body (the secret is bytes 8..39 of it). */
    private static void assertNoSecret(final String message, final String body)
    {
        for (int i = 10; i + 6 <= body.length(); i++)
        {
            final String piece = body.substring(i, i + 6);
            assertFalse(message.contains(piece), () -> "'" + piece + "' of the id in: " + message);
        }
    }

    private static void assertBad(final String text, final String why)
    {
        final ConfigurationException ex = assertThrows(ConfigurationException.class, () -> UniqueId.parse(text));
        assertEquals("SHMEM_BOOTSTRAP_UID", ex.optionName());
        assertTrue(ex.getMessage().contains(why), ex.getMessage());
        assertTrue(ex.getMessage().contains("SHMEM_BOOTSTRAP_UID"), ex.getMessage());
    }
}
