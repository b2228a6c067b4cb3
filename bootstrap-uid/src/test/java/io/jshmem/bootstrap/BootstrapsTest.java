package io.jshmem.bootstrap;

import io.jshmem.config.ShmemConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The factory end to end: each launcher's variables as maps, PEs as threads. */
class BootstrapsTest
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

    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final BootstrapSettings settings = BootstrapSettings.defaults().withTimeoutNs(10_000_000_000L)
        .withPeerTimeoutNs(2_000_000_000L).withExitOnFailure(false).withLog(log::add).withExitAction(s -> { });

    private List<String> runJob(final List<Map<String, String>> envs)
    {
        return TestJob.runEach(envs, env ->
        {
            try (Bootstrap b = Bootstraps.fromConfig(ShmemConfig.of(env, null, null), settings))
            {
                final byte[][] all = b.allgather(new byte[] {(byte)b.rank()});
                b.barrier();
                return b.launcher() + " " + b.rank() + "/" + b.size() + " gathered " + all.length + " job " + b.jobId();
            }
        });
    }

    @Test
    void torchrunRankZeroHostsTheRoot() throws Exception
    {
        final int port = TestJob.freePort();
        final List<Map<String, String>> envs = new ArrayList<>();
        for (int r = 0; r < 3; r++)
        {
            envs.add(Map.of("RANK", "" + r, "WORLD_SIZE", "3", "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", "" + port,
                "TORCHELASTIC_RUN_ID", "run42"));
        }
        final List<String> out = runJob(envs);
        for (int r = 0; r < 3; r++)
        {
            assertEquals("torchrun " + r + "/3 gathered 3 job run42", out.get(r));
        }
        assertEquals(1, log.stream().filter(l -> l.contains("only as secret as that id")).count(), log.toString());
        assertTrue(log.stream().allMatch(l -> l.startsWith("[pe 0/3] bootstrap: no SHMEM_BOOTSTRAP_SECRET")), log.toString());
        assertEquals(List.of(), TestJob.bootstrapThreads());
    }

    @Test
    void slurmWithSessionIdAndSecret() throws Exception
    {
        final int port = TestJob.freePort();
        final List<Map<String, String>> envs = new ArrayList<>();
        for (int r = 0; r < 2; r++)
        {
            envs.add(Map.of("SLURM_PROCID", "" + r, "SLURM_NTASKS", "2", "SLURM_JOB_ID", "77",
                "SHMEM_BOOTSTRAP_UID_SESSION_ID", "127.0.0.1:" + port, "SHMEM_BOOTSTRAP_SECRET", "s3cret"));
        }
        assertEquals(List.of("slurm 0/2 gathered 2 job 77", "slurm 1/2 gathered 2 job 77"), runJob(envs));
        assertEquals(List.of(), log);
    }

    @Test
    void uidTextInTheEnvironment() throws Exception
    {
        try (BootstrapRoot root = BootstrapRoot.start(settings.withIfname("lo").withJobId("j1"), 2))
        {
            final List<Map<String, String>> envs = TestJob.shmemrunEnvs(root, 2, "j1");
            assertEquals(List.of("shmemrun 0/2 gathered 2 job j1", "shmemrun 1/2 gathered 2 job j1"), runJob(envs));
            assertTrue(root.awaitDone(2_000_000_000L));
        }
    }

    @Test
    void noLauncherIsASingleton()
    {
        try (Bootstrap b = Bootstraps.fromConfig(ShmemConfig.of(Map.of(), null, null), settings))
        {
            assertInstanceOf(SingletonBootstrap.class, b);
            assertEquals("singleton", b.launcher());
            assertEquals(0, b.rank());
            assertEquals(1, b.size());
            assertEquals(1, b.nodeSize());
            b.barrier();
        }
    }
}
