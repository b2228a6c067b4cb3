package io.jshmem.config;

import io.jshmem.ConfigurationException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShmemConfigTest
{
    @Test
    void precedenceExplicitThenPropertyThenEnvThenLegacyThenDefault()
    {
        assertEquals(128L << 20, ShmemConfig.of(Map.of(), null, null).get(ShmemOptions.SYMMETRIC_SIZE));
        assertEquals(1L << 20, ShmemConfig.of(Map.of("SMA_SYMMETRIC_SIZE", "1M"), null, null).get(ShmemOptions.SYMMETRIC_SIZE));
        assertEquals(2L << 20, ShmemConfig.of(Map.of("SMA_SYMMETRIC_SIZE", "1M", "SHMEM_SYMMETRIC_SIZE", "2M"), null, null)
            .get(ShmemOptions.SYMMETRIC_SIZE));
        final Properties p = new Properties();
        p.setProperty("shmem.symmetric.size", "3M");
        assertEquals(3L << 20, ShmemConfig.of(Map.of("SHMEM_SYMMETRIC_SIZE", "2M"), p, null).get(ShmemOptions.SYMMETRIC_SIZE));
        final ShmemConfig c = ShmemConfig.of(Map.of("SHMEM_SYMMETRIC_SIZE", "2M"), p, Map.of("SHMEM_SYMMETRIC_SIZE", "4M"));
        assertEquals(4L << 20, c.get(ShmemOptions.SYMMETRIC_SIZE));
        assertEquals(ShmemConfig.Source.EXPLICIT, c.setting(ShmemOptions.SYMMETRIC_SIZE).source());
    }

    @Test
    void badValueNamesTheVariableAndSource()
    {
        final ShmemConfig c = ShmemConfig.of(Map.of("SHMEM_SYMMETRIC_SIZE", "lots"), null, null);
        final ConfigurationException ex = assertThrows(ConfigurationException.class, () -> c.validate(ShmemOptions.ALL));
        assertEquals("SHMEM_SYMMETRIC_SIZE", ex.optionName());
        assertTrue(ex.getMessage().contains("SHMEM_SYMMETRIC_SIZE") && ex.getMessage().contains("lots"), ex.getMessage());
    }

    @Test
    void collectiveAlgorithmsAreCheckedByName()
    {
        assertEquals("ring", ShmemConfig.of(Map.of("SHMEM_REDUCE_ALGORITHM", "RING"), null, null).get(ShmemOptions.REDUCE_ALGORITHM));
        assertEquals("auto", ShmemConfig.of(Map.of(), null, null).get(ShmemOptions.BROADCAST_ALGORITHM));
        final ShmemConfig c = ShmemConfig.of(Map.of("SHMEM_BROADCAST_ALGORITHM", "pigeon"), null, null);
        final ConfigurationException ex = assertThrows(ConfigurationException.class, () -> c.validate(ShmemOptions.ALL));
        assertEquals("SHMEM_BROADCAST_ALGORITHM", ex.optionName());
        assertTrue(ex.getMessage().contains("scatter_allgather"), ex.getMessage());
    }

    @Test
    void flagsAreOnWithAnyValue()
    {
        assertTrue(ShmemConfig.of(Map.of("SHMEM_DEBUG", "0"), null, null).isSet(ShmemOptions.DEBUG));
        assertFalse(ShmemConfig.of(Map.of(), null, null).isSet(ShmemOptions.DEBUG));
    }

    @Test
    void infoPrintsEveryOptionWithSource()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ShmemConfig.of(Map.of("SHMEM_SYMMETRIC_SIZE", "64M"), null, null)
            .printInfo(new PrintStream(bytes, true), ShmemOptions.ALL);
        final String text = bytes.toString();
        for (final Option<?> o : ShmemOptions.ALL)
        {
            assertTrue(text.contains(o.envName()), o.envName());
        }
        assertTrue(text.contains("64M") && text.contains("environment"), text);
    }

    @Test
    void durations()
    {
        assertEquals(30_000_000_000L, DurationParser.parseNs("30"));
        assertEquals(500_000_000L, DurationParser.parseNs("500ms"));
        assertEquals(120_000_000_000L, DurationParser.parseNs("2m"));
        assertThrows(IllegalArgumentException.class, () -> DurationParser.parseNs("soon"));
        assertThrows(IllegalArgumentException.class, () -> DurationParser.parseNs("-1"));
    }

    @Test
    void secretsAreNeverPrinted()
    {
        final String uid = "jsuid1-SlNVSQABBAAxMjM0NTY3ODkwYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4";
        final String secret = "correct-horse-battery-staple";
        final ShmemConfig c = ShmemConfig.of(Map.of("SHMEM_BOOTSTRAP_UID", uid, "SHMEM_BOOTSTRAP_SECRET", secret), null, null);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        c.printInfo(new PrintStream(bytes, true), ShmemOptions.ALL);
        final String text = bytes.toString();
        assertFalse(text.contains(uid) || text.contains(uid.substring(7, 20)), text);
        assertFalse(text.contains(secret), text);
        assertTrue(text.contains("SHMEM_BOOTSTRAP_UID") && text.contains(Option.REDACTED), text);
        for (final Option<?> o : java.util.List.of(ShmemOptions.BOOTSTRAP_UID, ShmemOptions.BOOTSTRAP_SECRET))
        {
            final String shown = c.setting(o).toString();
            assertFalse(shown.contains(uid) || shown.contains(secret), shown);
            assertTrue(o.isSecret() && shown.contains(Option.REDACTED), shown);
        }
        // the value itself is still there for the bootstrap
        assertEquals(uid, c.get(ShmemOptions.BOOTSTRAP_UID));
        assertEquals(secret, c.get(ShmemOptions.BOOTSTRAP_SECRET));
        // a parser that quotes a secret value in its complaint is redacted too
        final Option<String> echo = Option.secret("SHMEM_TEST_SECRET", "test", "echoes", t ->
        {
            throw new IllegalArgumentException("'" + t + "' is no good");
        });
        final ConfigurationException ex = assertThrows(ConfigurationException.class,
            () -> ShmemConfig.of(Map.of("SHMEM_TEST_SECRET", secret), null, null).get(echo));
        assertFalse(ex.getMessage().contains(secret), ex.getMessage());
        assertTrue(ex.getMessage().contains("SHMEM_TEST_SECRET") && ex.getMessage().contains("is no good"), ex.getMessage());
        // other values are shown as they are
        assertTrue(ShmemConfig.of(Map.of("SHMEM_SYMMETRIC_SIZE", "64M"), null, null).setting(ShmemOptions.SYMMETRIC_SIZE)
            .toString().contains("64M"));
    }

    @Test
    void aZeroSymmetricSizeIsAConfigurationErrorNamingTheVariable()
    {
        for (final String zero : new String[] {"0", "0k", "0.0M", ".0g"})
        {
            final ShmemConfig c = ShmemConfig.of(Map.of("SHMEM_SYMMETRIC_SIZE", zero), null, null);
            final ConfigurationException ex = assertThrows(ConfigurationException.class, () -> c.get(ShmemOptions.SYMMETRIC_SIZE), zero);
            assertEquals("SHMEM_SYMMETRIC_SIZE", ex.optionName());
            assertTrue(ex.getMessage().contains("SHMEM_SYMMETRIC_SIZE") && ex.getMessage().contains("more than 0"), ex.getMessage());
        }
        final ShmemConfig legacy = ShmemConfig.of(Map.of("SMA_SYMMETRIC_SIZE", "0"), null, null);
        assertThrows(ConfigurationException.class, () -> legacy.validate(ShmemOptions.ALL));
        assertEquals(1L, ShmemConfig.of(Map.of("SHMEM_SYMMETRIC_SIZE", "0.0000001k"), null, null).get(ShmemOptions.SYMMETRIC_SIZE));
    }
}
