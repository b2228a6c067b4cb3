package io.jshmem.launch;

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

/**
 * N real JVMs started the way torchrun starts its workers ({@code RANK}, {@code WORLD_SIZE},
 * {@code LOCAL_RANK}, {@code MASTER_ADDR}/{@code MASTER_PORT}, a shared {@code SHMEM_BOOTSTRAP_SECRET}):
 * rank 0 hosts the bootstrap root. Each PE's stdout and stderr are captured; close() kills whatever
 * still runs, with its descendants.
 */
public final class TorchrunJob implements AutoCloseable
{
    private static final String JAVA = ProcessHandle.current().info().command().orElseThrow();

    private final List<Process> processes = new ArrayList<>();
    private final List<ByteArrayOutputStream> outputs = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();

    /**
     * @param n    PEs.
     * @param main the class each JVM runs (from this module's test class path).
     * @param env  variables added to each PE's environment (after the launcher's).
     * @param args the program's arguments.
     */
    public TorchrunJob(final int n, final Class<?> main, final Map<String, String> env, final String... args) throws IOException
    {
        final int port;
        try (ServerSocket s = new ServerSocket(0))
        {
            port = s.getLocalPort();
        }
        final byte[] secret = new byte[32];
        ThreadLocalRandom.current().nextBytes(secret);
        try
        {
            for (int rank = 0; rank < n; rank++)
            {
                final List<String> cmd = new ArrayList<>(List.of(JAVA, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                    System.getProperty("java.class.path"), main.getName()));
                cmd.addAll(List.of(args));
                final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
                final Map<String, String> e = pb.environment();
                e.keySet().removeIf(k -> k.startsWith("JSHMEM_") || k.startsWith("SHMEM_") || k.startsWith("SLURM_") ||
                    k.startsWith("OMPI_") || k.startsWith("PMI_"));
                e.put("RANK", Integer.toString(rank));
                e.put("WORLD_SIZE", Integer.toString(n));
                e.put("LOCAL_RANK", Integer.toString(rank));
                e.put("LOCAL_WORLD_SIZE", Integer.toString(n));
                e.put("MASTER_ADDR", "127.0.0.1");
                e.put("MASTER_PORT", Integer.toString(port));
                e.put("SHMEM_BOOTSTRAP_SECRET", HexFormat.of().formatHex(secret));
                e.put("SHMEM_SYMMETRIC_SIZE", "8M");
                e.putAll(env);
                final Process p = pb.start();
                processes.add(p);
                final ByteArrayOutputStream out = new ByteArrayOutputStream();
                outputs.add(out);
                pumps.add(Thread.ofPlatform().daemon().start(() -> copy(p.getInputStream(), out)));
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /**
     * Waits for every PE to end, within one deadline.
     *
     * @return true if all ended in time.
     */
    public boolean awaitAll(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (int rank = 0; rank < processes.size(); rank++)
        {
            if (!processes.get(rank).waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS))
            {
                return false;
            }
            pumps.get(rank).join(2000);
        }
        return true;
    }

    public int exitValue(final int rank)
    {
        return processes.get(rank).exitValue();
    }

    public String output(final int rank)
    {
        synchronized (outputs.get(rank))
        {
            return outputs.get(rank).toString(StandardCharsets.UTF_8);
        }
    }

    /** @return every PE's output, each under a {@code --- PE r:} line. */
    public String all()
    {
        final StringBuilder sb = new StringBuilder();
        for (int rank = 0; rank < outputs.size(); rank++)
        {
            sb.append("--- PE ").append(rank).append(":\n").append(output(rank));
        }
        return sb.toString();
    }

    @Override
    public void close()
    {
        for (final Process p : processes)
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            try
            {
                p.waitFor(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
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
}
