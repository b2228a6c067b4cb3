package io.jshmem.bootstrap;

import io.jshmem.JobFailedException;
import io.jshmem.ShmemTimeoutException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class FailureTest
{
    @org.junit.jupiter.api.AfterEach
    void noThreadsLeft() throws InterruptedException
    {
        for (int i = 0; i < 100 && !TestJob.bootstrapThreads().isEmpty(); i++)
        {
            Thread.sleep(20);
        }
        assertEquals(List.of(), TestJob.bootstrapThreads());
    }

    @Test
    void formationTimeoutNamesTheMissingRanks()
    {
        try (TestJob job = new TestJob(4, 1_500_000_000L, 10_000_000_000L)) // peers stay "alive" past the formation deadline even on a loaded machine
        {
            final List<Future<Object>> fs = new ArrayList<>();
            for (int r = 0; r < 3; r++)
            {
                final int rank = r;
                fs.add(job.submit(() -> UidBootstrap.connect(job.root.uniqueId(), rank, 4, job.settings)));
            }
            for (final Future<Object> f : fs)
            {
                final ShmemTimeoutException ex = assertThrows(ShmemTimeoutException.class, () -> TestJob.get(f));
                assertArrayEquals(new int[] {3}, ex.missingPes());
                assertTrue(ex.getMessage().contains("ranks [3] never connected"), ex.getMessage());
            }
        }
    }

    @Test
    void aPeGivingUpFirstStillNamesTheMissingRanks()
    {
        // rank 1 reaches its formation deadline long before rank 0: rank 0 must learn who never connected,
        // not only that rank 1 left
        try (TestJob job = new TestJob(3, 20_000_000_000L, 20_000_000_000L))
        {
            final long t0 = System.nanoTime();
            final Future<Object> patient = job.submit(() -> UidBootstrap.connect(job.root.uniqueId(), 0, 3, job.settings));
            final Future<Object> hasty = job.submit(() -> UidBootstrap.connect(job.root.uniqueId(), 1, 3,
                job.settings.withTimeoutNs(1_000_000_000L)));
            final ShmemTimeoutException first = assertThrows(ShmemTimeoutException.class, () -> TestJob.get(hasty));
            assertArrayEquals(new int[] {2}, first.missingPes());
            final ShmemTimeoutException second = assertThrows(ShmemTimeoutException.class, () -> TestJob.get(patient));
            assertArrayEquals(new int[] {2}, second.missingPes());
            assertTrue(second.getMessage().contains("ranks [2] never connected") && second.getMessage().contains("gave up first"),
                second.getMessage());
            final long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 10_000, "rank 0 waited " + ms + " ms, not for rank 1's departure");
        }
    }

    private static void assertOthersLearn(final TestJob job, final List<UidBootstrap> pes, final int lost, final String why)
    {
        final List<JobFailedException> heard = new CopyOnWriteArrayList<>();
        final List<Future<JobFailedException>> fs = new ArrayList<>();
        final long t0 = System.nanoTime();
        for (final UidBootstrap b : pes)
        {
            if (b.rank() == lost)
            {
                continue;
            }
            b.onFailure(heard::add);
            fs.add(job.submit(() ->
            {
                try
                {
                    while (true)
                    {
                        b.barrier(); // the lost PE never arrives
                    }
                }
                catch (final JobFailedException ex)
                {
                    return ex;
                }
            }));
        }
        for (final Future<JobFailedException> f : fs)
        {
            final JobFailedException ex = TestJob.get(f);
            assertEquals(lost, ex.lostPe(), ex.getMessage());
            assertTrue(ex.getMessage().contains("PE " + lost + " was lost (" + why), ex.getMessage());
            assertTrue(ex.getMessage().startsWith("[pe "), ex.getMessage());
        }
        final double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds < 5, "detected in " + seconds + " s");
        for (int i = 0; i < 100 && heard.size() < pes.size() - 1; i++)
        {
            sleep(10); // listeners run on the thread that saw the failure, maybe after the waiters woke
        }
        sleep(100);
        assertEquals(pes.size() - 1, heard.size(), "each listener once: " + heard);
        for (final UidBootstrap b : pes)
        {
            if (b.rank() != lost)
            {
                assertNotNull(b.failure());
                assertThrows(JobFailedException.class, () -> b.allgather(new byte[0]), "later calls fail too");
            }
        }
    }

    @Test
    void aCrashedPeIsReportedToEveryoneQuickly()
    {
        try (TestJob job = new TestJob(4))
        {
            final List<UidBootstrap> pes = job.form();
            pes.get(3).crashForTesting();
            assertOthersLearn(job, pes, 3, "control channel closed");
            assertTrue(job.log.stream().anyMatch(l -> l.equals("bootstrap: root: PE 3 was lost (control channel closed); telling 3 other PEs")),
                String.join("\n", job.log));
        }
    }

    @Test
    void aHungPeIsReportedAfterThePeerTimeout()
    {
        try (TestJob job = new TestJob(3, 10_000_000_000L, 1_000_000_000L))
        {
            final List<UidBootstrap> pes = job.form();
            pes.get(2).pauseHeartbeatsForTesting();
            assertOthersLearn(job, pes, 2, "no heartbeat for");
        }
    }

    @Test
    void collectiveTimeoutNamesTheRankThatNeverArrived()
    {
        try (TestJob job = new TestJob(2, 700_000_000L, 2_000_000_000L))
        {
            final List<UidBootstrap> pes = job.form();
            final ShmemTimeoutException ex = assertThrows(ShmemTimeoutException.class, () -> pes.get(0).barrier());
            assertArrayEquals(new int[] {1}, ex.missingPes());
            assertTrue(ex.getMessage().contains("barrier timed out") && ex.getMessage().contains("PE 1"), ex.getMessage());
        }
    }

    @Test
    void globalExitEndsEveryPeEvenInABarrier()
    {
        try (TestJob job = new TestJob(3))
        {
            final List<UidBootstrap> pes = job.form();
            final List<Future<String>> blocked = new ArrayList<>();
            for (int r = 0; r < 2; r++)
            {
                final UidBootstrap b = pes.get(r);
                blocked.add(job.submit(() ->
                {
                    try
                    {
                        b.barrier();
                        return "returned";
                    }
                    catch (final JobFailedException ex)
                    {
                        return ex.getMessage();
                    }
                }));
            }
            final JobFailedException self = assertThrows(JobFailedException.class, () -> pes.get(2).globalExit(7));
            assertTrue(self.getMessage().contains("this PE called global exit(7)"), self.getMessage());
            for (final Future<String> f : blocked)
            {
                final String msg = TestJob.get(f);
                assertTrue(msg.contains("PE 2 called global exit(7)"), msg);
            }
            for (int i = 0; i < 100 && job.exits.size() < 3; i++)
            {
                sleep(20);
            }
            assertEquals(List.of(7, 7, 7), job.exits);
            assertEquals(7, job.root.exitStatus());
        }
    }

    @Test
    void aLostRootFailsEveryPe()
    {
        try (TestJob job = new TestJob(2))
        {
            final List<UidBootstrap> pes = job.form();
            job.root.close();
            for (final UidBootstrap b : pes)
            {
                final JobFailedException ex = assertThrows(JobFailedException.class, () ->
                {
                    while (true)
                    {
                        b.barrier();
                        sleep(10);
                    }
                });
                assertTrue(ex.getMessage().contains("bootstrap root") && ex.getMessage().contains("was lost"), ex.getMessage());
            }
        }
    }

    @Test
    void failurePolicyEndsAPeThatDoesNotClose()
    {
        final List<Integer> exits = new CopyOnWriteArrayList<>();
        try (TestJob job = new TestJob(2))
        {
            final BootstrapSettings policy = job.settings.withExitOnFailure(true).withFailureExitGraceNs(300_000_000L)
                .withExitAction(exits::add);
            final List<Future<UidBootstrap>> fs = new ArrayList<>();
            for (int r = 0; r < 2; r++)
            {
                final int rank = r;
                fs.add(job.submit(() -> UidBootstrap.connect(job.root.uniqueId(), rank, 2, policy)));
            }
            final UidBootstrap b0 = TestJob.get(fs.get(0));
            final UidBootstrap b1 = TestJob.get(fs.get(1));
            job.pes.add(b0);
            b1.crashForTesting();
            for (int i = 0; i < 200 && exits.isEmpty(); i++)
            {
                sleep(20);
            }
            assertEquals(List.of(1), exits);
            assertNotNull(b0.failure());
        }
    }

    @Test
    void singletonGlobalExitUsesTheExitAction()
    {
        final List<Integer> exits = new ArrayList<>();
        final List<String> hooks = new ArrayList<>();
        final SingletonBootstrap b = new SingletonBootstrap(BootstrapSettings.defaults().withExitAction(exits::add));
        b.onExit(() -> hooks.add("cleanup"));
        assertEquals(0, b.rank());
        assertEquals(1, b.nodeSize());
        try
        {
            b.globalExit(5);
            fail("globalExit returned");
        }
        catch (final JobFailedException expected)
        {
            assertEquals(List.of(5), exits);
            assertEquals(List.of("cleanup"), hooks);
        }
        b.close();
    }

    private static void sleep(final long ms)
    {
        try
        {
            Thread.sleep(ms);
        }
        catch (final InterruptedException ex)
        {
            throw new RuntimeException(ex);
        }
    }
}
