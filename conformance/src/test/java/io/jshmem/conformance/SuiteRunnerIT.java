package io.jshmem.conformance;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runner cannot pass vacuously: a failed check, a leaked allocation and an exception each give a
 * FAIL verdict (or no verdict) and a failing job, within the deadline, and the programs after a throw
 * get no verdict. Fixtures in {@code io.jshmem.conformance.jobs} (test classes: {@code SuiteIT} does
 * not discover them).
 */
class SuiteRunnerIT
{
    private static final String JOBS = "io.jshmem.conformance.jobs.";

    @Test
    void failedCheckAndLeakAreFailVerdicts()
    {
        final Launch.Result r = Launch.run(3, 60, List.of(), Suite.class.getName(), JOBS + "FailingProgram", JOBS + "LeakingProgram",
            "io.jshmem.conformance.sos.Hello");
        assertEquals(Spmd.FAIL, r.status(), r::report);
        assertTrue(r.out().contains("VERDICT FAIL [pe 1/3] FailingProgram"), r::report);
        assertTrue(r.out().contains("VERDICT PASS [pe 0/3] FailingProgram"), r::report);
        for (int pe = 0; pe < 3; pe++)
        {
            assertTrue(r.out().contains("VERDICT FAIL [pe " + pe + "/3] LeakingProgram"), r::report);
            assertTrue(r.out().contains("VERDICT PASS [pe " + pe + "/3] Hello"), r::report);
        }
    }

    @Test
    void exceptionEndsTheJobAndLaterProgramsGetNoVerdict()
    {
        final Launch.Result r = Launch.run(3, 60, List.of(), Suite.class.getName(), JOBS + "ThrowingProgram",
            "io.jshmem.conformance.sos.Hello");
        assertEquals(Spmd.FAIL, r.status(), r::report);
        assertTrue(r.out().contains("VERDICT FAIL [pe 0/3] ThrowingProgram"), r::report);
        assertTrue(!r.out().contains("VERDICT PASS [pe 0/3] Hello"), r::report);
        assertTrue(r.elapsedMs() < 50_000, () -> "the job was not ended promptly" + r.report());
    }
}
