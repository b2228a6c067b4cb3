package io.jshmem.examples;

import io.jshmem.launch.ShmemRun;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A bad option fails every PE's init: shmemrun prints one line per PE (tagged) or one for the job, no stack traces. */
class ConfigErrorIT
{
    private static String run(final boolean tag, final ByteArrayOutputStream err)
    {
        final List<String> args = new java.util.ArrayList<>(List.of("-np", "3", "-cp", System.getProperty("java.class.path"),
            "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", "-x", "SHMEM_SYMMETRIC_SIZE=abc"));
        if (tag)
        {
            args.add("--tag-output");
        }
        args.add("ring");
        final int status = ShmemRun.run(args.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        final String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, text);
        assertTrue(text.lines().noneMatch(l -> l.contains("\tat ") || l.contains("Exception in thread")), "no stack trace:\n" + text);
        return text;
    }

    @Test
    void untaggedOneLineForTheJob()
    {
        final String text = run(false, new ByteArrayOutputStream());
        assertEquals(1, text.lines().filter(l -> l.startsWith("configuration error: invalid value for SHMEM_SYMMETRIC_SIZE")).count(), text);
    }

    @Test
    void taggedOneLinePerPe()
    {
        final String text = run(true, new ByteArrayOutputStream());
        final List<String> lines = text.lines().filter(l -> l.contains("configuration error: invalid value for SHMEM_SYMMETRIC_SIZE")).toList();
        assertTrue(!lines.isEmpty(), text);
        for (int r = 0; r < 3; r++)
        {
            final String tag = "[pe " + r + "] configuration error: ";
            assertTrue(lines.stream().filter(l -> l.startsWith(tag)).count() <= 1, "at most one line of PE " + r + ":\n" + text);
        }
        assertEquals(lines.size(), lines.stream().filter(l -> l.startsWith("[pe ")).count(), text);
    }
}
