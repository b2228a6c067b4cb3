package io.jshmem.examples.stress;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The synchronization stress: many short {@link SyncStorm} jobs through {@code bin/shmemrun} on test hosts
 * ({@code bin/test-hosts}), over {@code SHMEM_TRANSPORT=p2p,ucx} by default, with a short
 * {@code SHMEM_COLLECTIVE_TIMEOUT} (60 s: a hang is for ever, and on a machine at load 80 a PE's 400 round trips
 * while the others wait took more than 5 s) so that a hang becomes a named timeout. Counts the jobs that
 * ended well, hung (a collective timed out), ran past the job's deadline (slow, or stuck outside a collective) or failed otherwise; keeps the output of every
 * job that did not end well, with a {@code jstack} of each of its PE JVMs taken when the first PE reported a
 * timeout or failure (or at the job's deadline), under the output directory.
 * <p>
 * Usage (from the worktree root, test hosts up with the same prefix, or {@code --up}):
 * <pre>
 * java -cp "$(cat examples/target/jshmem-classpath.txt):examples/target/classes" io.jshmem.examples.stress.SyncStress \
 *     [--jobs 50] [--layouts 1+1,2+2] [--rounds 100] [--collective-timeout-ms 60000] [--job-timeout 600]
 *     [--transport p2p,ucx] [--ucx-tls tcp] [--up] [--out DIR] [-x NAME=VALUE]... [--stop-after N]
 *     [--seed 1] [--hosts-prefix P] [--hosts-net A.B.C]
 * </pre>
 * Test hosts: {@code --hosts-prefix}/{@code --hosts-net}, by default {@code JSHMEM_TEST_HOSTS_PREFIX} /
 * {@code JSHMEM_TEST_HOSTS_NET} (hosts PREFIX1 and PREFIX2).
 * Exit status 0 when every job ended well, 1 otherwise, 2 on a usage error.
 */
public final class SyncStress
{
    /** What a run counted. */
    public record Summary(int jobs, int ok, int hangs, int timeouts, int failures, List<String> notOk)
    {
        /** @return the one-line verdict. */
        public String line()
        {
            return "sync-stress: " + jobs + " jobs: " + ok + " ok, " + hangs + " hung (collective timeout), " + timeouts +
                " past the job deadline, " + failures + " failed" +
                (notOk.isEmpty() ? "" : " " + notOk);
        }
    }

    /** The options. */
    static final class Options
    {
        int jobs = 50;
        List<int[]> layouts = List.of(new int[] {1, 1});
        int rounds = 100;
        long collectiveTimeoutMs = 60_000;
        long jobTimeoutS = 600;
        String transport = "p2p,ucx";
        String ucxTls = "tcp";
        boolean up;
        Path out;
        long seed = 1;
        int stopAfter = Integer.MAX_VALUE;
        String hostsPrefix = envOr("JSHMEM_TEST_HOSTS_PREFIX", "h");
        String hostsNet = envOr("JSHMEM_TEST_HOSTS_NET", "10.77.0");
        final List<String> env = new ArrayList<>();
    }

    private SyncStress()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Options o;
        try
        {
            o = parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("sync-stress: " + ex.getMessage());
            System.exit(2);
            return;
        }
        final Summary s = run(o, System.out);
        System.exit(s.ok() == s.jobs() ? 0 : 1);
    }

    static Options parse(final String[] args)
    {
        final Options o = new Options();
        for (int i = 0; i < args.length; i++)
        {
            final String a = args[i];
            if (a.equals("--up"))
            {
                o.up = true;
                continue;
            }
            if (i + 1 >= args.length)
            {
                throw new IllegalArgumentException(a + " needs a value (or is unknown)");
            }
            final String v = args[++i];
            switch (a)
            {
                case "--jobs" -> o.jobs = Integer.parseInt(v);
                case "--layouts" ->
                {
                    final List<int[]> l = new ArrayList<>();
                    for (final String layout : v.split(","))
                    {
                        final String[] parts = layout.split("\\+");
                        if (parts.length != 2)
                        {
                            throw new IllegalArgumentException("--layouts " + v + ": give PEs per host as A+B, e.g. 1+1,2+2");
                        }
                        l.add(new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])});
                    }
                    o.layouts = l;
                }
                case "--rounds" -> o.rounds = Integer.parseInt(v);
                case "--collective-timeout-ms" -> o.collectiveTimeoutMs = Long.parseLong(v);
                case "--job-timeout" -> o.jobTimeoutS = Long.parseLong(v);
                case "--transport" -> o.transport = v;
                case "--ucx-tls" -> o.ucxTls = v;
                case "--out" -> o.out = Path.of(v);
                case "--seed" -> o.seed = Long.parseLong(v);
                case "--stop-after" -> o.stopAfter = Integer.parseInt(v);
                case "-x" -> o.env.add(v);
                case "--hosts-prefix" -> o.hostsPrefix = v;
                case "--hosts-net" -> o.hostsNet = v;
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        return o;
    }

    /**
     * Runs the jobs one after the other (a machine with few cores: jobs side by side would only measure the load).
     *
     * @param out where the per-job lines and the summary go.
     */
    static Summary run(final Options o, final PrintStream out) throws IOException, InterruptedException
    {
        final Path root = root();
        final String prefix = o.hostsPrefix;
        final Path dir = o.out != null ? o.out : root.resolve("examples/target/sync-stress-" + System.currentTimeMillis());
        Files.createDirectories(dir);
        if (o.up)
        {
            hosts(root, o, "down");
            if (hosts(root, o, "up", "2") != 0)
            {
                throw new IllegalStateException("bin/test-hosts up 2 failed (prefix " + prefix + ")");
            }
        }
        int ok = 0;
        int hangs = 0;
        int failures = 0;
        int timeouts = 0;
        final List<String> notOk = new ArrayList<>();
        try
        {
            for (int j = 0; j < o.jobs && hangs + timeouts + failures < o.stopAfter; j++)
            {
                final int[] layout = o.layouts.get(j % o.layouts.size());
                final long seed = o.seed + j;
                final Job job = job(root, o, prefix, layout, seed, dir, j);
                final String name = "job " + j + " (" + layout[0] + "+" + layout[1] + ", seed " + seed + ")";
                switch (job.verdict)
                {
                    case OK -> ok++;
                    case HUNG -> hangs++;
                    case TIMEOUT -> timeouts++;
                    default -> failures++;
                }
                if (job.verdict != Verdict.OK)
                {
                    notOk.add(name + " " + job.verdict.name().toLowerCase() + " " + job.log.getFileName());
                }
                out.printf("%s: %s in %.1f s, status %d%s%n", name, job.verdict.name().toLowerCase(), job.seconds, job.status,
                    job.verdict == Verdict.OK ? "" : ", output and jstacks in " + job.log);
                out.flush();
            }
        }
        finally
        {
            if (o.up)
            {
                hosts(root, o, "down");
            }
        }
        final Summary s = new Summary(ok + hangs + timeouts + failures, ok, hangs, timeouts, failures, notOk);
        out.println(s.line() + "; rounds " + o.rounds + ", layouts " + layouts(o) + ", SHMEM_TRANSPORT=" + o.transport +
            ", UCX_TLS=" + o.ucxTls + ", SHMEM_COLLECTIVE_TIMEOUT=" + o.collectiveTimeoutMs + "ms; output in " + dir);
        return s;
    }

    private static String layouts(final Options o)
    {
        return String.join(",", o.layouts.stream().map(l -> l[0] + "+" + l[1]).toList());
    }

    /** OK; HUNG: a collective timed out; TIMEOUT: the job's deadline passed (slow, or stuck outside a collective); FAILED. */
    private enum Verdict
    {
        OK, HUNG, TIMEOUT, FAILED
    }

    private record Job(Verdict verdict, int status, double seconds, Path log)
    {
    }

    private static Job job(final Path root, final Options o, final String prefix, final int[] layout, final long seed, final Path dir,
        final int index) throws IOException, InterruptedException
    {
        final List<String> cmd = new ArrayList<>(List.of(root.resolve("bin/shmemrun").toString(),
            "--hosts", prefix + "1:" + layout[0] + "," + prefix + "2:" + layout[1],
            "--agent", root.resolve("bin/test-hosts") + " exec {host}",
            "--tag-output", "--timeout", Long.toString(o.jobTimeoutS + 60), // a backstop: the deadline is this class's
            "-cp", System.getProperty("java.class.path"),
            "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1",
            "-x", "SHMEM_TRANSPORT=" + o.transport,
            "-x", "SHMEM_COLLECTIVE_TIMEOUT=" + o.collectiveTimeoutMs + "ms",
            "-x", "SHMEM_BOOTSTRAP_TIMEOUT=120s", "-x", "SHMEM_SYMMETRIC_SIZE=16M")); // PE JVMs start slowly on a loaded machine
        if (o.ucxTls != null && !o.ucxTls.isEmpty() && !o.ucxTls.equals("default"))
        {
            cmd.addAll(List.of("-x", "UCX_TLS=" + o.ucxTls));
            if (o.ucxTls.contains("tcp"))
            {
                cmd.addAll(List.of("-x", "UCX_NET_DEVICES=eth0"));
            }
        }
        for (final String e : o.env)
        {
            cmd.addAll(List.of("-x", e));
        }
        cmd.addAll(List.of(SyncStorm.class.getName(), Integer.toString(o.rounds), Long.toString(seed)));
        final Path log = dir.resolve(String.format("job-%04d.log", index));
        final long t0 = System.nanoTime();
        final Process p = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        final StringBuilder output = new StringBuilder();
        final StringBuilder stacks = new StringBuilder();
        final AtomicBoolean dumped = new AtomicBoolean();
        final AtomicBoolean trouble = new AtomicBoolean();
        final Thread reader = Thread.ofPlatform().daemon().start(() ->
        {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = r.readLine()) != null)
                {
                    synchronized (output)
                    {
                        output.append(line).append('\n');
                    }
                    if ((line.contains("SHMEM_COLLECTIVE_TIMEOUT") || line.contains("storm FAILED")) && trouble.compareAndSet(false, true))
                    {
                        // the other PEs are still in their waits (a failing PE waits 2 s before it exits): dump them now
                        final String first = line0(line);
                        Thread.ofPlatform().daemon().start(() -> jstacks(p, stacks, dumped, "first failure line: " + first));
                    }
                }
            }
            catch (final IOException ex)
            {
                // the launcher ended
            }
        });
        final boolean ended = p.waitFor(o.jobTimeoutS, TimeUnit.SECONDS);
        if (!ended)
        {
            jstacks(p, stacks, dumped, "the job's deadline (" + o.jobTimeoutS + " s) passed");
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        reader.join(10_000);
        final double seconds = (System.nanoTime() - t0) / 1e9;
        final int status = ended ? p.exitValue() : -1;
        final String text;
        synchronized (output)
        {
            text = output.toString();
        }
        final long oks = text.lines().filter(l -> l.contains("storm ok pe ")).count();
        final Verdict verdict;
        if (status == 0 && oks == layout[0] + layout[1])
        {
            verdict = Verdict.OK;
        }
        else if (text.contains("SHMEM_COLLECTIVE_TIMEOUT") || text.contains("(collective timeout)"))
        {
            verdict = Verdict.HUNG;
        }
        else if (!ended || status == 124)
        {
            verdict = Verdict.TIMEOUT;
        }
        else
        {
            verdict = Verdict.FAILED;
        }
        if (verdict != Verdict.OK)
        {
            synchronized (stacks)
            {
                Files.writeString(log, String.join(" ", cmd) + "\n\nstatus " + status + " after " + seconds + " s\n\n" + text +
                    "\n\n==== jstack of the PE JVMs ====\n" + stacks);
            }
        }
        return new Job(verdict, status, seconds, log);
    }

    private static String line0(final String line)
    {
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    /** jstack of every JVM under the launcher other than the launcher's own (once per job). */
    private static void jstacks(final Process p, final StringBuilder stacks, final AtomicBoolean dumped, final String why)
    {
        if (!dumped.compareAndSet(false, true))
        {
            return;
        }
        final String jstack = Path.of(System.getProperty("java.home"), "bin", "jstack").toString();
        final StringBuilder b = new StringBuilder("taken at " + why + "\n");
        for (final ProcessHandle h : p.descendants().toList())
        {
            final String command = h.info().commandLine().orElse("");
            if (!command.contains(SyncStorm.class.getName()) || !h.info().command().orElse("").endsWith("java"))
            {
                continue;
            }
            b.append("\n---- pid ").append(h.pid()).append(": ").append(command.length() > 300 ? command.substring(command.length() - 300) : command)
                .append('\n');
            try
            {
                final Process j = new ProcessBuilder(jstack, Long.toString(h.pid())).redirectErrorStream(true).start();
                j.getOutputStream().close();
                final byte[] text = j.getInputStream().readAllBytes();
                if (!j.waitFor(20, TimeUnit.SECONDS))
                {
                    j.destroyForcibly();
                }
                b.append(new String(text, StandardCharsets.UTF_8));
            }
            catch (final IOException | InterruptedException ex)
            {
                b.append("jstack failed: ").append(ex).append('\n');
            }
        }
        synchronized (stacks)
        {
            stacks.append(b);
        }
    }

    private static int hosts(final Path root, final Options o, final String... args) throws IOException, InterruptedException
    {
        final List<String> cmd = new ArrayList<>(List.of(root.resolve("bin/test-hosts").toString()));
        cmd.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        pb.environment().put("JSHMEM_TEST_HOSTS_PREFIX", o.hostsPrefix);
        pb.environment().put("JSHMEM_TEST_HOSTS_NET", o.hostsNet);
        final Process p = pb.start();
        return p.waitFor(120, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    /** The worktree: JSHMEM_ROOT, else the first directory up from here that has bin/shmemrun. */
    static Path root()
    {
        final String env = System.getenv("JSHMEM_ROOT");
        if (env != null && !env.isBlank())
        {
            return Path.of(env);
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent())
        {
            if (Files.isExecutable(d.resolve("bin/shmemrun")))
            {
                return d;
            }
        }
        throw new IllegalStateException("cannot find bin/shmemrun above " + Path.of("").toAbsolutePath() + " (set JSHMEM_ROOT)");
    }

    private static String envOr(final String name, final String otherwise)
    {
        final String v = System.getenv(name);
        return v == null || v.isBlank() ? otherwise : v;
    }
}
