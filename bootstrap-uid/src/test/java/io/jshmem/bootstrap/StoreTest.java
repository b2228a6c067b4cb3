package io.jshmem.bootstrap;

import io.jshmem.ShmemTimeoutException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StoreTest
{
    @org.junit.jupiter.api.AfterEach
    void noThreadsLeft() throws InterruptedException
    {
        for (int i = 0; i < 100 && !TestJob.bootstrapThreads().isEmpty(); i++)
        {
            Thread.sleep(20);
        }
        assertEquals(List.of(), TestJob.bootstrapThreads());
    }

    private static byte[] b(final String s)
    {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void setGetAddWaitPrefixDeleteAcrossPes()
    {
        try (TestJob job = new TestJob(4))
        {
            final List<UidBootstrap> pes = job.form();
            final List<Long> finals = job.each(pes, bs ->
            {
                final KeyValueStore s = bs.store();
                // concurrent adds from every PE: 4 PEs x 50
                for (int i = 0; i < 50; i++)
                {
                    s.add("counter", 1);
                }
                s.set("pe" + bs.rank(), b("hello from " + bs.rank()));
                // get waits for a key another PE sets
                assertArrayEquals(b("hello from " + (bs.rank() + 1) % 4), s.get("pe" + (bs.rank() + 1) % 4));
                s.waitFor(List.of("pe0", "pe1", "pe2", "pe3"));
                bs.barrier();
                return Long.parseLong(new String(s.get("counter"), StandardCharsets.US_ASCII));
            });
            assertEquals(List.of(200L, 200L, 200L, 200L), finals);

            final KeyValueStore s0 = pes.get(0).store();
            final KeyValueStore s1 = pes.get(1).store();
            final KeyValueStore teamA = s0.prefixed("teamA");
            teamA.set("x", b("1"));
            assertTrue(s1.contains("teamA/x"));
            assertFalse(s1.contains("x"));
            assertArrayEquals(b("1"), s1.prefixed("teamA").get("x"));
            s1.prefixed("teamA").prefixed("sub").set("y", b("2"));
            assertArrayEquals(b("2"), s0.tryGet("teamA/sub/y"));
            assertNull(s0.tryGet("nope"));
            assertTrue(s0.delete("teamA/x"));
            assertFalse(s0.delete("teamA/x"));
            assertNull(s1.tryGet("teamA/x"));
            assertEquals(5, s0.add("fresh", 5));
            assertEquals(3, s1.add("fresh", -2));
            assertThrows(IllegalStateException.class, () -> s0.add("pe1", 1), "a non-counter key");

            final ShmemTimeoutException t = assertThrows(ShmemTimeoutException.class,
                () -> s0.waitFor(List.of("pe1", "never1", "never2"), 200_000_000L));
            assertTrue(t.getMessage().contains("[never1, never2]"), t.getMessage());
            assertTrue(t.getMessage().startsWith("[pe 0/4]"), t.getMessage());
            // the job is still fine after a store timeout
            job.each(pes, bs ->
            {
                bs.barrier();
                return null;
            });
        }
    }

    @Test
    void singletonStoreHasTheSameSemantics()
    {
        final SingletonBootstrap b = new SingletonBootstrap(BootstrapSettings.defaults().withTimeoutNs(200_000_000L));
        final KeyValueStore s = b.store();
        s.set("k", b("v"));
        assertArrayEquals(b("v"), s.get("k"));
        assertEquals(2, s.add("c", 2));
        assertArrayEquals(b("2"), s.get("c"));
        s.prefixed("p").set("k", b("w"));
        assertArrayEquals(b("w"), s.get("p/k"));
        assertThrows(ShmemTimeoutException.class, () -> s.get("missing"));
        assertTrue(s.delete("k"));
        assertEquals(1, b.allgather(b("x")).length);
        b.barrier();
        b.close();
    }
}
