package io.jshmem.launch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Multi-JVM tests: real PE processes through {@link ShmemRun#run}, on this test's class path. */
class ShmemRunIT
{
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

    private int run(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"),
            "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", "-J", "-Xshare:auto", "-x", "SHMEM_BOOTSTRAP_TIMEOUT=30s"));
        all.addAll(Arrays.asList(args));
        try (PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
             PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8))
        {
            return ShmemRun.run(all.toArray(String[]::new), out, err);
        }
    }

    private String out()
    {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err()
    {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    private String both()
    {
        return "--- stdout\n" + out() + "--- stderr\n" + err();
    }

    @AfterEach
    void noChildProcessRemains() throws InterruptedException
    {
        for (int i = 0; i < 100 && ProcessHandle.current().descendants().findAny().isPresent(); i++)
        {
            Thread.sleep(50);
        }
        assertEquals(List.of(), ProcessHandle.current().descendants().map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList());
    }

    @Test
    void helloOnFourPesWithTaggedCompleteOutput()
    {
        final int status = run("-np", "4", "--tag-output", TestPe.class.getName(), "hello");
        assertEquals(0, status, both());
        final List<String> lines = out().lines().toList();
        assertEquals(4, lines.size(), both());
        for (int r = 0; r < 4; r++)
        {
            final String want = "[pe " + r + "] hello " + r + "/4 node " + r + "/4 " + "x".repeat(5000) + " all: rank0 rank1 rank2 rank3";
            assertTrue(lines.contains(want), "PE " + r + " line whole and tagged:\n" + both());
        }
        for (int r = 0; r < 4; r++)
        {
            assertTrue(err().lines().anyMatch(("[pe " + r + "] stderr line from " + r)::equals), both());
        }
    }

    @Test
    void onePeExitingWithThreeEndsTheJobWithThree()
    {
        final long t0 = System.nanoTime();
        final int status = run("-np", "3", TestPe.class.getName(), "exit3");
        assertEquals(3, status, both());
        assertTrue(err().contains("shmemrun: PE 1 exited with status 3"), both());
        assertTrue((System.nanoTime() - t0) / 1e9 < 20, "ended in time");
    }

    @Test
    void globalExitFromOnePeEndsEveryPeWithItsStatus()
    {
        final int status = run("-np", "4", "--tag-output", TestPe.class.getName(), "globalexit7");
        assertEquals(7, status, both());
        assertTrue(!out().contains("barrier returned"), both());
        assertTrue(err().contains("shmemrun: PE 2 called global exit(7)"), both());
    }

    @Test
    void aPeKilledBySigkillFailsTheOthersFastNamingIt()
    {
        final long t0 = System.nanoTime();
        final int status = run("-np", "4", "--tag-output", TestPe.class.getName(), "sigkill");
        final double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(status != 0, both());
        assertEquals(137, status, both());
        assertTrue(seconds < 20, "took " + seconds + " s");
        assertTrue(err().contains("shmemrun: PE 2 exited with status 137"), both());
        // at least one survivor saw the failure naming PE 2 before the launcher ended it
        assertTrue(err().lines().anyMatch(l -> l.contains("PE 2 was lost") && l.startsWith("[pe ")), both());
    }

    @Test
    void aPeExitingZeroWithoutLeavingIsNamedAsTheFirstLost()
    {
        final int status = run("-np", "4", TestPe.class.getName(), "exit0early");
        assertEquals(1, status, both());
        assertTrue(err().contains("; the first PE lost was PE 3 (it exited with status 0 without leaving the job)"), both());
    }

    @Test
    void aMissingMainClassIsSaidOnce()
    {
        final int status = run("-np", "3", "no.such.Main");
        assertEquals(1, status, both());
        assertEquals(1, err().lines().filter(l -> l.contains("no.such.Main")).count(), both());
        assertTrue(err().startsWith("shmemrun: no main class no.such.Main on the PEs' class path (the -cp entries, then jshmem's own)"), both());
    }

    @Test
    void classPathOptionAddsToJshmemsOwn() throws Exception
    {
        // the launcher has jshmem without the test classes; -cp gives only the test classes
        final String testClasses = java.nio.file.Path.of("target", "test-classes").toAbsolutePath().toString();
        final String jshmem = Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
            .filter(e -> !java.nio.file.Path.of(e).toAbsolutePath().toString().equals(testClasses))
            .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
        final Process launcher = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:+UseSerialGC", "-cp", jshmem, ShmemRun.class.getName(), "-np", "2", "--tag-output", "-cp", testClasses,
            "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", TestPe.class.getName(), "hello").redirectErrorStream(true).start();
        final String text = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(launcher.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), text);
        assertEquals(0, launcher.exitValue(), text);
        assertEquals(2, text.lines().filter(l -> l.contains(" all: rank0 rank1")).count(), text);
    }

    @Test
    void timeoutEndsAnOverrunningJobWith124()
    {
        final long t0 = System.nanoTime();
        final int status = run("-np", "2", "--timeout", "3", "--grace", "1", TestPe.class.getName(), "sleep");
        assertEquals(ShmemRun.TIMEOUT_STATUS, status, both());
        assertTrue(err().contains("exceeded --timeout 3 s"), both());
        assertTrue((System.nanoTime() - t0) / 1e9 < 15);
    }

    @Test
    void pesDoNotOutliveAKilledLauncher() throws Exception
    {
        launcherDies(true);
    }

    @Test
    void sigtermToTheLauncherEndsEveryPe() throws Exception
    {
        launcherDies(false);
    }

    private void launcherDies(final boolean sigkill) throws Exception
    {
        final Process launcher = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), ShmemRun.class.getName(),
            "-np", "2", "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", TestPe.class.getName(), "idle")
            .redirectErrorStream(true).start();
        final List<Long> pids = new ArrayList<>();
        try (java.io.BufferedReader r = launcher.inputReader())
        {
            String line;
            while (pids.size() < 2 && (line = r.readLine()) != null)
            {
                if (line.startsWith("idle pid="))
                {
                    pids.add(Long.parseLong(line.substring("idle pid=".length())));
                }
            }
            assertEquals(2, pids.size(), "both PEs formed");
            if (sigkill)
            {
                launcher.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook; the PEs' failure policy ends them
            }
            else
            {
                launcher.destroy(); // SIGTERM: the launcher's shutdown hook ends the PEs
                launcher.waitFor();
            }
            final long t0 = System.nanoTime();
            for (final long pid : pids)
            {
                final var h = ProcessHandle.of(pid);
                while (h.isPresent() && h.get().isAlive() && System.nanoTime() - t0 < 15_000_000_000L)
                {
                    Thread.sleep(50);
                }
                assertTrue(h.isEmpty() || !h.get().isAlive(), "PE pid " + pid + " outlived its launcher");
            }
            final double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(seconds < 10, "PEs ended " + seconds + " s after the launcher died");
        }
        finally
        {
            launcher.destroyForcibly();
            for (final long pid : pids)
            {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    @Test
    void aJarRunsWithJavaJar() throws Exception
    {
        final java.nio.file.Path jar = java.nio.file.Files.createTempFile("jshmem-test-pe", ".jar");
        try
        {
            final java.util.jar.Manifest m = new java.util.jar.Manifest();
            m.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
            m.getMainAttributes().put(java.util.jar.Attributes.Name.MAIN_CLASS, TestPe.class.getName());
            final StringBuilder cp = new StringBuilder();
            for (final String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator))
            {
                cp.append(java.nio.file.Path.of(e).toUri()).append(' ');
            }
            m.getMainAttributes().put(java.util.jar.Attributes.Name.CLASS_PATH, cp.toString().strip());
            try (var out = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(jar), m))
            {
                out.flush();
            }
            final int status = ShmemRun.run(new String[] {"-np", "2", "--tag-output", "-J", "-XX:+UseSerialGC", jar.toString(), "hello"},
                new PrintStream(outBytes, true, StandardCharsets.UTF_8), new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            assertEquals(0, status, both());
            assertEquals(2, out().lines().filter(l -> l.contains(" all: rank0 rank1")).count(), both());
        }
        finally
        {
            java.nio.file.Files.deleteIfExists(jar);
        }
    }

    /**
     * --aot-cache: the first job trains the cache on PE 0, the next starts every PE from it, a changed jar trains it again
     * (the JDK itself would map the stale classes), and a directory on the class path is refused before any PE starts.
     */
    @Test
    void anAotCacheIsTrainedThenUsedAndTrainedAgainForAnotherBuild() throws Exception
    {
        final java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("jshmem-aot-test");
        try
        {
            final String cp = jarsOnly(dir);
            final String testClassesJar = dir.resolve(TEST_CLASSES_JAR).toString();
            final java.nio.file.Path cache = dir.resolve("app.aot");

            final String trained = launchWithCache(cp, cache, 0);
            assertTrue(trained.contains("shmemrun: training the AOT cache " + cache), trained);
            assertTrue(trained.contains("shmemrun: trained the AOT cache " + cache), trained);
            assertTrue(java.nio.file.Files.size(cache) > 0 && java.nio.file.Files.isRegularFile(java.nio.file.Path.of(cache + ".stamp")), trained);

            final String used = launchWithCache(cp, cache, 0, "-J", "-Xlog:class+load=info");
            assertTrue(!used.contains("training"), used);
            assertEquals(2, used.lines().filter(l -> l.contains(TestPe.class.getName() + " source: shared objects file")).count(), used);

            final java.nio.file.Path testClasses = java.nio.file.Path.of("target", "test-classes");
            writeJar(testClasses, java.nio.file.Path.of(testClassesJar), true); // a rebuilt jar: same classes, one file more
            final String rebuilt = launchWithCache(cp, cache, 0);
            assertTrue(rebuilt.contains("shmemrun: the AOT cache " + cache + " was trained on another build: '" + testClassesJar), rebuilt);
            assertTrue(rebuilt.contains("shmemrun: trained the AOT cache " + cache), rebuilt);

            final String refused = launchWithCache(testClasses.toAbsolutePath() + java.io.File.pathSeparator + cp, cache, 1);
            assertTrue(refused.contains("the PEs' class path has the directory " + testClasses.toAbsolutePath()
                + "; a JDK AOT cache takes jars only"), refused);
            assertTrue(!refused.contains(" all: rank0"), refused);
        }
        finally
        {
            deleteTree(dir);
        }
    }

    /**
     * --aot-cache auto, the default: a job of 16 PEs whose class path is jars only trains a cache under the user's cache
     * directory on PE 0 (the JDK's own lines about it not relayed), the next jobs start every PE from it, a smaller one
     * too, and --aot-cache off runs without one.
     */
    @Test
    void byDefaultAJobOfSixteenPesTrainsAnAotCacheThatTheNextJobsUse() throws Exception
    {
        withJarsOnly((cp, cacheHome) ->
        {
            final java.nio.file.Path aotDir = cacheHome.resolve("jshmem/aot");
            final String trained = launch(cp, cacheHome, 16, 0);
            assertTrue(trained.contains("shmemrun: training an AOT cache for this program on PE 0 (" + aotDir), trained);
            assertTrue(trained.contains("shmemrun: trained the AOT cache " + aotDir), trained);
            assertTrue(!trained.contains("AOTConfiguration") && !trained.contains("AOTCache creation") && !trained.contains(".tmp-"),
                "the JDK's lines about the training are not relayed:\n" + trained);
            final List<java.nio.file.Path> caches;
            try (var files = java.nio.file.Files.list(aotDir))
            {
                caches = files.sorted().toList();
            }
            assertEquals(2, caches.size(), "one cache and its stamp: " + caches);
            assertTrue(caches.get(0).getFileName().toString().matches("TestPe-[0-9a-f]{16}\\.aot"), caches.toString());

            final String used = launch(cp, cacheHome, 16, 0, "-J", "-Xlog:class+load=info");
            assertTrue(!used.contains("training"), used);
            assertEquals(16, fromCache(used), used);

            final String smaller = launch(cp, cacheHome, 15, 0, "-J", "-Xlog:class+load=info");
            assertEquals(15, fromCache(smaller), "a smaller job uses it too\n" + smaller);
            final String off = launch(cp, cacheHome, 16, 0, "--aot-cache", "off", "-J", "-Xlog:class+load=info");
            assertEquals(0, fromCache(off), "--aot-cache off\n" + off);
        });
    }

    /**
     * --aot-cache auto for a job of fewer than 16 PEs: its build's first run trains nothing (a program run once pays no
     * training), the second trains the cache on PE 0, and the third starts every PE from it.
     */
    @Test
    void byDefaultASmallJobTrainsTheAotCacheOnTheSecondRunOfItsBuild() throws Exception
    {
        withJarsOnly((cp, cacheHome) ->
        {
            final String first = launch(cp, cacheHome, 2, 0, "-J", "-Xlog:class+load=info");
            assertTrue(!first.contains("training") && fromCache(first) == 0, first);
            final String second = launch(cp, cacheHome, 2, 0);
            assertTrue(second.contains("shmemrun: training an AOT cache for this program on PE 0") && second.contains("shmemrun: trained the AOT cache"),
                second);
            final String third = launch(cp, cacheHome, 2, 0, "-J", "-Xlog:class+load=info");
            assertTrue(!third.contains("training"), third);
            assertEquals(2, fromCache(third), third);
        });
    }

    /** A test of auto's cache: this test's class path as jars, and a cache home of its own (XDG_CACHE_HOME). */
    private interface CacheJobs
    {
        void run(String cp, java.nio.file.Path cacheHome) throws Exception;
    }

    private static void withJarsOnly(final CacheJobs jobs) throws Exception
    {
        final java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("jshmem-aot-auto-test");
        try
        {
            jobs.run(jarsOnly(dir), dir.resolve("cache"));
        }
        finally
        {
            deleteTree(dir);
        }
    }

    /** @return how many PEs of a job run with {@code -Xlog:class+load=info} loaded {@link TestPe} from an AOT cache. */
    private static long fromCache(final String output)
    {
        return output.lines().filter(l -> l.contains(TestPe.class.getName() + " source: shared objects file")).count();
    }

    /** The test classes' jar that {@link #jarsOnly} writes. */
    private static final String TEST_CLASSES_JAR = "test-classes.jar";

    /** @return this test's class path with each directory on it packed into a jar in {@code dir}. */
    private static String jarsOnly(final java.nio.file.Path dir) throws Exception
    {
        final List<String> jars = new ArrayList<>();
        boolean testClasses = false;
        for (final String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        {
            final java.nio.file.Path p = java.nio.file.Path.of(e);
            if (java.nio.file.Files.isDirectory(p))
            {
                final java.nio.file.Path jar = dir.resolve(p.endsWith("test-classes") ? TEST_CLASSES_JAR : "cp" + jars.size() + ".jar");
                testClasses |= p.endsWith("test-classes");
                writeJar(p, jar, false);
                jars.add(jar.toString());
            }
            else
            {
                jars.add(e);
            }
        }
        assertTrue(testClasses, "the test classes are on the class path: " + jars);
        return String.join(java.io.File.pathSeparator, jars);
    }

    private static void deleteTree(final java.nio.file.Path dir) throws java.io.IOException
    {
        try (var files = java.nio.file.Files.walk(dir))
        {
            for (final java.nio.file.Path f : files.sorted(java.util.Comparator.reverseOrder()).toList())
            {
                java.nio.file.Files.deleteIfExists(f);
            }
        }
    }

    /** Runs a 2-PE hello job of {@link TestPe} in a launcher JVM on {@code cp} with --aot-cache; checks its status. */
    private static String launchWithCache(final String cp, final java.nio.file.Path cache, final int expectedStatus, final String... more)
        throws Exception
    {
        final List<String> options = new ArrayList<>(List.of("--aot-cache", cache.toString()));
        options.addAll(List.of(more));
        return launch(cp, null, 2, expectedStatus, options.toArray(new String[0]));
    }

    /**
     * Runs an {@code np}-PE hello job of {@link TestPe} in a launcher JVM on {@code cp}, with XDG_CACHE_HOME
     * {@code cacheHome} (unless null) and the shmemrun options {@code more}; checks its status.
     */
    private static String launch(final String cp, final java.nio.file.Path cacheHome, final int np, final int expectedStatus,
        final String... more) throws Exception
    {
        final List<String> cmd = new ArrayList<>(List.of(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:+UseSerialGC", "-cp", cp, ShmemRun.class.getName(), "-np", String.valueOf(np), "--tag-output",
            "-x", "SHMEM_BOOTSTRAP_TIMEOUT=60s", "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(List.of(more));
        cmd.addAll(List.of(TestPe.class.getName(), "hello"));
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("SHMEMRUN_AOT_CACHE");
        if (cacheHome != null)
        {
            pb.environment().put("XDG_CACHE_HOME", cacheHome.toString());
        }
        final Process launcher = pb.start();
        final String text = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(launcher.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), text);
        assertEquals(expectedStatus, launcher.exitValue(), text);
        if (expectedStatus == 0)
        {
            final String all = " all: " + String.join(" ", java.util.stream.IntStream.range(0, np).mapToObj(r -> "rank" + r).toList());
            assertEquals(np, text.lines().filter(l -> l.endsWith(all)).count(), text);
        }
        return text;
    }

    private static void writeJar(final java.nio.file.Path classes, final java.nio.file.Path jar, final boolean extraEntry) throws Exception
    {
        try (var out = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(jar));
             var files = java.nio.file.Files.walk(classes))
        {
            for (final java.nio.file.Path f : files.filter(java.nio.file.Files::isRegularFile).sorted().toList())
            {
                out.putNextEntry(new java.util.jar.JarEntry(classes.relativize(f).toString().replace(java.io.File.separatorChar, '/')));
                out.write(java.nio.file.Files.readAllBytes(f));
                out.closeEntry();
            }
            if (extraEntry)
            {
                out.putNextEntry(new java.util.jar.JarEntry("rebuilt.txt"));
                out.write("rebuilt\n".getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
    }

    @Test
    void usageErrorsAndHelp()
    {
        assertEquals(2, run("hello"), both());
        assertTrue(err().contains("-np N is required"), both());
        assertEquals(0, ShmemRun.run(new String[] {"--help"}, new PrintStream(outBytes, true, StandardCharsets.UTF_8),
            new PrintStream(errBytes, true, StandardCharsets.UTF_8)));
        for (final String option : List.of("-np", "-cp", "-J", "--jvm-args", "-x", "--tag-output", "--timeout", "--grace", "--help",
            "--hosts", "--hostfile", "--agent", "ssh {host}", "slots=2", "docs/multihost.md", "--aot-cache"))
        {
            assertTrue(out().contains(option), "help explains " + option);
        }
    }
}
