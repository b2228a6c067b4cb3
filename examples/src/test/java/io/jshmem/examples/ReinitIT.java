package io.jshmem.examples;

import io.jshmem.launch.TorchrunJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenSHMEM 1.6 re-initialization, the {@code reinit} example: three rounds of init, communication and
 * finalize in the same processes. Under torchrun variables (three real JVMs; PE 0 hosts a new bootstrap
 * root per init on the same port) with one PE late to every later init: PE 0 (the others retry a closed
 * port until it hosts again) or PE 1 (the others wait for it in the new generation). Through
 * bin/shmemrun (one root serves every init) on one host; on two test hosts it is MultiHostExamplesIT's.
 */
class ReinitIT
{
    private static final int N = 3;
    private static final int ROUNDS = 3;

    @ParameterizedTest(name = "torchrun, PE {0} late to each init")
    @ValueSource(ints = {0, 1})
    void threeRoundsUnderTorchrunVariables(final int late) throws Exception
    {
        final String runId = "reinit-it-" + ProcessHandle.current().pid() + "-" + late;
        final long start = System.nanoTime();
        try (TorchrunJob job = new TorchrunJob(N, Reinit.class, Map.of("TORCHELASTIC_RUN_ID", runId),
            Integer.toString(ROUNDS), Integer.toString(late)))
        {
            assertTrue(job.awaitAll(60, TimeUnit.SECONDS), () -> "a PE still runs 60 s after start:\n" + job.all());
            System.out.printf("ReinitIT: %d rounds of %d PEs, PE %d late by 1 s to each later init: %.1f s%n", ROUNDS, N, late,
                (System.nanoTime() - start) / 1e9);
            for (int rank = 0; rank < N; rank++)
            {
                assertEquals(0, job.exitValue(rank), "PE " + rank + " failed:\n" + job.all());
                assertRounds(job.output(rank), rank, N, job.all());
            }
        }
        try (Stream<Path> files = Files.list(Path.of("/dev/shm")))
        {
            assertEquals(List.of(), files.filter(p -> p.getFileName().toString().contains(runId)).toList(), "heap files left behind");
        }
    }

    @Test
    void threeRoundsThroughShmemrun() throws Exception
    {
        final Process p = new ProcessBuilder(io.jshmem.launch.TestHosts.ROOT.resolve("bin/shmemrun").toString(), "-np", "4",
            "--tag-output", "-J", "-XX:+UseSerialGC", "-J", "-XX:TieredStopAtLevel=1", "reinit", Integer.toString(ROUNDS), "3")
            .redirectErrorStream(true).start();
        p.getOutputStream().close();
        final String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        for (int rank = 0; rank < 4; rank++)
        {
            assertRounds(out, rank, 4, out);
        }
    }

    /** Every round's line of PE {@code rank} of {@code n}: the left neighbour's value of that round. */
    static void assertRounds(final String out, final int rank, final int n, final String all)
    {
        for (int round = 1; round <= ROUNDS; round++)
        {
            final String want = "pe " + rank + "/" + n + " round " + round + " ok: ";
            final long left = round * 1000L + Math.floorMod(rank - 1, n);
            assertTrue(out.lines().anyMatch(l -> l.contains(want) && l.contains("got " + left + " from the left")),
                "PE " + rank + " round " + round + ":\n" + all);
        }
    }
}
