package io.jshmem.examples;

import io.jshmem.launch.TestHosts;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
    private static final String PREFIX = "jsln";
    private static final String NET = "10.96.0";

    @Test
    void everyLauncherAcrossTwoHosts() throws Exception
    {
        final ProcessBuilder pb = script("bin/test-launchers", "all")
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // the script bounds itself: 60 s a job, its default 210 s budget of jobs, 75 s for the SLURM cluster to come up
        final Process p = pb.start();
        // line by line, so that what ran before a hang is in the failure message even if the pipe never closes
        final StringBuffer out = new StringBuffer();
        final Thread reader = Thread.ofVirtual().start(() ->
        {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)))
            {
                for (String line = r.readLine(); line != null; line = r.readLine())
                {
                    out.append(line).append('\n');
                    System.out.println(line);
                }
            }
            catch (final IOException ignored)
            {
                // the process was destroyed: what was read so far is in the message
            }
        });
        final boolean done = p.waitFor(330, TimeUnit.SECONDS);
        if (!done)
        {
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS))
            {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            // what the script's own clean-up could not reach: the SLURM daemons and the hosts
            script("bin/test-slurm", "down").redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(30, TimeUnit.SECONDS);
        }
        reader.join(5_000);
        assertTrue(done, "bin/test-launchers ended within 330 s:\n" + out);
        assertEquals(0, p.exitValue(), "every launcher row passed:\n" + out);
        assertTrue(out.toString().contains("test-launchers: all 10 passed"), out.toString());
        assertEquals("", new TestHosts(PREFIX, NET).run("list").out(), "the test hosts are down");
    }

    /** @return the project script with its arguments, on this test's hosts, output and errors merged. */
    private static ProcessBuilder script(final String path, final String... args)
    {
        final List<String> cmd = new ArrayList<>(List.of(TestHosts.ROOT.resolve(path).toString()));
        cmd.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("JSHMEM_TEST_HOSTS_PREFIX", PREFIX);
        pb.environment().put("JSHMEM_TEST_HOSTS_NET", NET);
        return pb;
    }
}
