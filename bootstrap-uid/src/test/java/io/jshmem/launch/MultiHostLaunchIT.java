package io.jshmem.launch;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs across test hosts (bin/test-hosts: network, UTS and mount namespaces; root only), launched as
 * users launch them: shmemrun with --hosts and an agent, and torchrun/SLURM/Open MPI/PMI-style
 * environments set by hand on each host. The PEs use the bootstrap only (TestPe), so these need no
 * inter-node transport.
 */
class MultiHostLaunchIT
{
    @RegisterExtension
    static final TestHosts HOSTS = TestHosts.ownOr("jsml", "10.92.0").upForClass(2);
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final String CP = System.getProperty("java.class.path");

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();


    @AfterEach
    void nothingLeftOnTheHosts() throws Exception
    {
        for (int i = 0; i < 100 && !HOSTS.processes(2).isEmpty(); i++)
        {
            Thread.sleep(50);
        }
        assertEquals(List.of(), HOSTS.processes(2), "processes left on the test hosts");
        for (int i = 0; i < 100 && ProcessHandle.current().descendants().findAny().isPresent(); i++)
        {
            Thread.sleep(50);
        }
        assertEquals(List.of(), ProcessHandle.current().descendants().map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList());
    }

    private int shmemrun(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("-cp", CP, "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1",
            "-x", "SHMEM_BOOTSTRAP_TIMEOUT=30s", "--agent", HOSTS.agent()));
        all.addAll(Arrays.asList(args));
        try (PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
             PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8))
        {
            return ShmemRun.run(all.toArray(String[]::new), out, err);
        }
    }

    private String both()
    {
        return "--- stdout\n" + outBytes.toString(StandardCharsets.UTF_8) + "--- stderr\n" + errBytes.toString(StandardCharsets.UTF_8);
    }

    /** Runs TestPe hello on the layout and checks every PE's line: rank, size, node rank and size, the allgather. */
    private void hello(final String hosts, final int[] perHost)
    {
        final int n = Arrays.stream(perHost).sum();
        final int status = shmemrun("--hosts", hosts, "--tag-output", TestPe.class.getName(), "hello");
        assertEquals(0, status, both());
        final List<String> lines = outBytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(n, lines.size(), both());
        final StringBuilder all = new StringBuilder(" all:");
        for (int r = 0; r < n; r++)
        {
            all.append(" rank").append(r);
        }
        int rank = 0;
        for (final int local : perHost)
        {
            for (int l = 0; l < local; l++, rank++)
            {
                final String want = "[pe " + rank + "] hello " + rank + "/" + n + " node " + l + "/" + local + " " + "x".repeat(5000) + all;
                assertTrue(lines.contains(want), "PE " + rank + " (node rank " + l + " of " + local + "):\n" + both());
                assertTrue(errBytes.toString(StandardCharsets.UTF_8).lines().anyMatch(("[pe " + rank + "] stderr line from " + rank)::equals), both());
            }
        }
    }

    @Test
    void twoPlusTwoAcrossTwoHosts()
    {
        hello(HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2", new int[] {2, 2});
    }

    @Test
    void threePlusOne()
    {
        hello(HOSTS.host(1) + ":3," + HOSTS.host(2) + ":1", new int[] {3, 1});
    }

    @Test
    void fourOnOneHost()
    {
        hello(HOSTS.host(1) + ":4", new int[] {4});
    }

    @Test
    void globalExitStatusComesBackFromTheRemoteRoot()
    {
        final int status = shmemrun("--hosts", HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2", "--tag-output", TestPe.class.getName(), "globalexit7");
        assertEquals(7, status, both());
        assertTrue(errBytes.toString(StandardCharsets.UTF_8).contains("shmemrun: PE 2 called global exit(7)"), both());
    }

    @Test
    void aJvmDiagnosticOnTheRootsStdoutNeitherHidesTheIdNorPrintsIt()
    {
        // -XX:+PrintCompilation writes to the root agent's stdout in pieces; a line of the root's protocol used to land
        // inside a compile line at times, and the job then waited SHMEM_BOOTSTRAP_TIMEOUT and printed the id (RootLines)
        final int status = shmemrun("-x", "JAVA_TOOL_OPTIONS=-XX:+PrintCompilation", "--hosts", HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2",
            TestPe.class.getName(), "globalexit7");
        assertEquals(7, status, both());
        assertTrue(errBytes.toString(StandardCharsets.UTF_8).contains("shmemrun: PE 2 called global exit(7)"), both());
        assertTrue(both().contains("java.lang.String::hashCode"), "the compile lines reach the output:\n" + both());
        assertTrue(!both().contains(io.jshmem.bootstrap.UniqueId.TEXT_PREFIX) && !both().contains(RootLines.MARK), both());
    }

    @Test
    void timeoutEndsTheRemotePes()
    {
        final int status = shmemrun("--hosts", HOSTS.host(1) + ":1," + HOSTS.host(2) + ":1", "--timeout", "4", "--grace", "1", TestPe.class.getName(), "idle");
        assertEquals(ShmemRun.TIMEOUT_STATUS, status, both());
        assertTrue(errBytes.toString(StandardCharsets.UTF_8).contains("exceeded --timeout 4 s; ending 2 PE(s)"), both());
        // nothingLeftOnTheHosts checks the PEs and the root agent are gone
    }

    @Test
    void anUnreachableRootHostIsReportedClearly()
    {
        final int status = ShmemRun.run(new String[] {"-cp", CP, "--hosts", HOSTS.host(9) + ":2", "--agent", HOSTS.agent(), TestPe.class.getName(), "hello"},
            new PrintStream(outBytes, true, StandardCharsets.UTF_8), new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        assertEquals(1, status, both());
        assertTrue(both().contains("unknown host '" + HOSTS.host(9) + "'"), both());
        assertTrue(both().contains("shmemrun: the bootstrap root on " + HOSTS.host(9) + " ended before giving its unique id (exit status 1); agent: "
            + TestHosts.SCRIPT + " exec " + HOSTS.host(9)), both());
    }

    /** The launcher in its own JVM, running TestPe idle on 2+2; returns it once every PE printed its pid. */
    private static Process idleJob(final List<Long> pids, final StringBuilder log) throws Exception
    {
        final Process launcher = new ProcessBuilder(JAVA, "-XX:+UseSerialGC", "-cp", CP, ShmemRun.class.getName(),
            "-cp", CP, "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", "--agent", HOSTS.agent(),
            "--hosts", HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2", "--tag-output", TestPe.class.getName(), "idle").redirectErrorStream(true).start();
        final BufferedReader r = launcher.inputReader();
        final Long[] byRank = new Long[4];
        String line;
        int seen = 0;
        while (seen < 4 && (line = r.readLine()) != null)
        {
            log.append(line).append('\n');
            if (line.matches("\\[pe [0-3]\\] idle pid=[0-9]+"))
            {
                byRank[line.charAt(4) - '0'] = Long.parseLong(line.substring(line.indexOf('=') + 1));
                seen++;
            }
        }
        assertEquals(4, seen, "every PE formed:\n" + log);
        pids.addAll(Arrays.asList(byRank));
        Thread.ofPlatform().daemon().start(() ->
        {
            try
            {
                String l;
                while ((l = r.readLine()) != null)
                {
                    synchronized (log)
                    {
                        log.append(l).append('\n');
                    }
                }
            }
            catch (final java.io.IOException ex)
            {
                // the launcher is gone
            }
        });
        return launcher;
    }

    @Test
    void aPeKilledOnTheSecondHostEndsTheJobWithinFiveSecondsNamingIt() throws Exception
    {
        final List<Long> pids = new ArrayList<>();
        final StringBuilder log = new StringBuilder();
        final Process launcher = idleJob(pids, log);
        try
        {
            final long t0 = System.nanoTime();
            new ProcessBuilder("kill", "-KILL", Long.toString(pids.get(3))).start().waitFor();
            assertTrue(launcher.waitFor(10, TimeUnit.SECONDS), "the job ended:\n" + log);
            final double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(seconds < 5, "the job ended " + seconds + " s after PE 3 was killed");
            assertEquals(137, launcher.exitValue(), log.toString());
            Thread.sleep(200);
            synchronized (log)
            {
                assertTrue(log.toString().contains("shmemrun: PE 3 on " + HOSTS.host(2) + " exited with status 137"), log.toString());
            }
        }
        finally
        {
            launcher.destroyForcibly();
        }
    }

    @Test
    void sigtermToTheLauncherEndsTheRemotePesAndTheRoot() throws Exception
    {
        launcherDies(false);
    }

    @Test
    void aKilledLauncherLeavesNothingOnTheHosts() throws Exception
    {
        launcherDies(true);
    }

    private void launcherDies(final boolean sigkill) throws Exception
    {
        final List<Long> pids = new ArrayList<>();
        final StringBuilder log = new StringBuilder();
        final Process launcher = idleJob(pids, log);
        try
        {
            assertEquals(5, HOSTS.processes(2).size(), "4 PEs and the root agent on the hosts");
            if (sigkill)
            {
                launcher.destroyForcibly().waitFor();
            }
            else
            {
                launcher.destroy();
                assertTrue(launcher.waitFor(10, TimeUnit.SECONDS));
            }
            final long t0 = System.nanoTime();
            while (!HOSTS.processes(2).isEmpty() && System.nanoTime() - t0 < 15_000_000_000L)
            {
                Thread.sleep(50);
            }
            final double seconds = (System.nanoTime() - t0) / 1e9;
            assertEquals(List.of(), HOSTS.processes(2), "processes outlived the launcher:\n" + log);
            assertTrue(seconds < 5, "the hosts were clear " + seconds + " s after the launcher died");
        }
        finally
        {
            launcher.destroyForcibly();
        }
    }

    /**
     * The bootstrap's other launch environments with PEs on two hosts: ranks 0 and 1 on host 1 (which
     * hosts the root on its eth0 address), rank 2 on host 2, each started through test-hosts exec with
     * the variables its launcher would set.
     */
    @ParameterizedTest
    @ValueSource(strings = {"torchrun", "slurm", "mpi", "pmi"})
    void otherLaunchersFormAJobAcrossHosts(final String kind) throws Exception
    {
        final List<Process> pes = new ArrayList<>();
        try
        {
            for (int rank = 0; rank < 3; rank++)
            {
                final int host = rank < 2 ? 1 : 2;
                final int local = rank < 2 ? rank : 0;
                final int localSize = rank < 2 ? 2 : 1;
                final ProcessBuilder pb = new ProcessBuilder(TestHosts.SCRIPT.toString(), "exec", HOSTS.host(host), JAVA,
                    "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", CP, TestPe.class.getName(), "hello").redirectErrorStream(true);
                final Map<String, String> env = pb.environment();
                env.keySet().removeIf(k -> k.startsWith("JSHMEM_") || k.startsWith("SHMEM_") || k.startsWith("SLURM_")
                    || k.startsWith("OMPI_") || k.startsWith("PMI_") || k.startsWith("MPI_") || k.equals("RANK") || k.startsWith("MASTER_"));
                env.put("JSHMEM_TEST_HOSTS_PREFIX", HOSTS.prefix);
                env.put("SHMEM_BOOTSTRAP_SECRET", "multi-host-" + kind);
                env.put("SHMEM_BOOTSTRAP_TIMEOUT", "30s");
                final String session = HOSTS.net + ".1:29600";
                switch (kind)
                {
                    case "torchrun" -> env.putAll(Map.of("RANK", "" + rank, "WORLD_SIZE", "3", "LOCAL_RANK", "" + local,
                        "LOCAL_WORLD_SIZE", "" + localSize, "MASTER_ADDR", HOSTS.net + ".1", "MASTER_PORT", "29600",
                        "TORCHELASTIC_RUN_ID", "it"));
                    case "slurm" -> env.putAll(Map.of("SLURM_PROCID", "" + rank, "SLURM_NTASKS", "3", "SLURM_LOCALID", "" + local,
                        "SLURM_JOB_ID", "42", "SLURM_STEP_ID", "0", "SHMEM_BOOTSTRAP_UID_SESSION_ID", session));
                    case "mpi" -> env.putAll(Map.of("OMPI_COMM_WORLD_RANK", "" + rank, "OMPI_COMM_WORLD_SIZE", "3",
                        "OMPI_COMM_WORLD_LOCAL_RANK", "" + local, "OMPI_COMM_WORLD_LOCAL_SIZE", "" + localSize,
                        "OMPI_MCA_ess_base_jobid", "77", "SHMEM_BOOTSTRAP_UID_SESSION_ID", session));
                    default -> env.putAll(Map.of("PMI_RANK", "" + rank, "PMI_SIZE", "3", "MPI_LOCALRANKID", "" + local,
                        "MPI_LOCALNRANKS", "" + localSize, "PMI_JOBID", "pmi-it", "SHMEM_BOOTSTRAP_UID_SESSION_ID", session));
                }
                pes.add(pb.start());
            }
            for (int rank = 0; rank < 3; rank++)
            {
                final Process p = pes.get(rank);
                p.getOutputStream().close();
                final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), kind + " PE " + rank + " did not end:\n" + out);
                assertEquals(0, p.exitValue(), kind + " PE " + rank + ":\n" + out);
                final String node = rank < 2 ? rank + "/2" : "0/1";
                assertTrue(out.contains("hello " + rank + "/3 node " + node + " "), kind + " PE " + rank + ":\n" + out);
                assertTrue(out.contains(" all: rank0 rank1 rank2"), kind + " PE " + rank + ":\n" + out);
            }
        }
        finally
        {
            for (final Process p : pes)
            {
                p.destroyForcibly();
            }
        }
    }
}
