package io.jshmem.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code benchmarks/plot/schedstat_report.py} takes a thread by the name it ends with: a JVM thread sampled in the moment
 * between its start (named after the process, java) and naming itself is not one more PE main thread.
 */
class SchedStatReportTest
{
    @Test
    void aThreadSampledBeforeItNamedItselfCountsUnderItsLaterName(@TempDir final Path dir) throws Exception
    {
        final Path samples = Files.writeString(dir.resolve("schedstat.txt"), String.join("\n",
            // PE 100: its first thread, its main thread (java) and a proxy thread first seen still named java
            "0.0 100 100 java java 0 0 0", "0.0 100 101 java java 0 0 0", "0.0 100 102 java java 0 0 0",
            "1.0 100 100 java java 0 0 0", "1.0 100 101 java java 500000000 1000000 10",
            "1.0 100 102 java jshmem-proxy-pe0 20000000 2000000 20",
            // PE 200: its main thread
            "0.0 200 201 java java 0 0 0", "1.0 200 201 java java 400000000 1000000 10", ""));
        final String table = PlotScript.run("schedstat_report.py", samples.toString());
        assertTrue(table.contains("| java | PE main thread | 2 | 0.90 |"), table);
        assertTrue(table.contains("| java | jshmem-proxy-pe# | 1 | 0.02 |"), table);
    }
}
