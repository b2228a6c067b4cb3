package io.jshmem.launch;

import io.jshmem.ShmemException;
import io.jshmem.bootstrap.BootstrapRoot;
import io.jshmem.bootstrap.BootstrapSettings;
import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The bootstrap root of a multi-host shmemrun job, run by shmemrun on the job's first host through
 * the launch agent ({@code ssh h1 java ... io.jshmem.launch.RootAgent --np N --job-id ID [--loopback]}),
 * because the launcher's own machine may have no route to the hosts.
 * <p>
 * Protocol with shmemrun, one line each: on stdout ({@link RootLines}: each line after a marker, as the JVM's own
 * diagnostics may share the stream) {@code uid TEXT} once the root listens, then
 * {@code exit STATUS} when a PE calls global exit; on stdin {@code ending} (shmemrun is ending the job:
 * stop logging each loss). End of stdin (the job ended, or the launcher or its agent died) closes
 * the root, prints {@code closed} and exits 0; the PEs then lose their control channel and end
 * themselves (the failure policy), so nothing outlives the launcher. The root's own log lines
 * (drops, global exit, losses) go to stderr, prefixed {@code shmemrun: }.
 */
public final class RootAgent
{
    private RootAgent()
    {
    }

    /**
     * @param args {@code --np N --job-id ID [--loopback]}.
     */
    public static void main(final String[] args)
    {
        int np = -1;
        String jobId = null;
        boolean loopback = false;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--np" -> np = Integer.parseInt(args[++i]);
                case "--job-id" -> jobId = args[++i];
                case "--loopback" -> loopback = true;
                default ->
                {
                    System.err.println("shmemrun: root agent: unknown argument " + args[i]);
                    System.exit(2);
                }
            }
        }
        System.exit(run(np, jobId, loopback, System.out, System.err));
    }

    private static int run(final int np, final String jobId, final boolean loopback, final PrintStream out, final PrintStream err)
    {
        final Object lock = new Object();
        final ShmemConfig config = ShmemConfig.fromProcess();
        final BootstrapSettings settings = BootstrapSettings.from(config).withRootLogPrefix("shmemrun: ").withJobId(jobId)
            .withLog(line ->
            {
                synchronized (lock)
                {
                    err.println(line);
                    err.flush();
                }
            });
        final BootstrapRoot root;
        try
        {
            if (loopback)
            {
                final InetAddress lo = "AF_INET6".equals(config.get(ShmemOptions.BOOTSTRAP_UID_SOCK_FAMILY))
                    ? InetAddress.getByName("::1") : InetAddress.getByName("127.0.0.1");
                root = BootstrapRoot.start(settings, np, new InetSocketAddress(lo, 0));
            }
            else
            {
                root = BootstrapRoot.start(settings, np);
            }
        }
        catch (final ShmemException | IOException ex)
        {
            err.println("shmemrun: the bootstrap root on " + hostname() + " cannot start: " + ex.getMessage());
            return 1;
        }
        synchronized (lock)
        {
            out.print(RootLines.uid(root.uniqueId().toText()));
            out.flush();
        }
        final boolean[] exitSaid = {false};
        final Runnable sayExit = () ->
        {
            synchronized (lock)
            {
                final Integer status = root.exitStatus();
                if (status != null && !exitSaid[0])
                {
                    exitSaid[0] = true;
                    out.print(RootLines.exit(status));
                    out.flush();
                }
            }
        };
        final Thread watcher = Thread.ofPlatform().daemon().name("shmemrun-root-exit-watch").start(() ->
        {
            while (!Thread.currentThread().isInterrupted())
            {
                sayExit.run();
                try
                {
                    Thread.sleep(50);
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
            }
        });
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                if ("ending".equals(line.strip()))
                {
                    root.ending();
                }
            }
        }
        catch (final IOException ex)
        {
            // stdin broke: the launcher is gone; same as its end
        }
        watcher.interrupt();
        sayExit.run();
        root.close();
        synchronized (lock)
        {
            out.print(RootLines.closed());
            out.flush();
        }
        return 0;
    }

    private static String hostname()
    {
        try
        {
            return InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException ex)
        {
            return "this host";
        }
    }
}
