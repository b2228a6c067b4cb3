package io.jshmem.runtime;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two PEs launched torchrun-style (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, a job secret), as a
 * user launches them by hand. On one host they form a job and exchange data by p2p; when one PE runs in
 * its own UTS namespace with another hostname (a second "host", made with unshare -u), they are on two
 * nodes and exchange data through the proxy transport; with the proxy left out of SHMEM_TRANSPORT, init
 * fails on both naming the unreachable pair and the other host, and nothing is left behind.
 */
class MultiHostInitIT
{
    private static final String JAVA = ProcessHandle.current().info().command().orElseThrow();

    @Test
    void sameHostFormsAJob() throws Exception
    {
        final List<Result> results = launch(false, null);
        for (final Result r : results)
        {
            assertEquals(0, r.status, r.toString());
            assertTrue(r.output.contains("PROBE-OK"), r.toString());
        }
    }

    @Test
    void peOnAnotherHostFormsAJobThroughTheProxy() throws Exception
    {
        final List<Result> results = launch(true, null);
        for (final Result r : results)
        {
            assertEquals(0, r.status, r.toString());
            assertTrue(r.output.contains("PROBE-OK"), r.toString());
        }
    }

    @Test
    void peOnAnotherHostWithoutTheProxyFailsInitClearly() throws Exception
    {
        final List<Result> results = launch(true, "p2p");
        for (final Result r : results)
        {
            assertNotEquals(0, r.status, r.toString());
            assertTrue(r.output.contains("PEs cannot reach each other (0->1, 1->0"), r.toString());
            assertTrue(r.output.contains("SHMEM_TRANSPORT=p2p"), r.toString());
            assertTrue(r.output.contains("jshmem-it-host-b"), "names the other host: " + r);
        }
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of("/dev/shm")))
        {
            assertEquals(0, files.filter(p -> p.getFileName().toString().startsWith("jshmem-")).count(), "heap files left behind");
        }
    }

    private record Result(int rank, int status, String output)
    {
        @Override
        public String toString()
        {
            return "PE " + rank + " exit " + status + ":\n" + output;
        }
    }

    private static List<Result> launch(final boolean secondHost, final String transport) throws Exception
    {
        final int port;
        try (ServerSocket s = new ServerSocket(0))
        {
            port = s.getLocalPort();
        }
        final byte[] secret = new byte[32];
        ThreadLocalRandom.current().nextBytes(secret);
        final List<Process> processes = new ArrayList<>();
        try
        {
            for (int rank = 0; rank < 2; rank++)
            {
                final List<String> cmd = new ArrayList<>();
                if (secondHost && rank == 1)
                {
                    cmd.addAll(List.of("unshare", "-u", "sh", "-c", "hostname jshmem-it-host-b && exec \"$0\" \"$@\""));
                }
                cmd.addAll(List.of(JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    InitProbe.class.getName()));
                final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
                final Map<String, String> env = pb.environment();
                env.keySet().removeIf(k -> k.startsWith("JSHMEM_") || k.startsWith("SHMEM_") || k.startsWith("SLURM_") ||
                    k.startsWith("OMPI_") || k.startsWith("PMI_"));
                env.put("RANK", Integer.toString(rank));
                env.put("WORLD_SIZE", "2");
                env.put("LOCAL_RANK", "0");
                env.put("LOCAL_WORLD_SIZE", "1");
                env.put("MASTER_ADDR", "127.0.0.1");
                env.put("MASTER_PORT", Integer.toString(port));
                env.put("SHMEM_BOOTSTRAP_SECRET", HexFormat.of().formatHex(secret));
                env.put("SHMEM_BOOTSTRAP_TIMEOUT", "30s");
                env.put("SHMEM_SYMMETRIC_SIZE", "8M");
                if (transport != null)
                {
                    env.put("SHMEM_TRANSPORT", transport);
                }
                processes.add(pb.start());
            }
            final List<Result> results = new ArrayList<>();
            for (int rank = 0; rank < processes.size(); rank++)
            {
                final Process p = processes.get(rank);
                final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "PE " + rank + " did not end:\n" + out);
                results.add(new Result(rank, p.exitValue(), out));
            }
            return results;
        }
        finally
        {
            for (final Process p : processes)
            {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }

    static int freePort() throws IOException
    {
        try (ServerSocket s = new ServerSocket(0))
        {
            return s.getLocalPort();
        }
    }
}
