package io.jshmem.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code benchmarks/plot/scale.py --mode isx} on a raw folder of {@code benchmarks/scale --isx --repeat}: a side's jobs of
 * one N are reported as the median of those that passed, with TOTAL's range, and a failed one does not count.
 */
class ScaleReportRepeatTest
{
    private static void job(final Path raw, final String dir, final String side, final int round, final String status,
        final Double total) throws Exception
    {
        final Path d = Files.createDirectories(raw.resolve(dir));
        Files.writeString(d.resolve("job.txt"), "side=" + side + "\nnpes=2\nhosts=2\nper_host=1\nrc=0\nstatus=" + status +
            "\nlaunch_to_exit_ms=1500\nround=" + round + "\nmem_before_mb=1000\nmem_peak_mb=1500\nerror=\n");
        final StringBuilder out = new StringBuilder("ISx v1.1\n  Number of Keys per PE: 1048576\n");
        if (total != null)
        {
            out.append(String.format("  TOTAL                    %.6f     %.6f%n", total, total + 0.001));
            out.append(String.format("  ATA_KEYS                 %.6f     %.6f%n", total / 4, total / 4));
            out.append("ISx verification: PASS on 2 PEs: 2097152 of 2097152 keys after the exchange, 0 PEs failed their checks "
                + "(key sum 281340093697992)\n");
        }
        Files.writeString(d.resolve("out.txt"), out);
    }

    @Test
    void aSidesRepeatedJobsAreTheirMedianWithTotalsRange(@TempDir final Path dir) throws Exception
    {
        final Path raw = Files.createDirectories(dir.resolve("raw-scale-isx-x"));
        Files.writeString(raw.resolve("default-transport.txt"), "proxy\n");
        job(raw, "oshmem-2", "oshmem", 1, "ok", 0.030);
        job(raw, "proxy-2", "proxy", 1, "ok", 0.060);
        job(raw, "oshmem-2-r2", "oshmem", 2, "ok", 0.032);
        job(raw, "proxy-2-r2", "proxy", 2, "ok", 0.070);
        job(raw, "proxy-2-r3", "proxy", 3, "failed (exit 1)", null);
        final Path md = dir.resolve("report.md");
        PlotScript.run("scale.py", "--mode", "isx", "--raw", raw.toString(), "--md", md.toString());
        final String report = Files.readString(md);
        final String row = report.lines().filter(l -> l.startsWith("| 2 | 2 | 1048576 |")).findFirst()
            .orElseThrow(() -> new AssertionError(report));
        // jshmem: the median of 60 and 70 ms (the failed third job left out); OSHMEM: of 30 and 32; 65 / 31 = 2.10
        assertTrue(row.startsWith("| 2 | 2 | 1048576 | 65.0 (60.0–70.0) | 31.0 (30.0–32.0) | 2.10x |"), row);
        assertTrue(row.contains("| PASS ×2 / PASS ×2 | yes |"), row);
        assertTrue(report.contains("| 2 | 2 | jshmem proxy (round 3) | **failed (exit 1)** |"), report);
    }
}
