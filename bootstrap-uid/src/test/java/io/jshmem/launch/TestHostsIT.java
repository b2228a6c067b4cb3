package io.jshmem.launch;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bin/test-hosts (root only): hosts, hostnames, per-host /dev/shm, exec semantics, errors, teardown. */
class TestHostsIT
{
    private final TestHosts hosts = new TestHosts("jsth", "10.91.0");

    private static String rootLinks() throws Exception
    {
        final Process p = new ProcessBuilder("ip", "-o", "link").start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out.lines().map(l -> l.split(":")[1].strip()).sorted().toList().toString();
    }

    @Test
    void upExecListDown() throws Exception
    {
        final String linksBefore = rootLinks();
        try
        {
            hosts.up(2);
            assertEquals(linksBefore, rootLinks(), "the root namespace gets no new interface");
            assertEquals("jsth1 10.91.0.1/24 /run/jshmem-test-hosts/jsth/jsth1\njsth2 10.91.0.2/24 /run/jshmem-test-hosts/jsth/jsth2\n",
                hosts.run("list").out());
            // hostname and address per host
            assertEquals("jsth1\n", hosts.run("exec", "jsth1", "hostname").out());
            assertEquals("jsth2\n", hosts.run("exec", "jsth2", "cat", "/proc/sys/kernel/hostname").out());
            assertTrue(hosts.run("exec", "jsth2", "ip", "-4", "-o", "addr", "show", "eth0").out().contains("10.91.0.2/24"));
            // host 2 reaches host 1 (a closed port answers "refused" at once); the root namespace has no route there of its own
            final TestHosts.Result refused = hosts.run("exec", "jsth2", "bash", "-c", "exec 3<>/dev/tcp/10.91.0.1/9");
            assertTrue(refused.err().contains("Connection refused"), refused.toString());
            final Process route = new ProcessBuilder("ip", "-o", "addr").start();
            assertFalse(new String(route.getInputStream().readAllBytes(), StandardCharsets.UTF_8).contains("10.91.0."));
            route.waitFor();
            // /dev/shm: shared by the processes of one host, private to it
            assertEquals(0, hosts.run("exec", "jsth1", "sh", "-c", "echo one > /dev/shm/jsth-probe").status());
            assertEquals("one\n", hosts.run("exec", "jsth1", "cat", "/dev/shm/jsth-probe").out());
            assertEquals("", hosts.run("exec", "jsth2", "ls", "/dev/shm").out());
            assertFalse(Files.exists(Path.of("/dev/shm/jsth-probe")), "the machine's /dev/shm is untouched");
            // exec ends in exec: the status is the command's, the pid is the command's, signals reach it
            assertEquals(7, hosts.run("exec", "jsth1", "sh", "-c", "exit 7").status());
            final TestHosts.Result pid = hosts.run("exec", "jsth1", "sh", "-c", "echo $$; echo $PPID");
            final ProcessBuilder pb = new ProcessBuilder(TestHosts.SCRIPT.toString(), "exec", "jsth2", "sleep", "60");
            pb.environment().put("JSHMEM_TEST_HOSTS_PREFIX", "jsth");
            pb.environment().put("JSHMEM_TEST_HOSTS_NET", "10.91.0");
            final Process sleeper = pb.start();
            for (int i = 0; i < 100 && !sleeper.info().command().orElse("").endsWith("sleep"); i++)
            {
                Thread.sleep(20);
            }
            assertTrue(sleeper.info().command().orElse("").endsWith("sleep"), "the launched pid is the command: " + sleeper.info());
            assertEquals(List.of(Long.toString(sleeper.pid())), hosts.processes(2));
            sleeper.destroy();
            assertTrue(sleeper.waitFor(5, TimeUnit.SECONDS));
            assertEquals(128 + 15, sleeper.exitValue(), "SIGTERM reached the command");
            assertEquals(2, pid.out().lines().count(), pid.toString());
            // errors
            final TestHosts.Result again = hosts.run("up", "2");
            assertEquals(1, again.status());
            assertTrue(again.err().contains("already up"), again.toString());
            final TestHosts.Result unknown = hosts.run("exec", "jsth3", "true");
            assertEquals(1, unknown.status());
            assertTrue(unknown.err().contains("unknown host 'jsth3' (hosts up: ") && unknown.err().contains("jsth1 jsth2"), unknown.toString());
            assertEquals(2, hosts.run("exec", "jsth1").status(), "usage");
            // the script comes on stdin: the checkout (e.g. under a mode-700 mktemp directory) need not be readable by nobody
            final Process notRoot = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "bash", "-s", "up", "1").redirectInput(TestHosts.SCRIPT.toFile()).redirectErrorStream(true).directory(new java.io.File("/"))
                .start();
            final String notRootText = new String(notRoot.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(1, notRoot.waitFor());
            assertTrue(notRootText.contains("test-hosts: must run as root"), notRootText);
            // down kills what still runs on a host
            final ProcessBuilder stray = new ProcessBuilder(TestHosts.SCRIPT.toString(), "exec", "jsth1", "sleep", "60");
            stray.environment().put("JSHMEM_TEST_HOSTS_PREFIX", "jsth");
            final Process strayProcess = stray.start();
            // until the exec chain (unshare, sh) has become the command itself
            for (int i = 0; i < 250 && hosts.processes(2).size() != 1; i++)
            {
                Thread.sleep(20);
            }
            assertEquals(1, hosts.processes(2).size());
            hosts.down();
            assertTrue(strayProcess.waitFor(5, TimeUnit.SECONDS), "down killed the process on jsth1");
            assertEquals(linksBefore, rootLinks());
            hosts.down(); // idempotent
        }
        finally
        {
            hosts.down();
        }
    }
}
