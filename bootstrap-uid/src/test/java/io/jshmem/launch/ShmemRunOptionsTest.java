package io.jshmem.launch;

import io.jshmem.launch.ShmemRunOptions.Host;
import io.jshmem.launch.ShmemRunOptions.Placement;
import io.jshmem.launch.ShmemRunOptions.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** shmemrun's host list, host file and agent options, rank placement and remote command lines. */
class ShmemRunOptionsTest
{
    @TempDir
    Path dir;

    private static ShmemRunOptions parse(final String... args) throws UsageException
    {
        return ShmemRunOptions.parse(args, Map.of("HOME", "/root"));
    }

    private static String usageError(final String... args)
    {
        return assertThrows(UsageException.class, () -> parse(args)).getMessage();
    }

    private static void assertContains(final String message, final String part)
    {
        assertTrue(message.contains(part), "'" + message + "' should contain '" + part + "'");
    }

    @Test
    void aotCacheTakesAutoOffOrAFileAndIsAutoByDefault() throws UsageException
    {
        assertEquals("/tmp/app.aot", parse("-np", "2", "--aot-cache", "/tmp/app.aot", "ring").aotCache);
        assertEquals("auto", parse("-np", "2", "ring").aotCache);
        assertEquals("off", parse("-np", "2", "--aot-cache", "off", "ring").aotCache);
        assertEquals("auto", parse("-np", "2", "--aot-cache", "auto", "ring").aotCache);
        assertContains(usageError("-np", "2", "--aot-cache"), "--aot-cache");
        assertContains(usageError("-np", "2", "--aot-cache", "/tmp/", "ring"), "--aot-cache '/tmp/': give auto, off or a file");
        assertContains(usageError("-np", "2", "--aot-cache", " ", "ring"), "give auto, off or a file");
    }

    @Test
    void shmemrunAotCacheSetsTheDefaultAndTheOptionWins() throws UsageException
    {
        final String[] args = {"-np", "2", "ring"};
        assertEquals("off", ShmemRunOptions.parse(args, Map.of("SHMEMRUN_AOT_CACHE", "off")).aotCache);
        assertEquals("/tmp/a.aot", ShmemRunOptions.parse(args, Map.of("SHMEMRUN_AOT_CACHE", "/tmp/a.aot")).aotCache);
        assertEquals("auto", ShmemRunOptions.parse(new String[] {"-np", "2", "--aot-cache", "auto", "ring"},
            Map.of("SHMEMRUN_AOT_CACHE", "off")).aotCache);
        final UsageException bad = assertThrows(UsageException.class, () -> ShmemRunOptions.parse(args, Map.of("SHMEMRUN_AOT_CACHE", "")));
        assertContains(bad.getMessage(), "SHMEMRUN_AOT_CACHE '': give auto, off or a file");
    }

    @Test
    void jfrTakesADirectory() throws UsageException
    {
        assertEquals("/tmp/rec", parse("-np", "2", "--jfr", "/tmp/rec", "ring").jfrDir);
        assertEquals(null, parse("-np", "2", "ring").jfrDir);
        assertContains(usageError("-np", "2", "--jfr"), "--jfr");
    }

    @Test
    void hostsWithSlotsAndDefaults() throws UsageException
    {
        final ShmemRunOptions o = parse("-np", "4", "--hosts", "h1:2,h2:2", "--agent", "bin/test-hosts exec {host}", "ring");
        assertEquals(List.of(new Host("h1", 2), new Host("h2", 2)), o.hosts);
        assertEquals("bin/test-hosts exec {host}", o.agent);
        assertEquals("ring", o.program);
        assertEquals(ShmemRunOptions.DEFAULT_AGENT, parse("--hosts", "a", "x.Main").agent);
        assertEquals("ssh {host}", ShmemRunOptions.DEFAULT_AGENT);
    }

    @Test
    void npDefaultsToTheSlotsAndRepeatedHostsAddSlots() throws UsageException
    {
        final ShmemRunOptions o = parse("-H", "a,b:3,a,user@c.example.org:2", "x.Main");
        assertEquals(List.of(new Host("a", 2), new Host("b", 3), new Host("user@c.example.org", 2)), o.hosts);
        assertEquals(7, o.np);
        assertEquals(List.of(new Host("h1", 1)), parse("--host", "h1", "x.Main").hosts);
    }

