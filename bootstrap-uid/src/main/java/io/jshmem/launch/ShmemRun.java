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
 * With {@code --hosts}/{@code --hostfile} the PEs run on those hosts through the launch agent
 * ({@code ssh {host}} by default), placed block-wise, and the root runs on the first host as a
 * {@link RootAgent} that shmemrun starts through the same agent (docs/multihost.md).
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
    private final java.util.Set<String> condensedErrors = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The first PE the root reported lost (its log line), or -1: the likely culprit of a failure. */
    private volatile int firstLost = -1;
    /** WORLD PEs a collective timeout named as not arrived (the first such message of the job), or null. */
    private volatile int[] notArrived;
    /** Indexes of exited PE processes, in exit order (the first failure is the one that happened first). */
    private final java.util.concurrent.LinkedBlockingDeque<Integer> exits = new java.util.concurrent.LinkedBlockingDeque<>();
    /** Each PE's process (its agent's) by rank. */
    private final Map<Integer, Process> byRank = new java.util.concurrent.ConcurrentHashMap<>();
    /** Each PE's stderr pump: the summary of a PE's exit waits until its last lines were read. */
    private final java.util.Map<Process, Thread> errPumps = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.regex.Pattern NOT_ARRIVED =
        java.util.regex.Pattern.compile("\\(WORLD PEs \\[([0-9, ]+)\\]\\) have not arrived");
    private static final java.util.regex.Pattern LOST = java.util.regex.Pattern.compile("shmemrun: PE ([0-9]+) was lost \\(");

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

    private List<String> command(final String classpath) throws IOException
    {
        final List<String> cmd = new ArrayList<>();
        cmd.add(javaPath());
        if (options.jvmArgs.stream().noneMatch(a -> a.startsWith("--enable-native-access")))
        {
            cmd.add("--enable-native-access=ALL-UNNAMED"); // the ucx transport binds libucp with java.lang.foreign
        }
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
            final String main = shortName != null ? shortName : program;
            if (!ShmemRunOptions.classMayExist(main, classpath))
            {
                throw new IOException("no main class " + main + " on the PEs' class path ("
                    + (options.classpath != null ? "the -cp entries, then jshmem's own" : "jshmem's own; add yours with -cp")
                    + "); bundled short names: hello, ring, reinit");
            }
            cmd.add("-cp");
            cmd.add(classpath);
            cmd.add(main);
        }
        cmd.addAll(options.programArgs);
        return cmd;
    }

    /**
     * PE {@code rank}'s command: the job's, with a flight recording into {@code DIR/pe<rank>.jfr} under
     * {@code --jfr DIR} (dumped when the PE's JVM exits).
     */
    private List<String> peCommand(final List<String> cmd, final int rank)
    {
        // PE 0 trains a missing --aot-cache
        if (aot != null && aot.trains() && rank == 0)
        {
            final List<String> pe = new ArrayList<>(cmd);
            pe.addAll(1, aot.trainingArgs());
            return jfr(pe, rank);
        }
        return jfr(cmd, rank);
    }

    /** --aot-cache, or null. */
    private AotCache aot;

    private List<String> jfr(final List<String> cmd, final int rank)
    {
        if (options.jfrDir == null)
        {
            return cmd;
        }
        final List<String> pe = new ArrayList<>(cmd);
        final String file = options.hosts.isEmpty() ? Path.of(options.jfrDir, "pe" + rank + ".jfr").toAbsolutePath().toString()
            : options.jfrDir + "/pe" + rank + ".jfr";
        pe.add(1, "-Xlog:jfr+startup=off"); // not JFR's three "Started recording" lines per PE
        pe.add(2, "-XX:StartFlightRecording=name=jshmem,dumponexit=true,filename=" + file);
        return pe;
    }

    /** @return the job's AOT cache ({@code --aot-cache}, auto by default), prepared; null for none. */
    private AotCache aotCache(final List<String> cmd, final String classpath, final Map<String, String> env) throws IOException
    {
        final String jar = options.program.endsWith(".jar") ? options.program : null;
        if (AotCache.OFF.equals(options.aotCache))
        {
            return null;
        }
        if (!AotCache.AUTO.equals(options.aotCache))
        {
            final AotCache given = new AotCache(options.aotCache, !options.hosts.isEmpty(), err);
            given.prepare(cmd, classpath, jar, javaPath());
            return given;
        }
        final AotCache auto = AotCache.auto(options.np, cmd, classpath, jar, env, System.getenv(), !options.hosts.isEmpty(), err);
        if (auto == null)
        {
            return null;
        }
        try
        {
            auto.prepare(cmd, classpath, jar, javaPath()); // changes cmd only where it returns
            return auto;
        }
        catch (final IOException ex)
        {
            return null; // auto never fails a job: it runs without a cache
        }
    }

    /** The job's root as the supervisor sees it: in this JVM, or a {@link RootAgent} on the first host. */
    private interface JobRoot
    {
        /** @return the status of a global exit, or null. */
        Integer exitStatus();

        /** The launcher is ending the job. */
        void ending();

        /** @return why the root ended before the job did, or null while it runs. */
        String problem();
    }

    private int runJob() throws IOException
    {
        // -cp adds the application's class path in front of jshmem's own
        final String classpath = options.classpath != null
            ? options.classpath + java.io.File.pathSeparator + System.getProperty("java.class.path") : System.getProperty("java.class.path");
        final List<String> cmd = command(classpath);
        final Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(options.env);
        aot = aotCache(cmd, classpath, env);
        if (options.jfrDir != null && options.hosts.isEmpty())
        {
            java.nio.file.Files.createDirectories(Path.of(options.jfrDir));
        }
        final ShmemConfig config = ShmemConfig.of(env, null, null);
        final String jobId = BootstrapRoot.randomJobId();
        final Thread hook = Thread.ofPlatform().name("shmemrun-shutdown").unstarted(() ->
        {
            endAll(1_000_000_000L);
            closeRemoteRoot();
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try
        {
            final int status = options.hosts.isEmpty() ? runLocal(cmd, config, jobId) : runOnHosts(cmd, config, jobId);
            if (aot != null)
            {
                aot.jobEnded(status);
            }
            return status;
        }
        finally
        {
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

    private int runLocal(final List<String> cmd, final ShmemConfig config, final String jobId) throws IOException
    {
        final BootstrapSettings settings = BootstrapSettings.from(config).withRootLogPrefix("shmemrun: ")
            .withJobId(jobId).withLog(line -> rootLog(line));
        // all PEs run here: loopback, unless an interface is named
        final InetAddress bind = config.isSet(ShmemOptions.BOOTSTRAP_UID_SOCK_IFNAME) ? null
            : "AF_INET6".equals(config.get(ShmemOptions.BOOTSTRAP_UID_SOCK_FAMILY)) ? InetAddress.getByName("::1")
            : InetAddress.getByName("127.0.0.1");
        final BootstrapRoot root = bind == null ? BootstrapRoot.start(settings, options.np)
            : BootstrapRoot.start(settings, options.np, new InetSocketAddress(bind, 0));
        try
        {
            final List<String> labels = new ArrayList<>();
            for (int rank = 0; rank < options.np; rank++)
            {
                final ProcessBuilder pb = new ProcessBuilder(peCommand(cmd, rank));
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
                final Process p = startPe(pb, rank);
                p.getOutputStream().close();
                labels.add("PE " + rank);
            }
            return supervise(new JobRoot()
            {
                @Override
                public Integer exitStatus()
                {
                    return root.exitStatus();
                }

                @Override
                public void ending()
                {
                    root.ending();
                }

                @Override
                public String problem()
                {
                    return null;
                }
            }, labels);
        }
        finally
        {
            endAll((long)(options.graceSeconds * 1e9));
            joinPumps();
            root.close();
        }
    }

    private Process startPe(final ProcessBuilder pb, final int rank) throws IOException
    {
        final Process p;
        synchronized (processes)
        {
            p = pb.start();
            processes.add(p);
            final int index = processes.size() - 1;
            p.onExit().thenRun(() -> exits.offerLast(index)); // exits are judged in the order they happened
            byRank.put(rank, p);
        }
        final String tag = options.tagOutput ? "[pe " + rank + "] " : "";
        // a PE training the AOT cache: not the JDK's lines about writing it
        final java.util.function.Predicate<String> dropped = aot != null && aot.trains() && rank == 0 ? aot::jdkTrainingLine : null;
        pumps.add(Thread.ofPlatform().daemon().name("shmemrun-out-" + rank)
            .start(new OutputPump(p.getInputStream(), out, tag, outputLock).dropping(dropped)));
        final Thread t = Thread.ofPlatform().daemon().name("shmemrun-err-" + rank)
            .start(new OutputPump(p.getErrorStream(), err, tag, outputLock, condensedErrors, this::peErrLine).dropping(dropped));
        pumps.add(t);
        errPumps.put(p, t);
        return p;
    }

    private void joinPumps()
    {
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
    }

    /** Runs a shell command line on the remote side: cd to the launcher's directory (if it exists there). */
    static final String ROOT_SCRIPT = "cd \"$1\" 2>/dev/null || cd; shift; exec \"$@\"";
    /** As {@link #ROOT_SCRIPT}, and first reads the unique id (the job's secret) from stdin, so it is on no command line. */
    static final String PE_SCRIPT = "cd \"$1\" 2>/dev/null || cd; shift; IFS= read -r SHMEM_BOOTSTRAP_UID"
        + " || { echo \"shmemrun: no unique id on stdin\" >&2; exit 1; }; export SHMEM_BOOTSTRAP_UID; exec \"$@\"";

    /**
     * The agent's command line running {@code command} on {@code host} under {@code sh -c script}
     * with {@code env NAME=VALUE...} in front: argument words for most agents, one shell-quoted word
     * each for ssh/rsh (which hand the remote shell one command line).
     */
    static List<String> remoteCommand(final String agent, final String host, final String script, final String name,
        final Map<String, String> env, final List<String> command)
    {
        final List<String> words = ShmemRunOptions.agentWords(agent, host);
        final boolean quote = ShmemRunOptions.agentUsesShell(words);
        final List<String> remote = new ArrayList<>(List.of("sh", "-c", script, name, Path.of("").toAbsolutePath().toString(), "env"));
        env.forEach((k, v) -> remote.add(k + "=" + v));
        remote.addAll(command);
        for (final String w : remote)
        {
            words.add(quote ? ShmemRunOptions.shellQuote(w) : w);
        }
        return words;
    }

    private volatile RemoteRoot remoteRoot;

    private int runOnHosts(final List<String> cmd, final ShmemConfig config, final String jobId) throws IOException
    {
        final List<ShmemRunOptions.Placement> placements = ShmemRunOptions.place(options.hosts, options.np);
        final long distinctHosts = placements.stream().map(ShmemRunOptions.Placement::host).distinct().count();
        // what the PEs and the root get on their command lines: the launcher's SHMEM_*/SMA_* options, then -x
        final Map<String, String> forwarded = new java.util.TreeMap<>();
        System.getenv().forEach((k, v) ->
        {
            if ((k.startsWith("SHMEM_") || k.startsWith("SMA_")) && !k.equals("SHMEM_BOOTSTRAP_UID") && !k.equals("SHMEM_BOOTSTRAP"))
            {
                forwarded.put(k, v);
            }
        });
        final boolean loopback = distinctHosts == 1 && !config.isSet(ShmemOptions.BOOTSTRAP_UID_SOCK_IFNAME)
            && !config.isSet(ShmemOptions.BOOTSTRAP_UID_SESSION_ID);
        final String rootHost = placements.get(0).host();
        final Map<String, String> rootEnv = new java.util.LinkedHashMap<>(forwarded);
        rootEnv.putAll(options.env);
        rootEnv.remove("SHMEM_BOOTSTRAP_UID");
        final List<String> rootCmd = new ArrayList<>(List.of(javaPath(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Xshare:auto", "-Xmx64m", "-cp", System.getProperty("java.class.path"), RootAgent.class.getName(),
            "--np", Integer.toString(options.np), "--job-id", jobId));
        if (loopback)
        {
            rootCmd.add("--loopback");
        }
        final RemoteRoot root = new RemoteRoot(rootHost,
            remoteCommand(options.agent, rootHost, ROOT_SCRIPT, "jshmem-root", rootEnv, rootCmd));
        remoteRoot = root;
        try
        {
            final String uid = root.awaitUid(BootstrapSettings.from(config).timeoutNs());
            final List<String> labels = new ArrayList<>();
            for (final ShmemRunOptions.Placement pl : placements)
            {
                final Map<String, String> pe = new java.util.LinkedHashMap<>(forwarded);
                pe.put("SHMEM_BOOTSTRAP", "shmemrun");
                pe.put("JSHMEM_RANK", Integer.toString(pl.rank()));
                pe.put("JSHMEM_SIZE", Integer.toString(options.np));
                pe.put("JSHMEM_LOCAL_RANK", Integer.toString(pl.localRank()));
                pe.put("JSHMEM_LOCAL_SIZE", Integer.toString(pl.localSize()));
                pe.put("JSHMEM_JOB_ID", jobId);
                pe.putAll(options.env);
                final ProcessBuilder pb = new ProcessBuilder(remoteCommand(options.agent, pl.host(), PE_SCRIPT, "jshmem-pe", pe, peCommand(cmd, pl.rank())));
                final Process p = startPe(pb, pl.rank());
                try (var stdin = p.getOutputStream())
                {
                    stdin.write((uid + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                catch (final IOException ex)
                {
                    // the agent ended at once: the supervisor reports its status
                }
                labels.add("PE " + pl.rank() + " on " + pl.host());
            }
            final int status = supervise(root, labels);
            endAll((long)(options.graceSeconds * 1e9));
            closeRemoteRoot(); // reads the root's last word: a global exit it saw after the PEs ended
            final Integer exit = root.exitStatus();
            return status != 0 && status != TIMEOUT_STATUS && exit != null && exit != 0 ? exit : status;
        }
        finally
        {
            endAll((long)(options.graceSeconds * 1e9));
            joinPumps();
            closeRemoteRoot();
        }
    }

    private void closeRemoteRoot()
    {
        final RemoteRoot r = remoteRoot;
        if (r != null)
        {
            r.close((long)(options.graceSeconds * 1e9));
        }
    }

    private static String javaPath()
    {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The {@link RootAgent} on the first host, through the agent: its stdout says the unique id and a
     * global exit; its stderr (the root's log) is relayed; closing its stdin ends it.
     */
    private final class RemoteRoot implements JobRoot
    {
        private final String host;
        private final Process process;
        private final java.util.concurrent.CompletableFuture<String> uid = new java.util.concurrent.CompletableFuture<>();
        private final Thread reader;
        private final Thread errPump;
        private volatile Integer exitStatus;
        private volatile boolean closing;

        RemoteRoot(final String host, final List<String> command) throws IOException
        {
            this.host = host;
            this.process = new ProcessBuilder(command).start();
            errPump = Thread.ofPlatform().daemon().name("shmemrun-root-err").start(() ->
            {
                try (java.io.BufferedReader r = process.errorReader(java.nio.charset.StandardCharsets.UTF_8))
                {
                    String line;
                    while ((line = r.readLine()) != null)
                    {
                        rootLog(line);
                    }
                }
                catch (final IOException ex)
                {
                    // the root ended
                }
            });
            reader = Thread.ofPlatform().daemon().name("shmemrun-root-out").start(this::read);
        }

        private void read()
        {
            try (java.io.BufferedReader r = process.inputReader(java.nio.charset.StandardCharsets.UTF_8))
            {
                String line;
                while ((line = r.readLine()) != null)
                {
                    final RootLines.Said said = RootLines.parse(line);
                    if (said == null)
                    {
                        if (!line.isBlank())
                        {
                            logLine(line); // the root JVM's own output (a diagnostic passed with -x JAVA_TOOL_OPTIONS)
                        }
                        continue;
                    }
                    if (!said.before().isBlank())
                    {
                        logLine(said.before());
                    }
                    switch (said.kind())
                    {
                        case UID -> uid.complete(said.value());
                        case EXIT -> exitStatus = Integer.valueOf(said.value());
                        case CLOSED ->
                        {
                            // the root closed: its stdout ends next
                        }
                    }
                }
            }
            catch (final IOException ex)
            {
                // the root ended
            }
            uid.complete(null);
        }

        String awaitUid(final long timeoutNs) throws IOException
        {
            final String text;
            try
            {
                text = uid.get(timeoutNs, java.util.concurrent.TimeUnit.NANOSECONDS);
            }
            catch (final java.util.concurrent.TimeoutException ex)
            {
                throw new IOException("the bootstrap root on " + host + " did not start within " + timeoutNs / 1_000_000
                    + " ms (SHMEM_BOOTSTRAP_TIMEOUT); agent: " + String.join(" ", ShmemRunOptions.agentWords(options.agent, host)));
            }
            catch (final InterruptedException | java.util.concurrent.ExecutionException ex)
            {
                throw new IOException("interrupted while starting the bootstrap root on " + host, ex);
            }
            if (text == null)
            {
                String status = "";
                try
                {
                    if (process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS))
                    {
                        status = " (exit status " + process.exitValue() + ")";
                    }
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
                try
                {
                    errPump.join(2000);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
                throw new IOException("the bootstrap root on " + host + " ended before giving its unique id" + status
                    + "; agent: " + String.join(" ", ShmemRunOptions.agentWords(options.agent, host)));
            }
            return text;
        }

        @Override
        public Integer exitStatus()
        {
            return exitStatus;
        }

        @Override
        public void ending()
        {
            try
            {
                final var in = process.getOutputStream();
                in.write("ending\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                in.flush();
            }
            catch (final IOException ex)
            {
                // the root is gone already
            }
        }

        @Override
        public String problem()
        {
            return !closing && !process.isAlive()
                ? "the bootstrap root on " + host + " ended (status " + process.exitValue() + ")" : null;
        }

        /** Closes its stdin so it ends; after the grace, the agent process is killed. */
        void close(final long graceNs)
        {
            closing = true;
            try
            {
                process.getOutputStream().close();
            }
            catch (final IOException ex)
            {
                // gone already
            }
            try
            {
                if (!process.waitFor(Math.max(graceNs, 2_000_000_000L), java.util.concurrent.TimeUnit.NANOSECONDS))
                {
                    process.descendants().forEach(ProcessHandle::destroy);
                    process.destroy();
                    if (!process.waitFor(2, java.util.concurrent.TimeUnit.SECONDS))
                    {
                        process.descendants().forEach(ProcessHandle::destroyForcibly);
                        process.destroyForcibly();
                        process.waitFor(2, java.util.concurrent.TimeUnit.SECONDS);
                    }
                }
                reader.join(2000);
                errPump.join(2000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    /**
     * A line of a PE's stderr: notes the PEs the first collective timeout says never arrived (a hung PE
     * is alive and connected, so only the waiters' timeout names it).
     */
    private void peErrLine(final String line)
    {
        if (notArrived == null && line.contains("SHMEM_COLLECTIVE_TIMEOUT"))
        {
            final java.util.regex.Matcher m = NOT_ARRIVED.matcher(line);
            if (m.find())
            {
                notArrived = java.util.Arrays.stream(m.group(1).split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
            }
        }
    }

    private void awaitErrPump(final Process p)
    {
        final Thread t = errPumps.get(p);
        if (t != null)
        {
            try
            {
                t.join(1000);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** "; PE 1 never arrived ..." when a collective timeout named PEs other than the one that exited. */
    private String notArrivedText(final List<String> labels, final int exited)
    {
        final int[] pes = notArrived;
        if (pes == null)
        {
            return "";
        }
        final List<String> named = java.util.Arrays.stream(pes).filter(pe -> pe >= 0 && pe < labels.size() && pe != exited)
            .mapToObj(labels::get).toList();
        if (named.isEmpty())
        {
            return "";
        }
        return "; " + String.join(", ", named) + " never arrived"
            + " at a collective the others waited in (SHMEM_COLLECTIVE_TIMEOUT; hung, or busy outside jshmem)";
    }

    /** A line of the root's log: notes the first lost PE, then prints it; a lost PE still alive is ended. */
    private void rootLog(final String line)
    {
        final java.util.regex.Matcher m = LOST.matcher(line);
        final int lost = m.lookingAt() ? Integer.parseInt(m.group(1)) : -1;
        if (firstLost < 0 && lost >= 0)
        {
            firstLost = lost;
        }
        logLine(line);
        if (lost >= 0 && line.startsWith("was lost (no heartbeat", m.end() - "was lost (".length()))
        {
            endSilent(lost); // a PE lost by EOF has ended or is ending by itself: its status stays its own
        }
    }

    /**
     * The root declared PE {@code rank} lost for its silence, so the job is over. If its process here is still alive it is silent
     * (stopped, cut off with its host's link, hung) and is ended now rather than after the others exit and
     * settle: SIGTERM, or SIGKILL if it is stopped (SIGSTOP, a debugger's stop: a stopped process keeps SIGTERM
     * pending until continued). A PE on another host is this process only when the agent execs it
     * ({@code bin/test-hosts exec}, not ssh, where this ends the ssh client).
     */
    private void endSilent(final int rank)
    {
        final Process p = byRank.get(rank);
        if (p != null && p.isAlive())
        {
            if (stopped(p.toHandle()))
            {
                logLine("shmemrun: PE " + rank + " is stopped (SIGSTOP); killing it (SIGKILL)");
                p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            else
            {
                p.toHandle().descendants().forEach(ProcessHandle::destroy);
                p.destroy();
            }
        }
    }

    /** @return true if the process is stopped or traced (Linux /proc state T or t); false where unknown. */
    static boolean stopped(final ProcessHandle h)
    {
        try
        {
            final String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
            final int close = stat.lastIndexOf(')');
            final char state = close > 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
            return state == 'T' || state == 't';
        }
        catch (final IOException | RuntimeException ex)
        {
            return false;
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

    /** Waits for the PEs; ends the rest when one fails or the job overruns. */
    /** How long a failed job waits for the first lost PE's exit to be reaped, so its status is the job's. */
    private static final long FIRST_LOST_REAP_NS = 200_000_000L;

    /** @return whether the process ended within {@code ns}. */
    private static boolean awaitExit(final Process p, final long ns)
    {
        try
        {
            return p.waitFor(ns, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private int supervise(final JobRoot root, final List<String> labels)
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
            for (Integer exited = exits.pollFirst(); exited != null; exited = exits.pollFirst())
            {
                int r = exited;
                if (r < n && !seen[r])
                {
                    Process p = processes.get(r);
                    seen[r] = true;
                    alive--;
                    int status = p.exitValue();
                    if (status != 0 && firstFailure == null && !timedOut)
                    {
                        // The job's status is the PE whose loss failed the others: when the root saw another PE go first
                        // (its control channel closed as it exited), that PE's exit may just not be reaped yet.
                        final int first = firstLost;
                        if (first >= 0 && first != r && first < n && !seen[first] && awaitExit(processes.get(first), FIRST_LOST_REAP_NS)
                            && processes.get(first).exitValue() != 0)
                        {
                            seen[first] = true;
                            alive--;
                            r = first;
                            p = processes.get(first);
                            status = p.exitValue();
                        }
                        firstFailure = status;
                        awaitErrPump(p); // its last words (a timeout naming who never arrived) come before the summary
                        final Integer exit = root.exitStatus();
                        final int lost = firstLost;
                        // a collective timeout names the PE that never arrived; waiters that timed out and left are not the news
                        final String hung = notArrivedText(labels, r);
                        logLine("shmemrun: " + labels.get(r) + " exited with status " + status
                            + (exit != null ? " (global exit(" + exit + "))" : "")
                            + (exit == null && hung.isEmpty() && lost >= 0 && lost != r && lost < n ? "; the first PE lost was " + labels.get(lost)
                                + (seen[lost] ? " (it exited with status " + processes.get(lost).exitValue() + " without leaving the job)"
                                : " (its control channel closed or it went silent)") : "")
                            + (exit == null ? hung : "")
                            + (alive > 0 ? "; ending the other " + alive + " PE(s)" : ""));
                        root.ending();
                        endAllAsync(SETTLE_NS);
                    }
                }
            }
            final String problem = alive > 0 && firstFailure == null && !timedOut ? root.problem() : null;
            if (problem != null)
            {
                firstFailure = 1;
                logLine("shmemrun: " + problem + "; ending the " + alive + " PE(s)");
                root.ending();
                endAllAsync(SETTLE_NS);
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
                    // an exit ends the wait at once; otherwise 20 polls a second (an idle job's launcher costs ~0.2 % of a core)
                    final Integer exited = exits.pollFirst(50, java.util.concurrent.TimeUnit.MILLISECONDS);
                    if (exited != null)
                    {
                        exits.offerFirst(exited);
                    }
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

    /** Asks every live PE (and its descendants) to stop, then kills what is left after the grace (a stopped one at once). */
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
        // a stopped process keeps SIGTERM pending until continued: it gets SIGKILL at once, not after the grace
        targets.forEach(h ->
        {
            if (stopped(h))
            {
                h.destroyForcibly();
            }
            else
            {
                h.destroy();
            }
        });
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
}
