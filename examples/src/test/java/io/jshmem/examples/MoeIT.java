package io.jshmem.examples;

import io.jshmem.launch.ShmemRun;
import io.jshmem.launch.TestHosts;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The moe example with --verify through the launcher users run: normal mode at 4 PEs, low-latency at 3 (fp8,
 * a hot expert), the collective formulation at 2, on this host (p2p); normal and low-latency at 2+2 PEs on two
 * test hosts (root only; whatever inter-node transport SHMEM_TRANSPORT selects, and again over UCX with
 * {@code SHMEM_TRANSPORT=p2p,ucx}, UCX's tcp transport between the hosts). Every PE must report its
 * tokens verified and PE 0 the job-wide verdict.
 */
class MoeIT
{
    @RegisterExtension
    static final TestHosts HOSTS = TestHosts.ownOr("jsmo", "10.97.0").upForClass(2);
    private static final List<String> UCX = List.of("-x", "SHMEM_TRANSPORT=p2p,ucx", "-x", "UCX_TLS=tcp", "-x", "UCX_NET_DEVICES=eth0");
    private static final String[] SMALL = {"--tokens", "128", "--hidden", "256", "--iters", "3", "--verify"};


    private static String runHere(final int n, final String... args) throws InterruptedException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final List<String> cmd = new ArrayList<>(List.of("-np", Integer.toString(n), "--tag-output", "-cp",
            System.getProperty("java.class.path"), "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", "moe"));
        cmd.addAll(Arrays.asList(args));
        cmd.addAll(Arrays.asList(SMALL));
        final PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        final int status = ShmemRun.run(cmd.toArray(String[]::new), ps, ps);
        final String all = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, all);
        return all;
    }

    private static void assertVerified(final String out, final int n, final String mode)
    {
        for (int r = 0; r < n; r++)
        {
            final String want = "[pe " + r + "] pe " + r + "/" + n + ": " + mode + " received ";
            assertTrue(out.lines().anyMatch(l -> l.startsWith(want) && l.endsWith(", verified")), "PE " + r + ":\n" + out);
        }
        assertTrue(out.contains("[pe 0] moe: verify OK on " + n + " PEs"), out);
        assertTrue(!out.contains("MISMATCH") && !out.contains("FAILED"), out);
    }

    @Test
    void normalOnFourPes() throws Exception
    {
        assertVerified(runHere(4), 4, "normal");
    }

    @Test
    void lowLatencyOnThreePesWithFp8AndAHotExpert() throws Exception
    {
        assertVerified(runHere(3, "--mode", "low-latency", "--payload", "fp8", "--hot", "0.5"), 3, "low-latency");
    }

    @Test
    void collectiveOnTwoPes() throws Exception
    {
        assertVerified(runHere(2, "--mode", "collective", "--topk", "2"), 2, "collective");
    }

    @Test
    void normalOnTwoHosts() throws Exception
    {
        twoHosts(List.of(), "normal", "--payload", "fp8");
    }

    @Test
    void normalOnTwoHostsOverUcx() throws Exception
    {
        twoHosts(UCX, "normal", "--payload", "fp8");
    }

    @Test
    void lowLatencyOnTwoHostsOverUcx() throws Exception
    {
        twoHosts(UCX, "low-latency", "--hot", "0.5", "--inflight", "16");
    }

    @Test
    void lowLatencyOnTwoHostsWithAHotExpertAndAnInflightLimit() throws Exception
    {
        twoHosts(List.of(), "low-latency", "--hot", "0.5", "--inflight", "16");
    }

    private static void twoHosts(final List<String> env, final String mode, final String... extra) throws Exception
    {
        final HostJobs jobs = new HostJobs(HOSTS);
        final List<String> args = new ArrayList<>(List.of("--hosts", HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2"));
        args.addAll(env);
        args.addAll(List.of("moe", "--mode", mode));
        args.addAll(Arrays.asList(extra));
        args.addAll(Arrays.asList(SMALL));
        final HostJobs.Job job = jobs.run(args.toArray(String[]::new));
        assertEquals(0, job.status(), job.output());
        assertVerified(job.output(), 4, mode);
        jobs.noHeapFiles(2);
    }
}
