package io.jshmem.examples;

import io.jshmem.launch.TestHosts;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/test-launchers (root only): the real launchers start jshmem jobs across two test hosts
 * (jsln1, jsln2 on 10.96.0) with no jshmem variable: Open MPI's mpirun (hello, ring, one PE killed:
 * the job ends within 5 s, mpirun exits non-zero, no JVM left), torchrun with its static (hello, kill)
 * and c10d rendezvous, SLURM on bin/test-slurm's cluster (srun hello, ring, kill; salloc + bin/shmemrun).
 * Every row of the script's table must pass; the hosts must be gone afterwards.
 */
class LaunchersIT
{
    @Test
    void everyLauncherAcrossTwoHosts() throws Exception
    {
        final ProcessBuilder pb = new ProcessBuilder(TestHosts.ROOT.resolve("bin/test-launchers").toString(), "all")
            .redirectErrorStream(true);
        pb.environment().put("JSHMEM_TEST_HOSTS_PREFIX", "jsln");
        pb.environment().put("JSHMEM_TEST_HOSTS_NET", "10.96.0");
        final Process p = pb.start();
        final StringBuilder out = new StringBuilder();
        final Thread reader = Thread.ofVirtual().start(() ->
        {
            try
            {
                out.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            catch (final java.io.IOException ignored)
            {
                // the process was destroyed: what was read so far is in the message
            }
        });
        final boolean done = p.waitFor(240, TimeUnit.SECONDS);
        if (!done)
        {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        reader.join(5_000);
        System.out.println(out);
        assertTrue(done, "bin/test-launchers ended within 240 s:\n" + out);
        assertEquals(0, p.exitValue(), "every launcher row passed:\n" + out);
        assertTrue(out.toString().contains("test-launchers: all 10 passed"), out.toString());
        final TestHosts hosts = new TestHosts("jsln", "10.96.0");
        assertEquals("", hosts.run("list").out(), "the test hosts are down");
    }
}
