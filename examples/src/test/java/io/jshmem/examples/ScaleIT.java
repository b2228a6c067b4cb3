package io.jshmem.examples;

import io.jshmem.launch.TestHosts;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;

/**
 * A job at scale on this machine (issue 25): 64 PEs on 8 test hosts, 8 per host, through bin/shmemrun --hosts as a
 * user runs it. On the project's 2-core machine that is 32 PEs per core, so it also checks that a slowly starting,
 * heavily loaded job forms (handshakes have their own deadline) and that no healthy PE is declared lost. Ring over
 * the default transports (p2p inside a host, the proxy between hosts) and over UCX; a PE killed, and one stopped, end the
 * job within 5 s naming it; nothing left on any host.
 */
class ScaleIT
{
    private static final int HOST_COUNT = 8;
    private static final int PER_HOST = 8;
    @RegisterExtension
    static final TestHosts HOSTS = TestHosts.ownOr("jsxl", "10.99.0").upForClass(HOST_COUNT);
    private final HostJobs jobs = new HostJobs(HOSTS);


    private static String layout()
    {
        final StringBuilder hosts = new StringBuilder();
        for (int h = 1; h <= HOST_COUNT; h++)
        {
            hosts.append(h == 1 ? "" : ",").append(HOSTS.host(h)).append(':').append(PER_HOST);
        }
        return hosts.toString();
    }

    @Test
    void ringAt64PesOnEightHostsOverTheProxy() throws Exception
    {
        jobs.ring(layout(), HOST_COUNT * PER_HOST, HOST_COUNT);
    }

    /** A PE killed on the last host of 64: the job ends within 5 s, the PE named, nothing left on any host. */
    @Test
    void aKilledPeEndsA64PeJobWithinFiveSeconds() throws Exception
    {
        jobs.kill(new HostJobs.Layout(layout(), HOST_COUNT * PER_HOST, HOST_COUNT));
    }

    /** A PE stopped (SIGSTOP) on the last host of 64: named lost by the root and another PE, the job ends within 5 s. */
    @Test
    void aStoppedPeEndsA64PeJobWithinFiveSeconds() throws Exception
    {
        jobs.stop(new HostJobs.Layout(layout(), HOST_COUNT * PER_HOST, HOST_COUNT));
    }

    @Test
    void ringAt64PesOnEightHostsOverUcx() throws Exception
    {
        jobs.ring(layout(), HOST_COUNT * PER_HOST, HOST_COUNT, "-x", "SHMEM_TRANSPORT=p2p,ucx", "-x", "UCX_TLS=tcp",
            "-x", "UCX_NET_DEVICES=eth0", "-x", "UCX_WARN_UNUSED_ENV_VARS=n");
    }
}
