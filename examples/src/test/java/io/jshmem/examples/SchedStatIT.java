package io.jshmem.examples;

import io.jshmem.launch.ShmemRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code benchmarks/scale --schedstat}'s two scripts on a real job: {@code schedstat_sample.py} samples the scheduler
 * statistics of every thread of the PE JVMs of an isx job of 2 PEs launched through the launcher users run, and
 * {@code schedstat_report.py} sums them per kind of thread: both PEs' main threads, with time on a core.
 */
class SchedStatIT
{
    @Test
    void samplesEveryPeThreadAndReportsThePesMainThreads(@TempDir final Path dir) throws Exception
    {
        final Path samples = dir.resolve("schedstat.txt");
        final Path stop = dir.resolve("stop");
        final Process sampler = new ProcessBuilder(PlotScript.command("schedstat_sample.py", samples.toString(), stop.toString(), "0.05"))
            .redirectErrorStream(true).redirectOutput(dir.resolve("sampler.out").toFile()).start();
        try
        {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            final PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8);
            final int status = ShmemRun.run(new String[] {"-np", "2", "--tag-output", "-cp", System.getProperty("java.class.path"),
                "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", "isx", "262144", "10", "-"}, ps, ps);
            assertEquals(0, status, bytes.toString(StandardCharsets.UTF_8));
            Files.createFile(stop);
            assertTrue(sampler.waitFor(30, TimeUnit.SECONDS), "the sampler stops once its stop file exists");
            assertEquals(0, sampler.exitValue(), Files.readString(dir.resolve("sampler.out")));
        }
        finally
        {
            sampler.destroyForcibly();
        }
        final List<String> lines = Files.readAllLines(samples);
        assertTrue(lines.size() > 10, "samples: " + lines.size());
        assertTrue(lines.stream().allMatch(l -> l.split(" ").length == 8), "SECONDS PID TID KIND NAME CPU WAIT SLICES:\n" + lines.get(0));
        assertEquals(2, lines.stream().map(l -> l.split(" ")[1]).distinct().count(), "the two PE JVMs, not the launcher's");

        final String table = PlotScript.run("schedstat_report.py", samples.toString());
        final String main = table.lines().filter(l -> l.startsWith("| java | PE main thread | 2 | ")).findFirst()
            .orElseThrow(() -> new AssertionError("no row for the PEs' main threads:\n" + table));
        assertTrue(Double.parseDouble(main.split("\\|")[4].strip()) > 0.1, "the PEs ran on a core: " + main);
        assertTrue(table.contains(", 2 processes"), table);
    }
}
