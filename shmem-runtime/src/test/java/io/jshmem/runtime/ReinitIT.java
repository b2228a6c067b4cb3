package io.jshmem.runtime;

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
 * OpenSHMEM 1.6 re-initialization under torchrun variables: three real JVMs init, communicate and
 * finalize three times; PE 0 hosts a new bootstrap root per init on the same port. One PE comes late
 * to every later init: PE 0 (the others retry a closed port until it hosts again) or PE 1 (the others
 * wait for it in the new generation). shmemrun's path (one root for every init) is ConformanceIT's
 * SetupQuery.
 */
class ReinitIT
{
    private static final int N = 3;
    private static final int INITS = 3;

    @ParameterizedTest(name = "PE {0} late to each init")
    @ValueSource(ints = {0, 1})
    void threeInitsOfTheSameJob(final int slow) throws Exception
    {
        final String runId = "reinit-it-" + ProcessHandle.current().pid() + "-" + slow;
        final long start = System.nanoTime();
        try (TorchrunJob job = new TorchrunJob(N, ReinitProbe.class, Map.of("TORCHELASTIC_RUN_ID", runId),
            Integer.toString(INITS), Integer.toString(slow)))
        {
            assertTrue(job.awaitAll(60, TimeUnit.SECONDS), () -> "a PE still runs 60 s after start:\n" + job.all());
            System.out.printf("ReinitIT: %d inits of %d PEs, PE %d late by 1.5 s to each later init: %.1f s%n", INITS, N, slow,
                (System.nanoTime() - start) / 1e9);
            for (int rank = 0; rank < N; rank++)
            {
                assertEquals(0, job.exitValue(rank), "PE " + rank + " failed:\n" + job.all());
                for (int init = 1; init <= INITS; init++)
                {
                    assertTrue(job.output(rank).contains("PE " + rank + " init " + init + " ok"), "PE " + rank + " init " + init + ":\n" + job.all());
                }
            }
        }
        try (Stream<Path> files = Files.list(Path.of("/dev/shm")))
        {
            final List<Path> left = files.filter(p -> p.getFileName().toString().contains(runId)).toList();
            assertEquals(List.of(), left, "heap files left behind");
        }
    }
}
