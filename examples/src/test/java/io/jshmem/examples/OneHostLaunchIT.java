package io.jshmem.examples;

import io.jshmem.launch.TestHosts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * bin/shmemrun -np 4 --hosts H1:4 --agent 'bin/test-hosts exec {host}' ring: every PE on one test host
 * (network, UTS and mount namespaces; root only), launched through the agent with the bootstrap root
 * on that host. Passes without an inter-node transport.
 */
class OneHostLaunchIT
{
    private static final TestHosts HOSTS = new TestHosts("jsx1h", "10.93.0");
    private final HostJobs jobs = new HostJobs(HOSTS);

    @BeforeAll
    static void up() throws Exception
    {
        HOSTS.up(1);
    }

    @AfterAll
    static void down() throws Exception
    {
        HOSTS.down();
    }

    @Test
    void ringOnFourPesOfOneHost() throws Exception
    {
        jobs.ring(HOSTS.host(1) + ":4", 4, 1);
    }

    @Test
    void helloOnFourPesOfOneHost() throws Exception
    {
        jobs.hello(HOSTS.host(1) + ":4", new int[] {4});
    }
}
