package io.jshmem.runtime;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 10: an exception on one PE inside {@code try (Shmem shmem = Shmem.init())} (the README's pattern)
 * ends the job in seconds, not after the 120 s bootstrap timeout, with the failing PE and its exception
 * named, and no PE passes the barrier that the failing PE never entered. Three real JVMs, launched
 * torchrun-style; the bootstrap timeout is left at its 120 s default.
 */
class FailFastFinalizeIT
{
    private static final String JAVA = ProcessHandle.current().info().command().orElseThrow();
    private static final int N = 3;

    @ParameterizedTest
    @ValueSource(ints = {1, 0})
    void anExceptionInTryWithResourcesEndsTheJobInSeconds(final int failing) throws Exception
    {
        final int port;
        try (ServerSocket s = new ServerSocket(0))
        {
            port = s.getLocalPort();
        }
        final byte[] secret = new byte[32];
        ThreadLocalRandom.current().nextBytes(secret);
        final List<Process> processes = new ArrayList<>();
        final List<ByteArrayOutputStream> outputs = new ArrayList<>();
        final List<Thread> pumps = new ArrayList<>();
        final long start = System.nanoTime();
        try
        {
            for (int rank = 0; rank < N; rank++)
            {
                final ProcessBuilder pb = new ProcessBuilder(JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                    System.getProperty("java.class.path"), FailingPeProbe.class.getName(), Integer.toString(failing))
                    .redirectErrorStream(true);
                final Map<String, String> env = pb.environment();
                env.keySet().removeIf(k -> k.startsWith("JSHMEM_") || k.startsWith("SHMEM_") || k.startsWith("SLURM_") ||
                    k.startsWith("OMPI_") || k.startsWith("PMI_"));
                env.put("RANK", Integer.toString(rank));
                env.put("WORLD_SIZE", Integer.toString(N));
                env.put("LOCAL_RANK", Integer.toString(rank));
                env.put("LOCAL_WORLD_SIZE", Integer.toString(N));
                env.put("MASTER_ADDR", "127.0.0.1");
                env.put("MASTER_PORT", Integer.toString(port));
                env.put("SHMEM_BOOTSTRAP_SECRET", HexFormat.of().formatHex(secret));
                env.put("SHMEM_SYMMETRIC_SIZE", "8M");
                final Process p = pb.start();
                processes.add(p);
                final ByteArrayOutputStream out = new ByteArrayOutputStream();
                outputs.add(out);
                final Thread pump = Thread.ofPlatform().daemon().start(() -> copy(p.getInputStream(), out));
                pumps.add(pump);
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (int rank = 0; rank < N; rank++)
            {
                final boolean ended = processes.get(rank).waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                pumps.get(rank).join(2000);
                assertTrue(ended, "PE " + rank + " still running 30 s after start (the job hangs):\n" + all(outputs));
            }
            final double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("FailFastFinalizeIT: failing pe %d, whole job ended after %.1f s%n", failing, seconds);
            final String all = all(outputs);
            System.out.println(all);
            for (int rank = 0; rank < N; rank++)
            {
                final String out = outputs.get(rank).toString(StandardCharsets.UTF_8);
                assertNotEquals(0, processes.get(rank).exitValue(), "PE " + rank + " exit status 0:\n" + all);
                assertFalse(out.contains("PASSED-BARRIER"), "PE " + rank + " passed a barrier PE " + failing + " never entered:\n" + all);
            }
            final String failed = outputs.get(failing).toString(StandardCharsets.UTF_8);
            assertTrue(failed.contains("IllegalStateException: pe " + failing + " failed on purpose"), "names its exception:\n" + all);
            assertTrue(failed.contains("[pe " + failing + "/" + N + "] left the job by an exception"), "says it leaves:\n" + all);
            for (int rank = 0; rank < N; rank++)
            {
                final String out = outputs.get(rank).toString(StandardCharsets.UTF_8);
                if (rank != failing)
                {
                    assertTrue(out.contains("JobFailedException"), "PE " + rank + " fails with JobFailedException:\n" + all);
                    if (failing != 0)
                    {
                        // PE 0 hosts the bootstrap root here; its loss is reported as the root's
                        assertTrue(out.contains("PE " + failing), "PE " + rank + " names PE " + failing + ":\n" + all);
                    }
                }
            }
        }
        finally
        {
            for (final Process p : processes)
            {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static void copy(final InputStream in, final ByteArrayOutputStream out)
    {
        try
        {
            final byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) >= 0)
            {
                synchronized (out)
                {
                    out.write(buf, 0, n);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static String all(final List<ByteArrayOutputStream> outputs)
    {
        final StringBuilder sb = new StringBuilder();
        for (int rank = 0; rank < outputs.size(); rank++)
        {
            synchronized (outputs.get(rank))
            {
                sb.append("--- PE ").append(rank).append(":\n").append(outputs.get(rank).toString(StandardCharsets.UTF_8));
            }
        }
        return sb.toString();
    }
}
