package io.jshmem.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code benchmarks/plot/scale.py --mode coll}'s table of how far each side's repetitions of a row lie apart: per side
 * and N the median over the rows of the slowest repetition over the fastest (a row of several jobs: the median of
 * theirs), and the rows at 2x or more; a failed job's rows do not count.
 */
class ScaleReportSpreadTest
{
    private static void job(final Path raw, final String dir, final String side, final int round, final String status,
        final String... rows) throws Exception
    {
        final Path d = Files.createDirectories(raw.resolve(dir));
        Files.writeString(d.resolve("job.txt"), "side=" + side + "\nnpes=4\nhosts=2\nper_host=2\nrc=0\nstatus=" + status +
            "\nlaunch_to_exit_ms=1500\nonly=\nround=" + round + "\nmem_before_mb=1000\nmem_peak_mb=1500\nerror=\n");
        Files.writeString(d.resolve("coll.csv"), "benchmark,size,unit,median,min,max,values\n" + String.join("\n", rows) + "\n");
    }

    @Test
    void eachSidesRepetitionsSpreadIsTheMedianOverItsRows(@TempDir final Path dir) throws Exception
    {
        final Path raw = Files.createDirectories(dir.resolve("raw-scale-coll-x"));
        Files.writeString(raw.resolve("default-transport.txt"), "proxy\n");
        // jshmem: broadcast 8 B spreads 3x in one job and 1x in the other (median 2.0), 1 KiB 1.5x, alltoall 8 B 1.2x
        job(raw, "proxy-4", "proxy", 1, "ok", "broadcast,8,us,10,10,30,10;30;20", "broadcast,1024,us,20,20,30,20;30;25",
            "alltoall (bytes per PE pair),8,us,10,10,12,10;12;11");
        job(raw, "proxy-4-r2", "proxy", 2, "ok", "broadcast,8,us,10,10,10,10;10;10", "broadcast,1024,us,20,20,30,20;30;25",
            "alltoall (bytes per PE pair),8,us,10,10,12,10;12;11");
        job(raw, "proxy-4-r3", "proxy", 3, "failed (exit 1)", "broadcast,8,us,10,1,100,1;100;10");
        // OSHMEM: 1.1x everywhere
        job(raw, "oshmem-4", "oshmem", 1, "ok", "broadcast,8,us,20,20,22,20;22;21", "broadcast,1024,us,30,30,33,30;33;31",
            "alltoall (bytes per PE pair),8,us,40,40,44,40;44;42");
        final Path md = dir.resolve("report.md");
        PlotScript.run("scale.py", "--mode", "coll", "--raw", raw.toString(), "--md", md.toString());
        final String report = Files.readString(md);
        assertTrue(report.contains("### Spread of the repetitions"), report);
        // rows 2.0, 1.5, 1.2: median 1.5, one row at 2x
        assertTrue(report.contains("| jshmem proxy | 1.50 (1 of 3) |"), report);
        assertTrue(report.contains("| OSHMEM | 1.10 (0 of 3) |"), report);
    }
}
