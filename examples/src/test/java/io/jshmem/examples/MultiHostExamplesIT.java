package io.jshmem.examples;

import io.jshmem.launch.TestHosts;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The examples on two test hosts through bin/shmemrun --hosts and bin/test-hosts (root only): ring and
 * hello on 2+2 and 3+1, reinit (three inits of the job) on 2+2, and a PE killed or stopped (SIGSTOP) on the
 * second host or its link going down; ring and the faults over the UCX transport too (p2p,ucx on 2+2, ucx alone
 * on 3+1).
 * Needs the inter-node transport: without it every PE's init fails with "no inter-node transport is
 * configured".
 */
class MultiHostExamplesIT
{
    /** Prefix and subnet: JSHMEM_TEST_HOSTS_PREFIX/_NET if set (an engineer's own), else the test's. */
    @RegisterExtension
    static final TestHosts HOSTS = TestHosts.ownOr("jsx2h", "10.94.0").upForClass(2);
    private final HostJobs jobs = new HostJobs(HOSTS);



    @Test
    void ringTwoPlusTwo() throws Exception
    {
        jobs.ring(HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2", 4, 2);
    }

    @Test
    void helloTwoPlusTwo() throws Exception
    {
        jobs.hello(HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2", new int[] {2, 2});
    }

    @Test
    void ringThreePlusOne() throws Exception
    {
        jobs.ring(HOSTS.host(1) + ":3," + HOSTS.host(2) + ":1", 4, 2);
    }

    @Test
    void helloThreePlusOne() throws Exception
    {
        jobs.hello(HOSTS.host(1) + ":3," + HOSTS.host(2) + ":1", new int[] {3, 1});
    }

    /** OpenSHMEM 1.6 re-initialization across hosts: three rounds, PE 3 (second host) late to each later init. */
    @Test
    void reinitTwoPlusTwo() throws Exception
    {
        final HostJobs.Job job = jobs.run("--hosts", HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2", "reinit", "3", "3");
        org.junit.jupiter.api.Assertions.assertEquals(0, job.status(), job.output());
        for (int rank = 0; rank < 4; rank++)
        {
            ReinitIT.assertRounds(job.output(), rank, 4, job.output());
        }
        jobs.noHeapFiles(2);
    }

    @Test
    void aPeKilledOnTheSecondHostEndsTheJobWithinFiveSeconds() throws Exception
    {
        jobs.killOnSecondHost();
    }

    /** The UCX transport between hosts, p2p inside each (UCX over tcp on the veth; UCX_TLS as UCX chooses). */
    @Test
    void ringTwoPlusTwoOverUcx() throws Exception
    {
        jobs.ring(HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2", 4, 2, "-x", "SHMEM_TRANSPORT=p2p,ucx");
    }

    /**
     * SHMEM_TRANSPORT unset where every PE has three cores (the JVMs told so with -XX:ActiveProcessorCount, as this
     * machine has two): auto takes hybrid between the hosts, PE 0 says so, and the ring goes round. No UCX variable is
     * set: hybrid's UCX half takes the bootstrap's interface (eth0 in a test host) as its network device. The proxy
     * listed after hybrid is not made: every PE made hybrid, so no pair would use it.
     */
    @Test
    void ringTwoPlusTwoWithCoresToSpareTakesHybridByDefault() throws Exception
    {
        final HostJobs.Job job = jobs.ring(HOSTS.host(1) + ":2," + HOSTS.host(2) + ":2", 4, 2, "-J", "-XX:ActiveProcessorCount=12",
            "-x", "SHMEM_INFO=1");
        assertTrue(job.output().contains("jshmem: transport hybrid: reaches 2 of 3 other PEs"), job.output());
        assertTrue(job.output().contains("network devices eth0 (the bootstrap's)"), job.output());
        assertTrue(job.output().contains("jshmem: transport proxy: not made (every PE made hybrid, which reaches every other PE)"),
            job.output());
    }

    /** UCX alone: same-host pairs go through UCX too. */
    @Test
    void ringThreePlusOneOverUcxAlone() throws Exception
    {
        jobs.ring(HOSTS.host(1) + ":3," + HOSTS.host(2) + ":1", 4, 2, "-x", "SHMEM_TRANSPORT=ucx");
    }

    @Test
    void aPeKilledOnTheSecondHostEndsAUcxJobWithinFiveSeconds() throws Exception
    {
        jobs.killOnSecondHost("-x", "SHMEM_TRANSPORT=p2p,ucx");
    }

    @Test
    void aPeStoppedOnTheSecondHostEndsTheJobWithinFiveSeconds() throws Exception
    {
        jobs.stopOnSecondHost();
    }

    @Test
    void aPeStoppedOnTheSecondHostEndsAUcxJobWithinFiveSeconds() throws Exception
    {
        jobs.stopOnSecondHost("-x", "SHMEM_TRANSPORT=p2p,ucx");
    }

    @Test
    void theSecondHostsLinkGoingDownEndsTheJobWithinFiveSeconds() throws Exception
    {
        jobs.linkDownOnSecondHost();
    }

    @Test
    void theSecondHostsLinkGoingDownEndsAUcxJobWithinFiveSeconds() throws Exception
    {
        jobs.linkDownOnSecondHost("-x", "SHMEM_TRANSPORT=p2p,ucx");
    }
}
