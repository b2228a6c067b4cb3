package io.jshmem.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The PEs' class loading logged to a file each ({@code -Xlog:class+load}), for tests of what a PE loads and when. */
final class ClassLoadLogs
{
    private ClassLoadLogs()
    {
    }

    /**
     * @param dir an empty directory.
     * @return the JVM option that logs every PE's class loading to a file of its own in {@code dir}.
     */
    static String option(final Path dir)
    {
        return "-Xlog:class+load=info:file=" + dir.resolve("pe-%p.log");
    }

    /**
     * @param dir the directory of {@link #option}.
     * @param pes the PEs the job ran: there must be one log each.
     * @return each log's lines, by file.
     * @throws IOException when a log cannot be read.
     */
    static Map<Path, List<String>> read(final Path dir, final int pes) throws IOException
    {
        final Map<Path, List<String>> logs = new TreeMap<>();
        try (var files = Files.list(dir))
        {
            for (final Path f : files.toList())
            {
                logs.put(f, Files.readAllLines(f));
            }
        }
        assertEquals(pes, logs.size(), "a class-load log per PE: " + logs.keySet());
        return logs;
    }
}
