package io.jshmem.examples;

import io.jshmem.launch.ShmemRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What bin/demo does: shmemrun -np 4 --tag-output hello, by short name, on real PE JVMs; and what a PE's init on one
 * node no longer loads (each cost every PE tens of ms: docs/perf/startup-options-20261127.md).
 */
class HelloIT
{
    @Test
    void helloByShortNameOnFourPes() throws InterruptedException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ShmemRun.run(new String[] {"-np", "4", "--tag-output", "-cp", System.getProperty("java.class.path"),
                "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", "hello"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String text = out.toString(StandardCharsets.UTF_8);
        final String all = text + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, all);
        final List<String> lines = text.lines().toList();
        assertEquals(4, lines.size(), all);
        for (int r = 0; r < 4; r++)
        {
            final String prefix = "[pe " + r + "] Hello from PE " + r + " of 4 (node rank " + r + " of 4, launcher shmemrun";
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(prefix) && l.contains("hosts: 0=") && l.contains(", 3=")), all);
        }
        for (int i = 0; i < 100 && ProcessHandle.current().descendants().findAny().isPresent(); i++)
        {
            Thread.sleep(50);
        }
        assertEquals(0, ProcessHandle.current().descendants().count());
    }

    /**
     * Two PEs on this host with their class loading logged to a file each: init loads p2p and the handshakes'
     * {@code HmacSha256}, {@code Sha256} and {@code Entropy} (the check is live), and neither {@code BigDecimal} (the heap
     * size's parser used it), JCE ({@code javax.crypto.Mac} for the handshakes), the security providers
     * ({@code MessageDigest}'s SHA-256 and {@code SecureRandom}'s nonces went through them) nor the proxy's agent (made
     * and closed unused on one node).
     */
    @Test
    void initOnOneNodeLoadsNeitherBigDecimalNorSecurityProvidersNorTheProxy(@TempDir final Path dir) throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int status = ShmemRun.run(new String[] {"-np", "2", "-cp", System.getProperty("java.class.path"),
                "-J", "-XX:TieredStopAtLevel=1", "-J", ClassLoadLogs.option(dir), "hello"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
        final String all = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, all);
        for (final Map.Entry<Path, List<String>> log : ClassLoadLogs.read(dir, 2).entrySet())
        {
            final List<String> lines = log.getValue();
            for (final String loaded : List.of(" io.jshmem.transport.P2pTransport ", " io.jshmem.bootstrap.HmacSha256 ", " io.jshmem.bootstrap.Sha256 ",
                " io.jshmem.bootstrap.Entropy "))
            {
                assertTrue(lines.stream().anyMatch(l -> l.contains(loaded)), log.getKey() + " loads" + loaded);
            }
            assertEquals(List.of(), lines.stream().filter(l -> l.contains(" java.math.BigDecimal ") || l.contains(" javax.crypto.Mac ")
                || l.contains(" javax.crypto.JceSecurity ") || l.contains(" sun.security.jca.Providers ") || l.contains(" java.security.SecureRandom ")
                || l.contains(" io.jshmem.transport.proxy.ProxyAgent ")).toList(), log.getKey().toString());
        }
    }
}
