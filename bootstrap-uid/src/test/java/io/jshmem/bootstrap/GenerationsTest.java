package io.jshmem.bootstrap;

import io.jshmem.ShmemInitException;
import io.jshmem.ShmemTimeoutException;
import io.jshmem.config.ShmemConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Init after the last finalize (OpenSHMEM 1.6): the root serves one generation of the job at a time,
 * tells early PEs of the next one to retry, starts the next one only after every PE left the current one
 * by farewell, and never lets a stale, skipping or forged arrival harm the generation that runs. PEs are
 * threads over real loopback sockets.
 */
class GenerationsTest
{
    @AfterEach
    void noThreadsLeft() throws InterruptedException
    {
        for (int i = 0; i < 100 && !TestJob.bootstrapThreads().isEmpty(); i++)
        {
            Thread.sleep(20);
        }
        assertEquals(List.of(), TestJob.bootstrapThreads());
    }

    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final BootstrapSettings settings = BootstrapSettings.defaults().withTimeoutNs(15_000_000_000L)
        .withPeerTimeoutNs(2_000_000_000L).withExitOnFailure(false).withLog(log::add).withExitAction(s -> { });

    private static UidBootstrap join(final TestJob job, final int rank, final int generation)
    {
        return UidBootstrap.connect(job.root.uniqueId(), rank, job.size, job.settings.withGeneration(generation));
    }

    @Test
    void theJobFormsAgainOnlyAfterEveryPeOfTheLastGenerationLeft() throws Exception
    {
        try (TestJob job = new TestJob(3))
        {
            final List<UidBootstrap> first = job.form();
            first.get(0).store().set("left-over", new byte[] {1});
            job.each(first, b ->
            {
                b.barrier();
                return null;
            });
            final String jobId = first.get(0).jobId();
            first.get(0).close();
            first.get(1).close();
            // PE 2 has not finalized: an early PE of init 2 is told to retry, nothing changes
            assertTrue(AdmissionTest.rawHello(job.root, Wire.PROTOCOL_VERSION, 0, 3, 2)
                .startsWith("RETRY the job's init 1 has not ended: PEs [2] have not finalized"), log::toString);
            final Future<UidBootstrap> early0 = job.submit(() -> join(job, 0, 2));
            final Future<UidBootstrap> early1 = job.submit(() -> join(job, 1, 2));
            Thread.sleep(300);
            assertFalse(early0.isDone() || early1.isDone(), "init 2 formed while PE 2 was still in init 1");
            assertEquals(1, job.root.generation());
            first.get(2).close();
            final Future<UidBootstrap> late2 = job.submit(() -> join(job, 2, 2));
            final List<UidBootstrap> second = List.of(TestJob.get(early0), TestJob.get(early1), TestJob.get(late2));
            job.pes.addAll(second);
            assertEquals(2, job.root.generation());
            final List<byte[][]> gathered = job.each(second, b -> b.allgather(new byte[] {(byte)(10 + b.rank())}));
            for (final byte[][] all : gathered)
            {
                assertArrayEquals(new byte[] {10}, all[0]);
                assertArrayEquals(new byte[] {12}, all[2]);
            }
            for (final UidBootstrap b : second)
            {
                assertEquals(jobId + ".g2", b.jobId(), "a generation's names (heap files) must not be another's");
                assertNull(b.failure());
            }
            assertNull(second.get(1).store().tryGet("left-over"), "the store of init 1 leaked into init 2");
            job.each(second, b ->
            {
                b.close();
                return null;
            });
            assertTrue(job.root.awaitDone(5_000_000_000L));
        }
    }

    @Test
    void staleSkippingAndEarlyArrivalsNeverHarmTheRunningGeneration() throws Exception
    {
        try (TestJob job = new TestJob(2))
        {
            // before init 1 formed, a forged init-2 arrival does not advance the root
            assertEquals("RETRY the job's init 1 has not formed yet",
                AdmissionTest.rawHello(job.root, Wire.PROTOCOL_VERSION, 0, 2, 2));
            final List<UidBootstrap> first = job.form();
            job.each(first, b ->
            {
                b.close();
                return null;
            });
            final List<Future<UidBootstrap>> fs = List.of(job.submit(() -> join(job, 0, 2)), job.submit(() -> join(job, 1, 2)));
            final List<UidBootstrap> second = List.of(TestJob.get(fs.get(0)), TestJob.get(fs.get(1)));
            job.pes.addAll(second);
            assertEquals("REJECT PE 1 is at init 1 of its process, but the job is at init 2: its PEs finalized and initialized again without this PE",
                AdmissionTest.rawHello(job.root, Wire.PROTOCOL_VERSION, 1, 2, 1));
            assertEquals("REJECT PE 0 is at init 4 of its process, but the job is at init 2: a PE cannot skip an init of the others",
                AdmissionTest.rawHello(job.root, Wire.PROTOCOL_VERSION, 0, 2, 4));
            assertTrue(AdmissionTest.rawHello(job.root, Wire.PROTOCOL_VERSION, 0, 2, 3).startsWith("RETRY the job's init 2 has not ended"));
            assertTrue(AdmissionTest.rawHello(job.root, Wire.PROTOCOL_VERSION, 0, 2, 2).startsWith("REJECT PE 0 (size 2) arrived after the job formed"));
            job.each(second, b ->
            {
                b.barrier();
                assertNull(b.failure(), () -> "the job was harmed: " + b.failure());
                return null;
            });
        }
    }

