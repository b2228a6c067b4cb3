package io.jshmem.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.launch.TorchrunJob;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * A process whose PE finalized normally after its job failed, then initialized again, used to wait in the new init
 * until SHMEM_BOOTSTRAP_TIMEOUT (120 s): PE 0 hosts a new root for each init, and that root knew nothing of the
 * failure (seen under torchrun in LaunchersIT's kill case). The second init is now refused at once, naming the
 * failure. Three real JVMs, launched torchrun-style, the bootstrap timeout at its default.
 */
class ReinitAfterFailureIT
{
    private static final int N = 3;

    @Test
    void anInitAfterTheJobFailedIsRefusedAtOnce() throws Exception
    {
        try (TorchrunJob job = new TorchrunJob(N, ReinitAfterFailureProbe.class, Map.of()))
        {
            assertTrue(job.awaitAll(30, TimeUnit.SECONDS), () -> "a PE still runs 30 s after start (the job hangs):\n" + job.all());
            final String all = job.all();
            assertEquals(3, job.exitValue(2), "PE 2 halted:\n" + all);
            for (int rank = 0; rank < 2; rank++)
            {
                final String out = job.output(rank);
                assertNotEquals(0, job.exitValue(rank), "PE " + rank + " exit status 0:\n" + all);
                assertFalse(out.contains("PASSED-BARRIER") || out.contains("SECOND-INIT"), "PE " + rank + " went on:\n" + all);
                assertTrue(out.contains("FIRST-INIT-FAILED"), "PE " + rank + " saw the job fail:\n" + all);
                assertTrue(out.contains("init 2 of this process refused") && out.contains("a failed job does not start again"),
                    "PE " + rank + " names why its second init is refused:\n" + all);
            }
        }
    }
}
