package io.jshmem.examples;

import io.jshmem.launch.ShmemRun;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What bin/demo does: shmemrun -np 4 --tag-output hello, by short name, on real PE JVMs. */
class HelloIT
{
    @Test
    void helloByShortNameOnFourPes() throws InterruptedException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ShmemRun.run(new String[] {"-np", "4", "--tag-output", "-cp", System.getProperty("java.class.path"),
                "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", "hello"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String text = out.toString(StandardCharsets.UTF_8);
        final String all = text + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, all);
        final List<String> lines = text.lines().toList();
        assertEquals(4, lines.size(), all);
        for (int r = 0; r < 4; r++)
        {
            final String prefix = "[pe " + r + "] Hello from PE " + r + " of 4 (node rank " + r + " of 4, launcher shmemrun";
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(prefix) && l.contains("hosts: 0=") && l.contains(", 3=")), all);
        }
        for (int i = 0; i < 100 && ProcessHandle.current().descendants().findAny().isPresent(); i++)
        {
            Thread.sleep(50);
        }
        assertEquals(0, ProcessHandle.current().descendants().count());
    }
}
