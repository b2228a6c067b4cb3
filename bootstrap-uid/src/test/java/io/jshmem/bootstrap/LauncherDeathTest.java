package io.jshmem.bootstrap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A PE (a real JVM) whose launcher dies before the job forms, or after, ends within seconds: while
 * it retries a root that is gone, while it waits for the others to join, and once formed. The
 * "launcher" is a {@code sleep} process named by {@code JSHMEM_LAUNCHER_PID}, killed with SIGKILL.
 */
class LauncherDeathTest
{
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void cleanUp() throws InterruptedException
    {
        for (final Process p : started)
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
        for (int i = 0; i < 100 && !TestJob.bootstrapThreads().isEmpty(); i++)
        {
            Thread.sleep(20);
        }
        assertEquals(List.of(), TestJob.bootstrapThreads());
    }

    private record Pe(Process process, List<String> lines)
    {
        String output()
        {
            synchronized (lines)
            {
                return String.join("\n", lines);
            }
        }
    }

    private Process launcher() throws IOException
    {
        final Process p = new ProcessBuilder("sleep", "600").start();
        started.add(p);
        return p;
    }

    private Pe pe(final String uid, final Process launcher) throws IOException
    {
        final ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), OrphanPe.class.getName());
        pb.redirectErrorStream(true);
        final Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("SHMEM_") || k.startsWith("SMA_") || k.startsWith("JSHMEM_"));
        env.put("JSHMEM_RANK", "1");
        env.put("JSHMEM_SIZE", "2");
        env.put("JSHMEM_JOB_ID", "orphans");
        env.put("JSHMEM_LAUNCHER_PID", Long.toString(launcher.pid()));
        env.put("SHMEM_BOOTSTRAP_UID", uid);
        env.put("SHMEM_BOOTSTRAP_TIMEOUT", "60s");
        final Process p = pb.start();
        started.add(p);
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Thread.ofPlatform().daemon().name("test-pe-output").start(() ->
        {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)))
            {
                for (String line = r.readLine(); line != null; line = r.readLine())
                {
                    lines.add(line);
                }
            }
            catch (final IOException ignore)
            {
                // the PE ended
            }
        });
        return new Pe(p, lines);
    }

    private static void await(final BooleanSupplier condition, final Pe pe, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline || !pe.process().isAlive())
            {
                fail("the PE never got to " + what + ":\n" + pe.output());
            }
            Thread.sleep(20);
        }
    }

    /** Kills the launcher; the PE must end with status 1 within 3 s, saying why. */
    private static void killAndExpectTheEnd(final Process launcher, final Pe pe) throws InterruptedException
    {
        Thread.sleep(500); // well inside the wait
        final long t0 = System.nanoTime();
        launcher.destroyForcibly();
        final boolean ended = pe.process().waitFor(3, TimeUnit.SECONDS);
        final double s = (System.nanoTime() - t0) / 1e9;
        assertTrue(ended, "the PE outlived its launcher by more than 3 s:\n" + pe.output());
        assertEquals(1, pe.process().exitValue(), pe.output());
        Thread.sleep(100);
        assertTrue(pe.output().contains("bootstrap: the launcher (pid " + launcher.pid() + ") ended; ending this PE with status 1"),
            pe.output());
        System.out.printf("PE ended %.2f s after its launcher%n", s);
    }

    @Test
    void aPeRetryingADeadRootEndsWithItsLauncher() throws Exception
    {
        final int port;
        try (ServerSocket s = new ServerSocket(0))
        {
            port = s.getLocalPort(); // closed again: nobody listens there
        }
        final String uid = UniqueId.of(UniqueId.randomSecret(), new InetSocketAddress("127.0.0.1", port)).toText();
        final Process launcher = launcher();
        final Pe pe = pe(uid, launcher);
        await(() -> pe.output().contains("joining"), pe, "joining");
        Thread.sleep(1000); // retrying the root by now
        assertTrue(pe.process().isAlive(), pe.output());
        killAndExpectTheEnd(launcher, pe);
    }

    @Test
    void aPeWaitingForTheJobToFormEndsWithItsLauncher() throws Exception
    {
        try (TestJob job = new TestJob(2))
        {
            final Process launcher = launcher();
            final Pe pe = pe(job.root.uniqueId().toText(), launcher);
            await(() -> job.root.joinedForTesting() == 1, pe, "joining the root"); // rank 0 never comes
            killAndExpectTheEnd(launcher, pe);
        }
    }

    @Test
    void aFormedPeEndsWithItsLauncher() throws Exception
    {
        try (TestJob job = new TestJob(2))
        {
            final Process launcher = launcher();
            final Future<UidBootstrap> zero = job.submit(() -> UidBootstrap.connect(job.root.uniqueId(), 0, 2, job.settings));
            final Pe pe = pe(job.root.uniqueId().toText(), launcher);
            job.pes.add(TestJob.get(zero));
            await(() -> pe.output().contains("formed 1/2"), pe, "formed");
            killAndExpectTheEnd(launcher, pe);
        }
    }
}