    @Test
    void blockPlacementWithLocalRanksPerHost() throws UsageException
    {
        final List<Placement> p = ShmemRunOptions.place(List.of(new Host("h1", 3), new Host("h2", 1)), 4);
        assertEquals(List.of(new Placement(0, "h1", 0, 3), new Placement(1, "h1", 1, 3), new Placement(2, "h1", 2, 3),
            new Placement(3, "h2", 0, 1)), p);
        // fewer PEs than slots: the first hosts fill, later ones get fewer or none
        assertEquals(List.of(new Placement(0, "a", 0, 2), new Placement(1, "a", 1, 2), new Placement(2, "b", 0, 1)),
            ShmemRunOptions.place(List.of(new Host("a", 2), new Host("b", 2), new Host("c", 4)), 3));
        final ShmemRunOptions o = parse("-np", "3", "--hosts", "a:1,b:1,c:5", "x.Main");
        assertEquals(List.of("a", "b", "c"), ShmemRunOptions.place(o.hosts, o.np).stream().map(Placement::host).toList());
    }

    @Test
    void slurmAllocationGivesHostsAndAgent() throws UsageException
    {
        final Map<String, String> env = Map.of("SLURM_JOB_ID", "12", "SLURM_JOB_NODELIST", "n[1-2]", "SLURM_JOB_CPUS_PER_NODE", "2(x2)");
        final ShmemRunOptions o = ShmemRunOptions.parse(new String[] {"-np", "4", "x.Main"}, env);
        assertEquals(List.of(new Host("n1", 2), new Host("n2", 2)), o.hosts);
        assertEquals(ShmemRunOptions.SLURM_AGENT, o.agent);
        assertEquals(List.of("n1", "n1", "n2", "n2"), ShmemRunOptions.place(o.hosts, o.np).stream().map(Placement::host).toList());
        // --hosts wins over the allocation; --agent wins over srun
        assertEquals(List.of(new Host("a", 1)), ShmemRunOptions.parse(new String[] {"--hosts", "a", "x.Main"}, env).hosts);
        assertEquals("ssh {host}", ShmemRunOptions.parse(new String[] {"--agent", "ssh {host}", "-np", "2", "x.Main"}, env).agent);
        // no CPU counts: one slot a node; more PEs than that is a usage error naming the allocation
        final UsageException e = assertThrows(UsageException.class, () -> ShmemRunOptions.parse(new String[] {"-np", "3", "x.Main"},
            Map.of("SLURM_JOB_ID", "12", "SLURM_JOB_NODELIST", "n[1-2]")));
        assertContains(e.getMessage(), "-np 3 is more than the 2 slot(s) of the SLURM allocation (SLURM_JOB_NODELIST=n[1-2])");
        assertContains(assertThrows(UsageException.class, () -> ShmemRunOptions.parse(new String[] {"x.Main"},
            Map.of("SLURM_JOB_ID", "12", "SLURM_JOB_NODELIST", "n[1-2]", "SLURM_JOB_CPUS_PER_NODE", "4(x3)"))).getMessage(),
            "gives 3 node(s)");
    }

    @Test
    void hostfileOpenMpiStyle() throws IOException, UsageException
    {
        final Path f = dir.resolve("hosts");
        Files.writeString(f, """
            # the cluster
            node1 slots=2   # two cores
            node2:3

            node3 slots=1 max_slots=4
            node1
            """);
        final ShmemRunOptions o = parse("--hostfile", f.toString(), "x.Main");
        assertEquals(List.of(new Host("node1", 3), new Host("node2", 3), new Host("node3", 1)), o.hosts);
        assertEquals(7, o.np);
    }

    @Test
    void hostfileErrorsNameTheLine() throws IOException
    {
        final Path f = dir.resolve("bad");
        Files.writeString(f, "n1 slots=2\nn2 cores=4\n");
        assertContains(usageError("--hostfile", f.toString(), "x.Main"), "line 2: unknown field 'cores=4'");
        Files.writeString(f, "n1 slots=0\n");
        assertContains(usageError("--hostfile", f.toString(), "x.Main"), "line 1: slots '0' is not a positive integer");
        Files.writeString(f, "n1:2 slots=2\n");
        assertContains(usageError("--hostfile", f.toString(), "x.Main"), "give the slots once");
        Files.writeString(f, "# nothing\n\n");
        assertContains(usageError("--hostfile", f.toString(), "x.Main"), "no hosts in it");
        assertContains(usageError("--hostfile", dir.resolve("missing").toString(), "x.Main"), "cannot read it");
    }

