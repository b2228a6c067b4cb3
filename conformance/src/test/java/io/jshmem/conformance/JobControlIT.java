package io.jshmem.conformance;

import io.jshmem.conformance.jobs.BarrierLoop;
import io.jshmem.conformance.jobs.GlobalExitInBarrier;
import io.jshmem.conformance.jobs.HaltInBarrierLoop;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole-job behaviour through shmemrun: oversubscription (8 PEs on 2 cores) in a barrier-heavy loop,
 * global exit while PEs are blocked, a PE dying mid-job, and a bad SHMEM_SYMMETRIC_SIZE.
 */
class JobControlIT
{
    @Test
    void eightPesPassTwoThousandBarriers()
    {
        final Launch.Result r = Launch.run(8, 90, List.of(), BarrierLoop.class.getName(), "2000");
        assertEquals(0, r.status(), r::report);
        for (int pe = 0; pe < 8; pe++)
        {
            final String pass = "PASS [pe " + pe + "/8] BarrierLoop: 2000 iterations";
            assertTrue(r.out().contains(pass), () -> "no '" + pass + "'" + r.report());
        }
        r.out().lines().filter(l -> l.contains("BarrierLoop:")).limit(1).forEach(System.out::println);
        assertTrue(r.elapsedMs() < 60_000, () -> "8 PEs x 2000 barriers took " + r.elapsedMs() + " ms (limit 60 s)" + r.report());
    }

    @Test
    void globalExitEndsPesBlockedInBarrier()
    {
        final Launch.Result r = Launch.run(4, 60, List.of(), GlobalExitInBarrier.class.getName());
        assertEquals(5, r.status(), () -> "globalExit(5) while 3 PEs block in barrierAll" + r.report());
        assertTrue(r.all().contains("calls globalExit(5)"), r::report);
        assertTrue(!r.all().contains("FAIL"), r::report);
        assertTrue(r.elapsedMs() < 30_000, () -> "took " + r.elapsedMs() + " ms" + r.report());
    }

    @Test
    void peThatHaltsMakesTheOthersFailFast()
    {
        final Launch.Result r = Launch.run(4, 60, List.of(), HaltInBarrierLoop.class.getName());
        assertNotEquals(0, r.status(), r::report);
        assertNotEquals(124, r.status(), () -> "the job only ended at --timeout" + r.report());
        assertTrue(r.all().contains("halts at iteration 200"), r::report);
        assertTrue(r.all().contains("caught JobFailedException"),
            () -> "no surviving PE reported a JobFailedException" + r.report());
        assertTrue(!r.all().contains("FAIL"), r::report);
        assertTrue(r.elapsedMs() < 15_000, () -> "the job took " + r.elapsedMs() + " ms to end after a PE died (limit 15 s)" + r.report());
    }

    @Test
    void bogusSymmetricSizeFailsInitNamingTheVariable()
    {
        final Launch.Result r = Launch.run(2, 60, List.of("-x", "SHMEM_SYMMETRIC_SIZE=bogus"), "io.jshmem.conformance.SetupQuery");
        assertNotEquals(0, r.status(), r::report);
        assertNotEquals(124, r.status(), () -> "init hung instead of failing" + r.report());
        assertTrue(r.all().contains("SHMEM_SYMMETRIC_SIZE"), () -> "no message names SHMEM_SYMMETRIC_SIZE" + r.report());
        assertTrue(r.all().contains("bogus"), () -> "no message quotes the bad value" + r.report());
    }
}
