package io.jshmem.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --aot-cache auto}'s choices on real files: which jobs get a cache, what names it, training then use, a cache
 * PE 0 wrote where the launcher cannot see it, and eviction. ShmemRunIT runs it with PEs.
 */
class AotCacheTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream messages = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(messages, true, StandardCharsets.UTF_8);

    private Path jar(final String name) throws IOException
    {
        final Path jar = dir.resolve(name);
        Files.writeString(jar, "not really a jar: only its path, size and time count here");
        return jar;
    }

    private static List<String> cmd(final String classpath, final String main, final String... jvmArgs)
    {
        final List<String> cmd = new ArrayList<>(List.of("/usr/lib/jvm/some-jdk/bin/java", "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(List.of(jvmArgs));
        cmd.addAll(List.of("-cp", classpath, main, "arg"));
        return cmd;
    }

    private Map<String, String> launcherEnv()
    {
        return Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString(), "HOME", dir.resolve("home").toString());
    }

    private AotCache auto(final int np, final List<String> cmd, final Map<String, String> peEnv)
    {
        return AotCache.auto(np, cmd, cmd.get(cmd.indexOf("-cp") + 1), null, peEnv, launcherEnv(), false, err);
    }

    @Test
    void autoIsForJobsWhoseClassPathIsJarsOnly() throws IOException
    {
        final String cp = jar("a.jar") + ":" + jar("b.jar");
        assertEquals(auto(AotCache.AUTO_MIN_PES - 1, cmd(cp, "com.example.App"), Map.of()).file(),
            auto(AotCache.AUTO_MIN_PES, cmd(cp, "com.example.App"), Map.of()).file(), "one cache for every size");
        final AotCache cache = auto(AotCache.AUTO_MIN_PES, cmd(cp, "com.example.App"), Map.of());
        assertNotNull(cache);
        assertEquals(dir.resolve("cache/jshmem/aot"), cache.file().getParent());
        assertTrue(cache.file().getFileName().toString().matches("App-[0-9a-f]{16}\\.aot"), cache.file().toString());

        final Path classes = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(classes.resolve("App.class"), "x");
        assertNull(auto(16, cmd(classes + ":" + cp, "com.example.App"), Map.of()), "a directory on the class path");
        assertNull(auto(16, cmd(cp, "com.example.App", "-XX:AOTCache=/tmp/mine.aot"), Map.of()), "the user's own cache");
        assertNull(auto(16, cmd(cp, "com.example.App", "-Xshare:off"), Map.of()), "sharing off");
        assertNull(auto(16, cmd(cp, "com.example.App"), Map.of("JAVA_TOOL_OPTIONS", "-Xmx1g -XX:SharedArchiveFile=/tmp/a.jsa")),
            "the user's own archive in JAVA_TOOL_OPTIONS");

        final AotCache home = AotCache.auto(16, cmd(cp, "com.example.App"), cp, null, Map.of(),
            Map.of("HOME", dir.resolve("home").toString()), false, err);
        assertEquals(dir.resolve("home/.cache/jshmem/aot"), home.file().getParent());
    }

    @Test
    void autoNamesOneCachePerJvmOptionsClassPathAndProgram() throws IOException
    {
        final Path a = jar("a.jar");
        final String cp = a.toString();
        final Path base = auto(16, cmd(cp, "com.example.App"), Map.of()).file();
        assertEquals(base, auto(64, cmd(cp, "com.example.App"), Map.of()).file(), "the same program at another size");
        assertEquals(base, auto(16, cmd(cp, "com.example.App", "-Xlog:gc"), Map.of()).file(), "logging is not in the key");
        assertNotEquals(base, auto(16, cmd(cp, "com.example.App", "-Xmx1g"), Map.of()).file());
        assertNotEquals(base, auto(16, cmd(cp, "com.example.Other"), Map.of()).file());
        assertNotEquals(base, auto(16, cmd(cp, "com.example.App"), Map.of("JAVA_TOOL_OPTIONS", "-XX:+UseParallelGC")).file());
        Files.setLastModifiedTime(a, FileTime.fromMillis(Files.getLastModifiedTime(a).toMillis() - 60_000));
        assertNotEquals(base, auto(16, cmd(cp, "com.example.App"), Map.of()).file(), "a rebuilt jar");
    }

    /** PE 0's JVM writes the cache into the job's training file; this test does what it would. */
    private static void pe0Writes(final AotCache cache) throws IOException
    {
        final String arg = cache.trainingArgs().get(0);
        assertTrue(arg.startsWith("-XX:AOTCacheOutput=" + cache.file() + ".tmp-"), arg);
        assertTrue(cache.jdkTrainingLine("AOTCache creation is complete: " + arg.substring(arg.indexOf('=') + 1) + " 10301440 bytes"));
        assertFalse(cache.jdkTrainingLine("AOTCache creation is complete: " + cache.file() + " 10301440 bytes"), "another job's");
        Files.writeString(Path.of(arg.substring(arg.indexOf('=') + 1)), "the cache");
    }

    @Test
    void autoTrainsOnPe0OnceThenEveryPeStartsFromTheCache() throws IOException
    {
        final String cp = jar("a.jar").toString();
        final List<String> first = cmd(cp, "com.example.App");
        final AotCache training = auto(16, first, Map.of());
        training.prepare(first, cp, null, first.get(0));
        assertTrue(training.trains());
        assertEquals(cmd(cp, "com.example.App"), first, "PEs other than PE 0 run as they are");
        assertTrue(messages.toString().contains("shmemrun: training an AOT cache for this program on PE 0 (" + training.file()), messages.toString());

        pe0Writes(training);
        training.jobEnded(1);
        assertFalse(Files.exists(training.file()), "a failed job leaves no cache");
        try (var files = Files.list(training.file().getParent()))
        {
            assertEquals(List.of(), files.toList(), "nor its training file");
        }

        final List<String> second = cmd(cp, "com.example.App");
        final AotCache again = auto(16, second, Map.of());
        again.prepare(second, cp, null, second.get(0));
        assertTrue(again.trains(), "trains again after a failed job");
        pe0Writes(again);
        again.jobEnded(0);
        assertEquals("the cache", Files.readString(again.file()));
        assertTrue(Files.readString(Path.of(again.file() + ".stamp")).contains(cp));
        assertTrue(messages.toString().contains("shmemrun: trained the AOT cache " + again.file()), messages.toString());

        final List<String> third = cmd(cp, "com.example.App");
        final AotCache used = auto(16, third, Map.of());
        used.prepare(third, cp, null, third.get(0));
        assertFalse(used.trains());
        assertEquals(List.of("-XX:AOTCache=" + used.file(), "-Xlog:aot=off"), third.subList(1, 3));
    }

    @Test
    void aSmallJobTrainsTheCacheOnTheSecondRunOfItsBuild() throws IOException
    {
        final Path a = jar("a.jar");
        final String cp = a.toString();
        final int small = AotCache.AUTO_MIN_PES - 1;
        final List<String> first = cmd(cp, "com.example.App");
        final AotCache once = auto(small, first, Map.of());
        once.prepare(first, cp, null, first.get(0));
        assertFalse(once.trains(), "a program run once pays no training");
        assertEquals(cmd(cp, "com.example.App"), first, "and runs as it is");
        assertEquals("", messages.toString(), "silently");
        final Path seen = Path.of(once.file() + AotCache.SEEN);
        assertTrue(Files.readString(seen).contains(cp), "the build is remembered");
        assertFalse(Files.exists(once.file()));

        final List<String> second = cmd(cp, "com.example.App");
        final AotCache twice = auto(small, second, Map.of());
        twice.prepare(second, cp, null, second.get(0));
        assertTrue(twice.trains(), "the second run of the build trains");
        assertTrue(messages.toString().contains("shmemrun: training an AOT cache for this program on PE 0 (" + twice.file()), messages.toString());
        pe0Writes(twice);
        twice.jobEnded(0);
        assertFalse(Files.exists(seen), "the marker goes once the cache is there");

        final List<String> third = cmd(cp, "com.example.App");
        auto(small, third, Map.of()).prepare(third, cp, null, third.get(0));
        assertTrue(third.contains("-XX:AOTCache=" + twice.file()), third.toString());

        // a rebuilt jar is another cache: its first small run trains nothing again
        Files.setLastModifiedTime(a, FileTime.fromMillis(Files.getLastModifiedTime(a).toMillis() - 60_000));
        final List<String> rebuilt = cmd(cp, "com.example.App");
        final AotCache fresh = auto(small, rebuilt, Map.of());
        fresh.prepare(rebuilt, cp, null, rebuilt.get(0));
        assertFalse(fresh.trains());
        assertEquals(cmd(cp, "com.example.App"), rebuilt);
    }

    @Test
    void autoTrainsNoMoreWherePe0WroteTheCacheOnAHostThatDoesNotShareTheDirectory() throws IOException
    {
        final String cp = jar("a.jar").toString();
        final List<String> first = cmd(cp, "com.example.App");
        final AotCache training = AotCache.auto(16, first, cp, null, Map.of(), launcherEnv(), true, err);
        training.prepare(first, cp, null, first.get(0));
        assertTrue(training.trains());
        training.jobEnded(0); // the job ended well, and no cache appeared here
        assertTrue(messages.toString().contains("shmemrun: PE 0 wrote no AOT cache on this machine"), messages.toString());
        assertTrue(Files.isRegularFile(Path.of(training.file() + AotCache.ELSEWHERE)));

        final List<String> second = cmd(cp, "com.example.App");
        final AotCache next = AotCache.auto(16, second, cp, null, Map.of(), launcherEnv(), true, err);
        next.prepare(second, cp, null, second.get(0));
        assertFalse(next.trains());
        assertEquals(cmd(cp, "com.example.App"), second, "the PEs run without a cache");
    }

    @Test
    void evictionKeepsTheCachesUsedLastAndDeletesTrainingFilesAnHourOld() throws IOException
    {
        final Path aot = Files.createDirectories(dir.resolve("aot"));
        final long now = System.currentTimeMillis();
        for (int i = 0; i < 10; i++)
        {
            final Path c = Files.writeString(aot.resolve("App" + i + "-0123456789abcdef.aot"), "c");
            final Path s = Files.writeString(aot.resolve("App" + i + "-0123456789abcdef.aot.stamp"), "s");
            Files.setLastModifiedTime(c, FileTime.fromMillis(now - i * 60_000L));
            Files.setLastModifiedTime(s, FileTime.fromMillis(now - i * 60_000L));
        }
        final Path stale = Files.writeString(aot.resolve("Old-0123456789abcdef.aot.tmp-1f"), "t");
        Files.setLastModifiedTime(stale, FileTime.fromMillis(now - 2 * 3_600_000L));
        final Path running = Files.writeString(aot.resolve("New-0123456789abcdef.aot.tmp-2e"), "t");
        final Path other = Files.writeString(aot.resolve("notes.txt"), "not ours");
        Files.setLastModifiedTime(other, FileTime.fromMillis(now - 10 * 3_600_000L));
        final int markers = AotCache.AUTO_KEEP_SEEN + 3;
        for (int i = 0; i < markers; i++)
        {
            final Path m = Files.writeString(aot.resolve("Small" + i + "-0123456789abcdef.aot" + AotCache.SEEN), "s");
            Files.setLastModifiedTime(m, FileTime.fromMillis(now - i * 60_000L));
        }

        AotCache.evict(aot, 8, now);
        for (int i = 0; i < markers; i++)
        {
            assertEquals(i < AotCache.AUTO_KEEP_SEEN, Files.exists(aot.resolve("Small" + i + "-0123456789abcdef.aot" + AotCache.SEEN)),
                "marker " + i + " (markers are kept apart from the caches: they evict none)");
        }
        for (int i = 0; i < 10; i++)
        {
            assertEquals(i < 8, Files.exists(aot.resolve("App" + i + "-0123456789abcdef.aot")), "cache " + i);
            assertEquals(i < 8, Files.exists(aot.resolve("App" + i + "-0123456789abcdef.aot.stamp")), "stamp " + i);
        }
        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(running), "a training job's file while it runs");
        assertTrue(Files.exists(other));
    }
}
