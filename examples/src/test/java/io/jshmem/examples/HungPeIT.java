package io.jshmem.examples;

import io.jshmem.launch.ShmemRun;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A PE that hangs (alive, connected, never arriving at a barrier) is the one shmemrun's summary names,
 * not the waiter whose collective timeout exited first.
 */
class HungPeIT
{
    @Test
    void theSummaryNamesThePeThatNeverArrived() throws InterruptedException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final long t0 = System.nanoTime();
        final int status = ShmemRun.run(new String[] {"-np", "3", "-cp", System.getProperty("java.class.path"),
                "-x", "SHMEM_COLLECTIVE_TIMEOUT=2s", "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", HangPe.class.getName()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final double seconds = (System.nanoTime() - t0) / 1e9;
        final String all = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertTrue(status != 0, all);
        assertTrue(seconds < 60, "took " + seconds + " s:\n" + all);
        final String summary = all.lines().filter(l -> l.startsWith("shmemrun: PE ") && l.contains("exited with status")).findFirst()
            .orElseThrow(() -> new AssertionError("no summary line:\n" + all));
        assertTrue(summary.matches("shmemrun: PE [02] exited with status 1; PE 1 never arrived at a collective .*"), summary + "\n---\n" + all);
        for (int i = 0; i < 100 && ProcessHandle.current().descendants().findAny().isPresent(); i++)
        {
            Thread.sleep(50);
        }
        assertEquals(0, ProcessHandle.current().descendants().count(), all);
    }
}