    @Test
    void aJobThatLostAPeDoesNotStartAgain() throws Exception
    {
        try (TestJob job = new TestJob(2))
        {
            final List<UidBootstrap> first = job.form();
            first.get(1).crashForTesting();
            for (int i = 0; i < 100 && first.get(0).failure() == null; i++)
            {
                Thread.sleep(20);
            }
            first.get(0).close();
            final ShmemInitException ex = assertThrows(ShmemInitException.class, () -> join(job, 0, 2));
            assertTrue(ex.getMessage().contains("init 1 of the job failed (PEs [") && ex.getMessage().contains("1] were lost): a failed job "
                + "does not start again"), ex.getMessage());
        }
    }

    @Test
    void anEarlyPeGivesUpAtItsDeadlineNamingWhoHasNotFinalized() throws Exception
    {
        try (TestJob job = new TestJob(2))
        {
            final List<UidBootstrap> first = job.form();
            first.get(0).close();
            final long t0 = System.nanoTime();
            final ShmemTimeoutException ex = assertThrows(ShmemTimeoutException.class,
                () -> UidBootstrap.connect(job.root.uniqueId(), 0, 2, job.settings.withGeneration(2).withTimeoutNs(1_500_000_000L)));
            final long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= 1_000 && ms < 6_000, ms + " ms");
            assertTrue(ex.getMessage().startsWith("[pe 0/2] bootstrap: the job did not form within 1500 ms (SHMEM_BOOTSTRAP_TIMEOUT): this PE is "
                + "at init 2 of its process, and the root at "), ex.getMessage());
            assertTrue(ex.getMessage().endsWith("still says: the job's init 1 has not ended: PEs [1] have not finalized yet"), ex.getMessage());
            assertNull(first.get(1).failure(), "the running PE was harmed");
        }
    }

    /**
     * A root lost while admitted PEs of a later init wait for the others (its PE killed, as torchrun's agent stops
     * the root's PE when a PE of its node died before reaching the root) fails them at once: it is not the root of
     * the previous init going away, which they would retry until SHMEM_BOOTSTRAP_TIMEOUT (15 s here).
     */
    @Test
    void aRootLostWhileALaterInitFormsFailsItsAdmittedPesAtOnce() throws Exception
    {
        try (TestJob job = new TestJob(3))
        {
            final List<UidBootstrap> first = job.form();
            for (final UidBootstrap b : first)
            {
                b.close();
            }
            final Future<UidBootstrap> pe0 = job.submit(() -> join(job, 0, 2));
            final Future<UidBootstrap> pe1 = job.submit(() -> join(job, 1, 2));
            for (int i = 0; i < 250 && (job.root.generation() != 2 || job.root.joinedForTesting() != 2); i++)
            {
                Thread.sleep(20);
            }
            assertEquals(2, job.root.generation());
            assertEquals(2, job.root.joinedForTesting(), "PEs 0 and 1 admitted to init 2");
            Thread.sleep(100); // their heartbeat of admission read
            final long t0 = System.nanoTime();
            job.root.close();
            for (final Future<UidBootstrap> f : List.of(pe0, pe1))
            {
                final java.util.concurrent.ExecutionException ex = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> f.get(10, java.util.concurrent.TimeUnit.SECONDS));
                assertTrue(ex.getCause().getMessage().contains("was lost"), ex.getCause().toString());
            }
            final long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 3_000, "the admitted PEs failed " + ms + " ms after the root went");
        }
    }

    /**
     * Each PE inits, exchanges, finalizes three times: under torchrun variables (PE 0 hosts a root per
     * generation, on the same port) and under shmemrun's (one root for the job's life).
     */
    @Test
    void threeGenerationsUnderTorchrunAndUnderALauncherRoot() throws Exception
    {
        final int port = TestJob.freePort();
        final List<Map<String, String>> torchrun = new ArrayList<>();
        for (int r = 0; r < 3; r++)
        {
            torchrun.add(Map.of("RANK", "" + r, "WORLD_SIZE", "3", "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", "" + port,
                "TORCHELASTIC_RUN_ID", "run42", "SHMEM_BOOTSTRAP_SECRET", "s3cret"));
        }
        assertEquals(List.of("run42 run42.g2 run42.g3", "run42 run42.g2 run42.g3", "run42 run42.g2 run42.g3"), generations(torchrun, 3));

        try (BootstrapRoot root = BootstrapRoot.start(settings.withIfname("lo").withJobId("j1"), 2))
        {
            final List<Map<String, String>> envs = TestJob.shmemrunEnvs(root, 2, "j1");
            assertEquals(List.of("j1 j1.g2 j1.g3", "j1 j1.g2 j1.g3"), generations(envs, 3));
            assertEquals(3, root.generation());
            assertTrue(root.awaitDone(2_000_000_000L));
        }
        assertEquals(List.of(), log.stream().filter(l -> !l.contains("SHMEM_BOOTSTRAP_SECRET")).toList());
    }

    /** Runs {@code n} generations on every PE (a thread each); returns each PE's job ids, space-separated. */
    private List<String> generations(final List<Map<String, String>> envs, final int n)
    {
        return TestJob.runEach(envs, env ->
        {
            final List<String> ids = new ArrayList<>();
            for (int g = 1; g <= n; g++)
            {
                try (Bootstrap b = Bootstraps.fromConfig(ShmemConfig.of(env, null, null), settings.withGeneration(g)))
                {
                    final byte[][] all = b.allgather(("g" + g + "pe" + b.rank()).getBytes(StandardCharsets.UTF_8));
                    for (int pe = 0; pe < all.length; pe++)
                    {
                        assertEquals("g" + g + "pe" + pe, new String(all[pe], StandardCharsets.UTF_8));
                    }
                    b.barrier();
                    ids.add(b.jobId());
                }
            }
            return String.join(" ", ids);
        });
    }
}
