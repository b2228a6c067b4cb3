package io.jshmem.runtime;

import io.jshmem.launch.TorchrunJob;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 10: an exception on one PE inside {@code try (Shmem shmem = Shmem.init())} (the README's pattern)
 * ends the job in seconds, not after the 120 s bootstrap timeout, with the failing PE and its exception
 * named, and no PE passes the barrier that the failing PE never entered. Three real JVMs, launched
 * torchrun-style; the bootstrap timeout is left at its 120 s default.
 */
class FailFastFinalizeIT
{
    private static final int N = 3;

    @ParameterizedTest
    @ValueSource(ints = {1, 0})
    void anExceptionInTryWithResourcesEndsTheJobInSeconds(final int failing) throws Exception
    {
        final long start = System.nanoTime();
        try (TorchrunJob job = new TorchrunJob(N, FailingPeProbe.class, Map.of(), Integer.toString(failing)))
        {
            assertTrue(job.awaitAll(30, TimeUnit.SECONDS), () -> "a PE still runs 30 s after start (the job hangs):\n" + job.all());
            final double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("FailFastFinalizeIT: failing pe %d, whole job ended after %.1f s%n", failing, seconds);
            final String all = job.all();
            System.out.println(all);
            for (int rank = 0; rank < N; rank++)
            {
                final String out = job.output(rank);
                assertNotEquals(0, job.exitValue(rank), "PE " + rank + " exit status 0:\n" + all);
                assertFalse(out.contains("PASSED-BARRIER"), "PE " + rank + " passed a barrier PE " + failing + " never entered:\n" + all);
            }
            final String failed = job.output(failing);
            assertTrue(failed.contains("IllegalStateException: pe " + failing + " failed on purpose"), "names its exception:\n" + all);
            assertTrue(failed.contains("[pe " + failing + "/" + N + "] left the job by an exception"), "says it leaves:\n" + all);
            for (int rank = 0; rank < N; rank++)
            {
                final String out = job.output(rank);
                if (rank != failing)
                {
                    assertTrue(out.contains("JobFailedException"), "PE " + rank + " fails with JobFailedException:\n" + all);
                    if (failing != 0)
                    {
                        // PE 0 hosts the bootstrap root here; its loss is reported as the root's
                        assertTrue(out.contains("PE " + failing), "PE " + rank + " names PE " + failing + ":\n" + all);
                    }
                }
            }
        }
    }
}