    @Test
    void validationErrors()
    {
        assertContains(usageError("-np", "5", "--hosts", "h1:2,h2:2", "ring"), "-np 5 is more than the 4 slot(s) of --hosts h1:2,h2:2");
        assertContains(usageError("--hosts", "h1:x", "ring"), "slots 'x' is not a positive integer");
        assertContains(usageError("--hosts", "h1:-1", "ring"), "slots '-1' is not a positive integer");
        assertContains(usageError("--hosts", "h1,,h2", "ring"), "empty host name");
        assertContains(usageError("--hosts", ":2", "ring"), "empty host name");
        assertContains(usageError("--hosts", "h1;rm:2", "ring"), "'h1;rm' is not a host name");
        assertContains(usageError("--hosts", "a", "--hostfile", "f", "ring"), "already given by --hosts a");
        assertContains(usageError("-np", "2", "--agent", "ssh {host}", "ring"), "--agent ssh {host} needs --hosts or --hostfile");
        assertContains(usageError("--hosts", "a", "--agent", " ", "ring"), "--agent is empty");
        assertContains(usageError("--hosts"), "--hosts needs a value");
        assertContains(usageError("ring"), "-np N is required");
    }

    @Test
    void agentWordsReplaceOrAppendTheHost()
    {
        assertEquals(List.of("ssh", "-o", "BatchMode=yes", "h2"), ShmemRunOptions.agentWords("ssh -o BatchMode=yes", "h2"));
        assertEquals(List.of("/w/bin/test-hosts", "exec", "h2"), ShmemRunOptions.agentWords("/w/bin/test-hosts exec {host}", "h2"));
        assertEquals(List.of("srun", "--nodelist=n7", "-N1", "-n1"), ShmemRunOptions.agentWords("srun --nodelist={host} -N1 -n1", "n7"));
        assertTrue(ShmemRunOptions.agentUsesShell(List.of("/usr/bin/ssh", "h")));
        assertTrue(ShmemRunOptions.agentUsesShell(List.of("rsh", "h")));
        assertFalse(ShmemRunOptions.agentUsesShell(List.of("bin/test-hosts", "exec", "h")));
    }

    @Test
    void shellQuoting()
    {
        assertEquals("/a/b:c.jar", ShmemRunOptions.shellQuote("/a/b:c.jar"));
        assertEquals("JSHMEM_RANK=3", ShmemRunOptions.shellQuote("JSHMEM_RANK=3"));
        assertEquals("'a b'", ShmemRunOptions.shellQuote("a b"));
        assertEquals("''", ShmemRunOptions.shellQuote(""));
        assertEquals("'it'\\''s $HOME'", ShmemRunOptions.shellQuote("it's $HOME"));
    }

    @Test
    void remoteCommandLines() throws Exception
    {
        final Map<String, String> env = new LinkedHashMap<>();
        env.put("JSHMEM_RANK", "2");
        env.put("X", "a b");
        final List<String> cmd = List.of("/jdk/bin/java", "-cp", "/cp", "Main", "it's");
        // an argv agent: the words as they are
        final List<String> argv = ShmemRun.remoteCommand("t exec {host}", "h2", ShmemRun.PE_SCRIPT, "jshmem-pe", env, cmd);
        final List<String> want = new ArrayList<>(List.of("t", "exec", "h2", "sh", "-c", ShmemRun.PE_SCRIPT, "jshmem-pe",
            Path.of("").toAbsolutePath().toString(), "env", "JSHMEM_RANK=2", "X=a b"));
        want.addAll(cmd);
        assertEquals(want, argv);
        // ssh: one shell word each, which a POSIX shell reads back into the same words
        final List<String> ssh = ShmemRun.remoteCommand("ssh {host}", "h2", ShmemRun.PE_SCRIPT, "jshmem-pe", env, cmd);
        assertEquals(List.of("ssh", "h2"), ssh.subList(0, 2));
        final String line = String.join(" ", ssh.subList(2, ssh.size()));
        final Process p = new ProcessBuilder("sh", "-c", "for w in " + line + "; do printf '%s\\n' \"$w\"; done").start();
        final List<String> back = p.inputReader().lines().toList();
        assertEquals(0, p.waitFor());
        assertEquals(want.subList(3, want.size()), back);
    }

    @Test
    void peScriptReadsTheUniqueIdFromStdinAndExecs() throws Exception
    {
        final Process p = new ProcessBuilder("sh", "-c", ShmemRun.PE_SCRIPT, "jshmem-pe", "/nonexistent-dir", "env", "A=1",
            "sh", "-c", "echo \"$SHMEM_BOOTSTRAP_UID $A $$\"").start();
        p.getOutputStream().write("jsuid1-abc\n".getBytes());
        p.getOutputStream().close();
        final String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals(0, p.waitFor());
        assertEquals("jsuid1-abc 1 " + p.pid(), out, "the id, the variable, and the same pid (exec all the way)");
        final Process none = new ProcessBuilder("sh", "-c", ShmemRun.PE_SCRIPT, "jshmem-pe", "/", "true").start();
        none.getOutputStream().close();
        assertEquals(1, none.waitFor());
        assertTrue(new String(none.getErrorStream().readAllBytes()).contains("no unique id on stdin"));
    }
}
