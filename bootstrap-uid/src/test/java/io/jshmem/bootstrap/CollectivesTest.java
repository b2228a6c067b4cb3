package io.jshmem.bootstrap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CollectivesTest
{
    @AfterEach
    void noThreadsLeft() throws InterruptedException
    {
        for (int i = 0; i < 50 && !TestJob.bootstrapThreads().isEmpty(); i++)
        {
            Thread.sleep(20);
        }
        assertEquals(List.of(), TestJob.bootstrapThreads());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void formsAndRunsEveryCollective(final int n)
    {
        try (TestJob job = new TestJob(n))
        {
            final List<UidBootstrap> pes = job.form();
            for (int r = 0; r < n; r++)
            {
                final UidBootstrap b = pes.get(r);
                assertEquals(r, b.rank());
                assertEquals(n, b.size());
                assertEquals(r, b.nodeRank());
                assertEquals(n, b.nodeSize());
                assertEquals(job.root.jobId(), b.jobId());
                assertEquals(n, b.hostOfRank().length);
            }
            final List<String> results = job.each(pes, b ->
            {
                for (int iter = 0; iter < 5; iter++)
                {
                    // allgather with varied lengths (including empty)
                    final byte[] mine = new byte[(b.rank() * 7 + iter) % 11];
                    java.util.Arrays.fill(mine, (byte)(b.rank() + iter));
                    final byte[][] all = b.allgather(mine);
                    for (int j = 0; j < n; j++)
                    {
                        final byte[] want = new byte[(j * 7 + iter) % 11];
                        java.util.Arrays.fill(want, (byte)(j + iter));
                        assertArrayEquals(want, all[j], "allgather from " + j + " at PE " + b.rank());
                    }
                    // alltoall
                    final byte[][] to = new byte[n][];
                    for (int j = 0; j < n; j++)
                    {
                        to[j] = (b.rank() + "->" + j + "#" + iter).getBytes(StandardCharsets.UTF_8);
                    }
                    final byte[][] got = b.alltoall(to);
                    for (int j = 0; j < n; j++)
                    {
                        assertEquals(j + "->" + b.rank() + "#" + iter, new String(got[j], StandardCharsets.UTF_8));
                    }
                    // broadcast from every root
                    for (int root = 0; root < n; root++)
                    {
                        final byte[] data = b.rank() == root ? ("root" + root + "#" + iter).getBytes(StandardCharsets.UTF_8) : null;
                        assertEquals("root" + root + "#" + iter, new String(b.broadcast(data, root), StandardCharsets.UTF_8));
                    }
                    b.barrier();
                }
                return "ok";
            });
            assertEquals(java.util.Collections.nCopies(n, "ok"), results);
            job.each(pes, b ->
            {
                b.close();
                return null;
            });
            assertTrue(job.root.awaitDone(5_000_000_000L), "every PE left");
            assertEquals(List.of(), job.exits);
            assertTrue(job.log.isEmpty(), "no log lines: " + job.log);
        }
    }

    @Test
    void barrierReallyWaitsForEveryone() throws Exception
    {
        try (TestJob job = new TestJob(4))
        {
            final List<UidBootstrap> pes = job.form();
            final java.util.concurrent.atomic.AtomicInteger arrived = new java.util.concurrent.atomic.AtomicInteger();
            final List<Integer> seen = job.each(pes, b ->
            {
                if (b.rank() == 3)
                {
                    try
                    {
                        Thread.sleep(300);
                    }
                    catch (final InterruptedException ex)
                    {
                        throw new RuntimeException(ex);
                    }
                }
                arrived.incrementAndGet();
                b.barrier();
                return arrived.get();
            });
            assertEquals(List.of(4, 4, 4, 4), seen);
        }
    }

    @Test
    void nodeIdentityFromSimulatedHostsWithDebugOutput()
    {
        try (TestJob job = new TestJob(4))
        {
            final List<UidBootstrap> pes = formOnHosts(job, r -> r < 3 ? "hostA/boot1" : "hostB/boot2");
            assertArrayEquals(new int[] {0, 0, 0, 1}, pes.get(0).nodeOfRank());
            assertEquals(2, pes.get(2).nodeRank());
            assertEquals(3, pes.get(2).nodeSize());
            assertEquals(0, pes.get(3).nodeRank());
            assertEquals(1, pes.get(3).nodeSize());
            assertEquals("hostB/boot2", pes.get(0).hostOfRank()[3]);
            assertTrue(job.log.contains("[pe 0/4] bootstrap: 2 node(s), placement block, PEs per node [3, 1] (PEs per node differ);"
                + " rank->node [0, 0, 0, 1]"), String.join("\n", job.log));
            assertTrue(job.log.contains("[pe 3/4] bootstrap: node rank 0/1 on node 1 (hostB/boot2)"), String.join("\n", job.log));
        }
    }

    /** Namespaced hosts of one machine (own hostnames, one boot id) count together; another boot id does not; every PE knows the busiest. */
    @Test
    void machineSizeCountsThePesOfOneBootId()
    {
        try (TestJob job = new TestJob(4))
        {
            final List<UidBootstrap> pes = formOnHosts(job, r -> r == 3 ? "other/boot2" : "ns" + (r / 2) + "/boot1");
            assertArrayEquals(new int[] {0, 0, 1, 2}, pes.get(0).nodeOfRank());
            assertEquals(List.of(3, 3, 3, 1), pes.stream().map(Bootstrap::machineSize).toList());
            assertEquals(List.of(3, 3, 3, 3), pes.stream().map(Bootstrap::largestMachineSize).toList(), "the busiest machine, on every PE");
            assertEquals(List.of(2, 2, 1, 1), pes.stream().map(Bootstrap::nodeSize).toList());
        }
    }

    /** Forms a job whose PE r has host identity {@code identity(r)} (debug on). */
    private static List<UidBootstrap> formOnHosts(final TestJob job, final java.util.function.IntFunction<String> identity)
    {
        final List<java.util.concurrent.Future<UidBootstrap>> fs = new java.util.ArrayList<>();
        for (int r = 0; r < job.size; r++)
        {
            final int rank = r;
            final BootstrapSettings s = job.settings.withDebug(true).withHostIdentity(identity.apply(r));
            fs.add(job.submit(() -> UidBootstrap.connect(job.root.uniqueId(), rank, job.size, s)));
        }
        final List<UidBootstrap> pes = new java.util.ArrayList<>();
        for (final var f : fs)
        {
            pes.add(TestJob.get(f));
        }
        job.pes.addAll(pes);
        return pes;
    }

    @Test
    void nodeMapFromHostIdentities()
    {
        final NodeMap block = NodeMap.of(new String[] {"a", "a", "b", "b", "b"});
        assertArrayEquals(new int[] {0, 0, 1, 1, 1}, block.nodeOfRank());
        assertArrayEquals(new int[] {0, 1, 0, 1, 2}, block.nodeRankOf());
        assertArrayEquals(new int[] {2, 3}, block.nodeSizes());
        assertEquals("block", block.placement());
        assertTrue(block.describe().contains("PEs per node differ"), block.describe());
        final NodeMap rr = NodeMap.of(new String[] {"a", "b", "a", "b"});
        assertEquals("round-robin", rr.placement());
        assertArrayEquals(new int[] {0, 0, 1, 1}, rr.nodeRankOf());
        assertEquals("irregular", NodeMap.of(new String[] {"a", "b", "b", "a", "c"}).placement());
        assertEquals("single node", NodeMap.of(new String[] {"x", "x"}).placement());
    }
}
