package io.jshmem.examples;

import io.jshmem.launch.ShmemRun;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Observing a job (docs/library.md): {@code shmemrun -np 2 --jfr DIR -x SHMEM_STATS=1 ring} on real PE JVMs
 * leaves one recording per PE whose {@code jfr summary} lists jshmem's event types with counts, and
 * every PE prints its counters at finalize. One job for both, to keep the suite short.
 */
class ObserveIT
{
    private static final Pattern SUMMARY_LINE = Pattern.compile("^\\s*(jshmem\\.\\w+)\\s+(\\d+)\\s+\\d+\\s*$");
    private static final Pattern STATS_LINE = Pattern.compile(
        "^\\[pe (\\d)/2\\] SHMEM_STATS p2p: put (\\d+) ops (\\d+) B, amo (\\d+) ops 8 B, signal (\\d+) ops (\\d+) B; " +
            "waits:.*; collectives: (\\d+) \\(sync (\\d+)\\)$");

    @Test
    void jfrRecordingPerPeAndStatsAtFinalize(@TempDir final Path dir) throws Exception
    {
        final Path jfr = dir.resolve("recordings");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ShmemRun.run(new String[] {"-np", "2", "--jfr", jfr.toString(), "-x", "SHMEM_STATS=1",
                "-cp", System.getProperty("java.class.path"), "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", "ring"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String text = out.toString(StandardCharsets.UTF_8);
        final String all = text + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, all);
        assertTrue(!all.contains("Started recording"), "--jfr keeps the JVM's recording banner out of the output: " + all);

        // SHMEM_STATS: one line per PE, the ring's operations counted on the p2p class
        final List<String> stats = text.lines().filter(l -> l.contains("SHMEM_STATS")).toList();
        assertEquals(2, stats.size(), all);
        for (final String line : stats)
        {
            final Matcher m = STATS_LINE.matcher(line);
            assertTrue(m.matches(), "stats line shape: " + line);
            assertTrue(Long.parseLong(m.group(2)) >= 1 && Long.parseLong(m.group(4)) >= 1, line);
            assertTrue(Long.parseLong(m.group(7)) >= 1 && m.group(7).equals(m.group(8)), line);
        }

        // --jfr: one recording per PE; `jfr summary` lists jshmem's event types with counts
        for (int pe = 0; pe < 2; pe++)
        {
            final Path file = jfr.resolve("pe" + pe + ".jfr");
            assertTrue(Files.size(file) > 0, file + " missing or empty; " + all);
            final Map<String, Long> counts = summary(file);
            for (final String type : List.of("jshmem.Collective", "jshmem.Heap", "jshmem.Transport"))
            {
                assertTrue(counts.getOrDefault(type, 0L) > 0, "pe " + pe + ": " + type + " in jfr summary " + counts);
            }
            // the fields say what happened: WORLD barriers with their algorithm, on this PE
            boolean worldSync = false;
            for (final RecordedEvent e : RecordingFile.readAllEvents(file))
            {
                if (e.getEventType().getName().startsWith("jshmem."))
                {
                    assertEquals(pe, e.getInt("pe"), e.toString());
                }
                if ("jshmem.Collective".equals(e.getEventType().getName()) && "sync".equals(e.getString("collective")))
                {
                    worldSync |= "WORLD".equals(e.getString("team")) && e.getInt("teamSize") == 2 && !e.getString("algorithm").isEmpty();
                }
            }
            assertTrue(worldSync, "pe " + pe + ": a WORLD sync with its algorithm");
        }
        for (int i = 0; i < 100 && ProcessHandle.current().descendants().findAny().isPresent(); i++)
        {
            Thread.sleep(50);
        }
        assertEquals(0, ProcessHandle.current().descendants().count());
    }

    /**
     * Without JFR no PE loads JFR's machinery or jshmem's event classes (their first load costs a PE about 170 ms of its
     * main thread and 0.3 s of CPU: {@code io.jshmem.jfr.Jfr}); a recording started later in the PE's life, as
     * {@code jcmd PID JFR.start} does, still gets jshmem's events.
     */
    @Test
    void withoutJfrNothingOfJfrLoadsAndARecordingStartedLaterGetsTheEvents(@TempDir final Path dir) throws Exception
    {
        final Path logs = Files.createDirectories(dir.resolve("class-load"));
        final Path jfr = Files.createDirectories(dir.resolve("recordings"));
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int status = ShmemRun.run(new String[] {"-np", "2", "--aot-cache", "off", "-cp", System.getProperty("java.class.path"),
                "-J", "-XX:TieredStopAtLevel=1", "-J", ClassLoadLogs.option(logs),
                LateRecordingPe.class.getName(), jfr.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
        final String all = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, all);
        for (int pe = 0; pe < 2; pe++)
        {
            assertTrue(all.contains("pe " + pe + " started before=false"), all);
        }
        for (final Map.Entry<Path, List<String>> log : ClassLoadLogs.read(logs, 2).entrySet())
        {
            // up to the PE's own Recording: the gate was asked, and neither JFR's internals nor an event class loaded
            final Path f = log.getKey();
            final List<String> lines = log.getValue();
            final int recording = indexOf(lines, " jdk.jfr.Recording ");
            assertTrue(recording > 0, f + ": the PE's Recording class load is in the log");
            final int gate = indexOf(lines, " io.jshmem.jfr.Jfr ");
            assertTrue(gate >= 0 && gate < recording, f + ": the gate was asked");
            for (final String line : lines.subList(0, recording))
            {
                assertTrue(!line.contains(" jdk.jfr.internal.") && !line.matches(".* io\\.jshmem\\.jfr\\.\\w+Event .*"),
                    f + ": loaded before any recording: " + line);
            }
        }
        for (int pe = 0; pe < 2; pe++)
        {
            final Map<String, Long> counts = summary(jfr.resolve("pe" + pe + ".jfr"));
            assertTrue(counts.getOrDefault("jshmem.Collective", 0L) >= 2 && counts.getOrDefault("jshmem.Heap", 0L) >= 2,
                "pe " + pe + ": the late recording has the collectives and heap events " + counts);
        }
    }

    private static int indexOf(final List<String> lines, final String part)
    {
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).contains(part))
            {
                return i;
            }
        }
        return -1;
    }

    /** Runs the JDK's {@code jfr summary} on a recording: event type to count. */
    private static Map<String, Long> summary(final Path file) throws IOException, InterruptedException
    {
        final Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jfr").toString(), "summary", file.toString())
            .redirectErrorStream(true).start();
        final String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "jfr summary did not finish");
        assertEquals(0, p.exitValue(), text);
        final Map<String, Long> counts = new HashMap<>();
        text.lines().map(SUMMARY_LINE::matcher).filter(Matcher::matches).forEach(m -> counts.put(m.group(1), Long.parseLong(m.group(2))));
        return counts;
    }
}
