package io.jshmem.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives {@code bin/test-hosts} for the multi-host tests, with a prefix and subnet of the test's own
 * so concurrent runs do not collide; {@link #down()} tears everything down and asserts nothing is left. As a JUnit
 * extension ({@code @RegisterExtension static final TestHosts HOSTS = TestHosts.ownOr(prefix, net).upForClass(n)}) it
 * brings n hosts up before the class's tests and down after them.
 */
public final class TestHosts implements BeforeAllCallback, AfterAllCallback
{
    /** The worktree: tests run in the module directory. */
    public static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    public static final Path SCRIPT = ROOT.resolve("bin/test-hosts");

    public final String prefix;
    public final String net;
    private int forClass;

    public TestHosts(final String prefix, final String net)
    {
        this.prefix = prefix;
        this.net = net;
    }

    /**
     * @return the hosts of an engineer's own prefix and subnet when {@code JSHMEM_TEST_HOSTS_PREFIX} (and
     *         {@code JSHMEM_TEST_HOSTS_NET}) are set, else the test's own, so that tests of several worktrees run side by
     *         side without sharing namespaces
     */
    public static TestHosts ownOr(final String prefix, final String net)
    {
        return new TestHosts(envOr("JSHMEM_TEST_HOSTS_PREFIX", prefix), envOr("JSHMEM_TEST_HOSTS_NET", net));
    }

    private static String envOr(final String name, final String otherwise)
    {
        final String v = System.getenv(name);
        return v == null || v.isBlank() ? otherwise : v;
    }

    /**
     * @param n hosts to bring up before the tests of the class this is registered with, and down after them
     * @return this
     */
    public TestHosts upForClass(final int n)
    {
        forClass = n;
        return this;
    }

    @Override
    public void beforeAll(final ExtensionContext context) throws Exception
    {
        if (forClass > 0)
        {
            up(forClass);
        }
    }

    @Override
    public void afterAll(final ExtensionContext context) throws Exception
    {
        if (forClass > 0)
        {
            down();
        }
    }

    /** @return the name of host i (1-based). */
    public String host(final int i)
    {
        return prefix + i;
    }

    /** @return the agent template running a command on a test host. */
    public String agent()
    {
        return SCRIPT + " exec {host}";
    }

    /** A command's status and output (stdout then stderr). */
    public record Result(int status, String out, String err)
    {
    }

    public Result run(final String... args) throws IOException, InterruptedException
    {
        final List<String> cmd = new ArrayList<>();
        cmd.add(SCRIPT.toString());
        cmd.addAll(List.of(args));
        final ProcessBuilder pb = new ProcessBuilder(cmd);
        final Map<String, String> env = pb.environment();
        env.put("JSHMEM_TEST_HOSTS_PREFIX", prefix);
        env.put("JSHMEM_TEST_HOSTS_NET", net);
        final Process p = pb.start();
        p.getOutputStream().close();
        final var errText = p.errorReader(StandardCharsets.UTF_8);
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String err = errText.lines().reduce("", (a, b) -> a + b + "\n");
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "test-hosts " + String.join(" ", args) + " did not end");
        return new Result(p.exitValue(), out, err);
    }

    /** Brings up n hosts after clearing what a failed earlier run may have left. */
    public void up(final int n) throws IOException, InterruptedException
    {
        run("down");
        final Result r = run("up", Integer.toString(n));
        assertEquals(0, r.status(), "test-hosts up " + n + ": " + r);
    }

    /** @return the heap files (jshmem-*) in host i's /dev/shm. */
    public List<String> heapFiles(final int i) throws IOException
    {
        try (var files = Files.list(Path.of("/run/jshmem-test-hosts", prefix, host(i))))
        {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.startsWith("jshmem-")).toList();
        }
    }

    /** @return pids of processes in the hosts' network namespaces. */
    public List<String> processes(final int n) throws IOException, InterruptedException
    {
        final List<String> pids = new ArrayList<>();
        for (int i = 1; i <= n; i++)
        {
            final Process p = new ProcessBuilder("ip", "netns", "pids", host(i)).redirectErrorStream(true).start();
            final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            if (!out.isEmpty() && p.exitValue() == 0)
            {
                pids.addAll(List.of(out.split("\\s+")));
            }
        }
        return pids;
    }

    /** Tears down and asserts no namespace, mount, directory or process of this prefix is left. */
    public void down() throws IOException, InterruptedException
    {
        final Result r = run("down");
        assertEquals(0, r.status(), "test-hosts down: " + r);
        final Process p = new ProcessBuilder("ip", "netns", "list").start();
        final String namespaces = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        for (final String line : namespaces.lines().toList())
        {
            final String name = line.split("\\s+")[0];
            assertFalse(name.matches(prefix + "[0-9]+") || name.equals(prefix + "-sw"), "namespace left: " + name);
        }
        final String mounts = Files.readString(Path.of("/proc/self/mountinfo"));
        assertFalse(mounts.contains("/run/jshmem-test-hosts/" + prefix + "/"), "mount left:\n" + mounts);
        assertFalse(Files.exists(Path.of("/run/jshmem-test-hosts", prefix)), "state directory left");
        assertEquals(List.of(), ProcessHandle.allProcesses()
            .filter(h -> h.info().commandLine().orElse("").contains("test-hosts exec " + prefix))
            .map(h -> h.pid() + " " + h.info().commandLine().orElse("")).toList());
    }
}
