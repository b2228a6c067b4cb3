package io.jshmem.examples;

import io.jshmem.launch.TestHosts;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs bin/shmemrun with --hosts on test hosts, as a user does, and checks every PE's output. */
final class HostJobs
{
    private final TestHosts hosts;

    HostJobs(final TestHosts hosts)
    {
        this.hosts = hosts;
    }

    /** A finished launcher: its status and merged output. */
    record Job(int status, String output)
    {
    }

    Process start(final String... args) throws Exception
    {
        final List<String> cmd = new ArrayList<>(List.of(TestHosts.ROOT.resolve("bin/shmemrun").toString(),
            "-cp", System.getProperty("java.class.path"), "--agent", hosts.agent(), "--tag-output",
            "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1",
            "-x", "SHMEM_BOOTSTRAP_TIMEOUT=30s", "-x", "SHMEM_SYMMETRIC_SIZE=16M"));
        cmd.addAll(Arrays.asList(args));
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        return p;
    }

    Job run(final String... args) throws Exception
    {
        final Process p = start(args);
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "shmemrun did not end:\n" + out);
        return new Job(p.exitValue(), out);
    }

    /**
     * Ring on the layout: exit 0, every PE's line, the token sum on PE 0, no heap file left on any host.
     *
     * @param options shmemrun options before the program (e.g. {@code -x SHMEM_TRANSPORT=ucx}).
     */
    Job ring(final String hostList, final int n, final int hostCount, final String... options) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("--hosts", hostList));
        args.addAll(Arrays.asList(options));
        args.add("ring");
        final Job job = run(args.toArray(String[]::new));
        assertEquals(0, job.status(), job.output());
        final List<String> lines = job.output().lines().toList();
        for (int r = 0; r < n; r++)
        {
            final String want = "[pe " + r + "] pe " + r + "/" + n + " got " + Math.floorMod(r - 1, n) + " from the left, ticket ";
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(want)), "PE " + r + ":\n" + job.output());
        }
        final long sum = (long)n * (n - 1) / 2;
        assertTrue(job.output().contains(", token sum " + sum + " (expected " + sum + ")"), job.output());
        noHeapFiles(hostCount);
        return job;
    }

    /** Hello on the layout: every PE's line with its node rank, and the host of every rank. */
    void hello(final String hostList, final int[] perHost) throws Exception
    {
        final int n = Arrays.stream(perHost).sum();
        final Job job = run("--hosts", hostList, "hello");
        assertEquals(0, job.status(), job.output());
        final StringBuilder placement = new StringBuilder("hosts: ");
        int rank = 0;
        for (int h = 0; h < perHost.length; h++)
        {
            for (int l = 0; l < perHost[h]; l++, rank++)
            {
                placement.append(rank == 0 ? "" : ", ").append(rank).append('=').append(hosts.host(h + 1));
            }
        }
        rank = 0;
        for (final int local : perHost)
        {
            for (int l = 0; l < local; l++, rank++)
            {
                final String want = "[pe " + rank + "] Hello from PE " + rank + " of " + n + " (node rank " + l + " of " + local
                    + ", launcher shmemrun";
                assertTrue(job.output().lines().anyMatch(x -> x.startsWith(want) && x.endsWith(placement.toString())),
                    "PE " + rank + " with " + placement + ":\n" + job.output());
            }
        }
        noHeapFiles(perHost.length);
    }

    void noHeapFiles(final int hostCount) throws Exception
    {
        for (int i = 1; i <= hostCount; i++)
        {
            assertEquals(List.of(), hosts.heapFiles(i), "heap files left on " + hosts.host(i));
        }
        for (int i = 0; i < 100 && !hosts.processes(hostCount).isEmpty(); i++)
        {
            Thread.sleep(50);
        }
        assertEquals(List.of(), hosts.processes(hostCount), "processes left on the hosts");
    }

    /**
     * A job's placement for the fault cases: the {@code --hosts} list, its PEs and hosts; the fault hits the last PE,
     * which is on the last host.
     */
    record Layout(String hostList, int pes, int hostCount)
    {
        int victim()
        {
            return pes - 1;
        }
    }

    /** @return 2+2 on the first two hosts. */
    Layout twoPlusTwo()
    {
        return new Layout(hosts.host(1) + ":2," + hosts.host(2) + ":2", 4, 2);
    }

    /**
     * IdlePe on 2+2 (with the shmemrun options given); kills PE 3 (on the second host) and asserts the job ends within 5 s naming it.
     */
    void killOnSecondHost(final String... options) throws Exception
    {
        kill(twoPlusTwo(), options);
    }

    /** IdlePe on the layout; kills the last PE and asserts the job ends within 5 s naming it, nothing left. */
    void kill(final Layout layout, final String... options) throws Exception
    {
        final int v = layout.victim();
        failOn(layout, pid -> new ProcessBuilder("kill", "-KILL", Long.toString(pid)).start().waitFor(), "PE " + v + " was killed",
            (status, log) ->
            {
                assertEquals(137, status, log);
                assertTrue(log.contains("shmemrun: PE " + v + " on " + hosts.host(layout.hostCount()) + " exited with status 137"), log);
            }, options);
    }

    /**
     * IdlePe on 2+2; stops PE 3 (SIGSTOP, on the second host): silent but holding its sockets open, it is named lost by
     * the root and the other PEs, and the job ends within 5 s with nothing left (the launcher kills the stopped process,
     * which would keep a SIGTERM pending forever).
     */
    void stopOnSecondHost(final String... options) throws Exception
    {
        stop(twoPlusTwo(), options);
    }

    /** IdlePe on the layout; stops the last PE (SIGSTOP): named lost by the root and another PE, the job ends within 5 s. */
    void stop(final Layout layout, final String... options) throws Exception
    {
        final int v = layout.victim();
        failOn(layout, pid -> new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor(), "PE " + v + " was stopped (SIGSTOP)",
            (status, log) ->
            {
                assertTrue(status != 0, log);
                assertTrue(log.contains("shmemrun: PE " + v + " was lost (no heartbeat for "), "the root names PE " + v + " lost:\n" + log);
                assertTrue(log.lines().anyMatch(l -> l.startsWith("[pe ") && !l.startsWith("[pe " + v + "]")
                    && l.contains("PE " + v + " was lost (no heartbeat for ")), "another PE names PE " + v + " as lost:\n" + log);
                assertTrue(log.contains("shmemrun: PE " + v + " is stopped (SIGSTOP); killing it (SIGKILL)"), log);
            }, options);
    }

    /**
     * 2+2 idle PEs; the second host's link goes down (its eth0, inside its namespace): the job ends within 5 s, a PE
     * of the first host naming a PE of the second as lost, and no process is left on either host. The link comes
     * back up afterwards.
     */
    void linkDownOnSecondHost(final String... options) throws Exception
    {
        try
        {
            failOn(twoPlusTwo(), pid3 -> new ProcessBuilder("ip", "-n", hosts.host(2), "link", "set", "eth0", "down").inheritIO().start().waitFor(),
                "the second host's link went down", (status, log) ->
                {
                    assertTrue(status != 0, log);
                    assertTrue(log.lines().anyMatch(l -> l.matches("\\[pe [01]\\] .*PE [23] was lost.*")),
                        "a PE of the first host names one of the second as lost:\n" + log);
                }, options);
        }
        finally
        {
            new ProcessBuilder("ip", "-n", hosts.host(2), "link", "set", "eth0", "up").inheritIO().start().waitFor();
        }
    }

    private interface Fault
    {
        /** @param pid the last PE's process. */
        void inject(long pid) throws Exception;
    }

    private interface Verdict
    {
        void check(int status, String log);
    }

    /** Starts idle PEs on the layout, injects the fault once all run, and checks the job ends within 5 s leaving nothing. */
    private void failOn(final Layout layout, final Fault fault, final String what, final Verdict verdict, final String... options) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("--hosts", layout.hostList()));
        args.addAll(Arrays.asList(options));
        args.add(IdlePe.class.getName());
        final Process launcher = start(args.toArray(String[]::new));
        final StringBuilder log = new StringBuilder();
        try
        {
            final BufferedReader r = launcher.inputReader();
            long pid = -1;
            int seen = 0;
            String line;
            while (seen < layout.pes() && (line = r.readLine()) != null)
            {
                log.append(line).append('\n');
                if (line.matches("\\[pe [0-9]+\\] idle pid=[0-9]+"))
                {
                    seen++;
                    if (line.startsWith("[pe " + layout.victim() + "]"))
                    {
                        pid = Long.parseLong(line.substring(line.indexOf('=') + 1));
                    }
                }
            }
            assertEquals(layout.pes(), seen, "every PE started:\n" + log);
            final long t0 = System.nanoTime();
            fault.inject(pid);
            while ((line = r.readLine()) != null)
            {
                log.append(line).append('\n');
            }
            assertTrue(launcher.waitFor(10, TimeUnit.SECONDS), log.toString());
            final double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf("%s: the job ended %.2f s after %s%n", getClass().getSimpleName(), seconds, what);
            assertTrue(seconds < 5, "the job ended " + seconds + " s after " + what + ":\n" + log);
            verdict.check(launcher.exitValue(), log.toString());
            for (int i = 0; i < 100 && !hosts.processes(layout.hostCount()).isEmpty(); i++)
            {
                Thread.sleep(50);
            }
            assertEquals(List.of(), hosts.processes(layout.hostCount()), "processes left on the hosts");
        }
        finally
        {
            launcher.destroyForcibly();
        }
    }
}
