package io.jshmem.launch;

import io.jshmem.ShmemException;
import io.jshmem.bootstrap.BootstrapRoot;
import io.jshmem.bootstrap.BootstrapSettings;
import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code shmemrun -np N [options] [--] MAIN_CLASS|APP.jar|SHORT_NAME [args...]}: starts N PE JVMs on
 * this machine with the launcher's own JDK, hosts the job's bootstrap root and hands each PE its
 * rank and the unique id in its environment, relays output (optionally tagged per PE, whole lines
 * only), ends every PE when one fails, on {@code --timeout} or on SIGINT/SIGTERM, and exits with the
 * job's status. See {@link ShmemRunOptions#HELP} for the options and exit statuses.
 * <p>
 * Environment contract (what the PEs' {@code Bootstraps.fromConfig} reads): {@code JSHMEM_RANK},
 * {@code JSHMEM_SIZE}, {@code JSHMEM_LOCAL_RANK}, {@code JSHMEM_LOCAL_SIZE}, {@code JSHMEM_JOB_ID},
 * {@code SHMEM_BOOTSTRAP_UID} (the unique id text), {@code SHMEM_BOOTSTRAP=shmemrun}, and
 * {@code JSHMEM_LAUNCHER_PID}.
 */
public final class ShmemRun
{
    /** Exit status when {@code --timeout} ends the job (as coreutils timeout). */
    public static final int TIMEOUT_STATUS = 124;
    /** Exit status of a usage error. */
    public static final int USAGE_STATUS = 2;
    /** After a PE fails, the others get this long to notice and exit by themselves before SIGTERM. */
    private static final long SETTLE_NS = 1_000_000_000L;

    private final ShmemRunOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final Object outputLock = new Object();
    private final List<Process> processes = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();

    private ShmemRun(final ShmemRunOptions options, final PrintStream out, final PrintStream err)
    {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Runs a job and exits with its status. */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs a job in this JVM (tests do) and returns its status.
     *
     * @param args the command line.
     * @param out  where the PEs' stdout goes.
     * @param err  where the PEs' stderr and shmemrun's own messages go.
     * @return the job's exit status.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final ShmemRunOptions o;
        try
        {
            o = ShmemRunOptions.parse(args, System.getenv());
        }
        catch (final ShmemRunOptions.UsageException ex)
        {
            err.println("shmemrun: " + ex.getMessage() + " (see shmemrun --help)");
            return USAGE_STATUS;
        }
        if (o.help)
        {
            out.print(ShmemRunOptions.HELP);
            out.flush();
            return 0;
        }
        try
        {
            return new ShmemRun(o, out, err).runJob();
        }
        catch (final ShmemException | IOException ex)
        {
            err.println("shmemrun: " + ex.getMessage());
            return 1;
        }
    }

    private List<String> command(final String classpath)
    {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(options.jvmArgs);
        final String program = options.program;
        if (program.endsWith(".jar"))
        {
            if (options.classpath != null)
            {
                err.println("shmemrun: note: -cp is ignored for a jar (java -jar uses the jar's manifest Class-Path)");
            }
            cmd.add("-jar");
            cmd.add(program);
        }
        else
        {
            final String shortName = ShmemRunOptions.shortName(program, classpath);
            cmd.add("-cp");
            cmd.add(classpath);
            cmd.add(shortName != null ? shortName : program);
        }
        cmd.addAll(options.programArgs);
        return cmd;
    }

    private int runJob() throws IOException
    {
        final String classpath = options.classpath != null ? options.classpath : System.getProperty("java.class.path");
        final Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(options.env);
        final ShmemConfig config = ShmemConfig.of(env, null, null);
        final String jobId = BootstrapRootIds.newJobId();
        final BootstrapSettings settings = BootstrapSettings.from(config).withRootLogPrefix("shmemrun: ")
            .withJobId(jobId).withLog(line -> logLine(line));
        // all PEs run here: loopback, unless an interface is named
        final InetAddress bind = config.isSet(ShmemOptions.BOOTSTRAP_UID_SOCK_IFNAME) ? null
            : "AF_INET6".equals(config.get(ShmemOptions.BOOTSTRAP_UID_SOCK_FAMILY)) ? InetAddress.getByName("::1")
            : InetAddress.getByName("127.0.0.1");
        final BootstrapRoot root = bind == null ? BootstrapRoot.start(settings, options.np)
            : BootstrapRoot.start(settings, options.np, new InetSocketAddress(bind, 0));
        final Thread hook = Thread.ofPlatform().name("shmemrun-shutdown").unstarted(() -> endAll(1_000_000_000L));
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            final List<String> cmd = command(classpath);
            for (int rank = 0; rank < options.np; rank++)
            {
                final ProcessBuilder pb = new ProcessBuilder(cmd);
                final Map<String, String> pe = pb.environment();
                pe.put("SHMEM_BOOTSTRAP", "shmemrun");
                pe.put("JSHMEM_RANK", Integer.toString(rank));
                pe.put("JSHMEM_SIZE", Integer.toString(options.np));
                pe.put("JSHMEM_LOCAL_RANK", Integer.toString(rank));
                pe.put("JSHMEM_LOCAL_SIZE", Integer.toString(options.np));
                pe.put("JSHMEM_JOB_ID", jobId);
                pe.put("JSHMEM_LAUNCHER_PID", Long.toString(ProcessHandle.current().pid()));
                pe.put("SHMEM_BOOTSTRAP_UID", root.uniqueId().toText());
                pe.putAll(options.env);
                final Process p;
                synchronized (processes)
                {
                    p = pb.start();
                    processes.add(p);
                }
                p.getOutputStream().close();
                final String tag = options.tagOutput ? "[pe " + rank + "] " : "";
                pump(p.getInputStream(), out, tag, "shmemrun-out-" + rank);
                pump(p.getErrorStream(), err, tag, "shmemrun-err-" + rank);
            }
            return supervise(root);
        }
        finally
        {
            endAll((long)(options.graceSeconds * 1e9));
            for (final Thread t : pumps)
            {
                try
                {
                    t.join(5000);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
            root.close();
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException shuttingDown)
            {
                // the hook is running or ran: it ends the PEs
            }
        }
    }

    private void logLine(final String line)
    {
        synchronized (outputLock)
        {
            err.println(line);
            err.flush();
        }
    }

    private void pump(final java.io.InputStream in, final PrintStream to, final String tag, final String name)
    {
        final Thread t = Thread.ofPlatform().daemon().name(name).start(new OutputPump(in, to, tag, outputLock));
        pumps.add(t);
    }

    /** Waits for the PEs; ends the rest when one fails or the job overruns. */
    private int supervise(final BootstrapRoot root)
    {
        final long start = System.nanoTime();
        final long timeoutNs = options.timeoutSeconds > 0 ? (long)(options.timeoutSeconds * 1e9) : Long.MAX_VALUE;
        final int n = processes.size();
        final boolean[] seen = new boolean[n];
        int alive = n;
        Integer firstFailure = null;
        boolean timedOut = false;
        while (alive > 0)
        {
            for (int r = 0; r < n; r++)
            {
                final Process p = processes.get(r);
                if (!seen[r] && !p.isAlive())
                {
                    seen[r] = true;
                    alive--;
                    final int status = p.exitValue();
                    if (status != 0 && firstFailure == null && !timedOut)
                    {
                        firstFailure = status;
                        final Integer exit = root.exitStatus();
                        logLine("shmemrun: PE " + r + " exited with status " + status
                            + (exit != null ? " (global exit(" + exit + "))" : "")
                            + (alive > 0 ? "; ending the other " + alive + " PE(s)" : ""));
                        root.ending();
                        endAllAsync(SETTLE_NS);
                    }
                }
            }
            if (alive > 0 && !timedOut && System.nanoTime() - start > timeoutNs)
            {
                timedOut = true;
                logLine(String.format("shmemrun: the job exceeded --timeout %s s; ending %d PE(s) (exit %d)",
                    trim(options.timeoutSeconds), alive, TIMEOUT_STATUS));
                root.ending();
                endAllAsync(0);
            }
            if (alive > 0)
            {
                try
                {
                    Thread.sleep(20);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    endAll(0);
                    return 130;
                }
            }
        }
        if (timedOut)
        {
            return TIMEOUT_STATUS;
        }
        if (firstFailure != null)
        {
            final Integer exit = root.exitStatus();
            return exit != null && exit != 0 ? exit : firstFailure;
        }
        return 0;
    }

    private static String trim(final double d)
    {
        return d == Math.rint(d) ? Long.toString((long)d) : Double.toString(d);
    }

    /**
     * Ends the job from a background thread; the supervisor keeps reaping.
     *
     * @param settleNs how long PEs may take to notice a failure and exit by themselves (their own
     *                 message names the lost PE) before they are asked to stop.
     */
    private void endAllAsync(final long settleNs)
    {
        Thread.ofPlatform().daemon().name("shmemrun-ender").start(() ->
        {
            final long until = System.nanoTime() + settleNs;
            while (System.nanoTime() < until && anyAlive())
            {
                try
                {
                    Thread.sleep(10);
                }
                catch (final InterruptedException ex)
                {
                    break;
                }
            }
            endAll((long)(options.graceSeconds * 1e9));
        });
    }

    private boolean anyAlive()
    {
        synchronized (processes)
        {
            return processes.stream().anyMatch(Process::isAlive);
        }
    }

    /** Asks every live PE (and its descendants) to stop, then kills what is left after the grace. */
    private void endAll(final long graceNs)
    {
        final List<ProcessHandle> targets = new ArrayList<>();
        synchronized (processes)
        {
            for (final Process p : processes)
            {
                if (p.isAlive())
                {
                    p.toHandle().descendants().forEach(targets::add);
                    targets.add(p.toHandle());
                }
            }
        }
        if (targets.isEmpty())
        {
            return;
        }
        targets.forEach(ProcessHandle::destroy);
        final long deadline = System.nanoTime() + graceNs;
        for (final ProcessHandle h : targets)
        {
            while (h.isAlive() && System.nanoTime() < deadline)
            {
                try
                {
                    Thread.sleep(10);
                }
                catch (final InterruptedException ex)
                {
                    break;
                }
            }
        }
        for (final ProcessHandle h : targets)
        {
            if (h.isAlive())
            {
                h.destroyForcibly();
            }
        }
        for (final ProcessHandle h : targets)
        {
            try
            {
                h.onExit().get(2, java.util.concurrent.TimeUnit.SECONDS);
            }
            catch (final Exception ex)
            {
                // best effort: SIGKILL was sent
            }
        }
    }

    /** Job ids: random, so two jobs never share one. */
    private static final class BootstrapRootIds
    {
        static String newJobId()
        {
            final byte[] b = new byte[8];
            new java.security.SecureRandom().nextBytes(b);
            return java.util.HexFormat.of().formatHex(b);
        }
    }
}
