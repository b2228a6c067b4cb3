package io.jshmem.bootstrap;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A PE's bootstrap threads do not grow with the job, nor do the root's: jobs of 4, 16 and 64 PEs
 * (threads over loopback sockets in this JVM), after collectives that connect every PE to all its log2 N
 * partners, give every PE the same number of threads named {@code jshmem-bootstrap-pe<rank>-}, and the
 * root (which PE 0 hosts under torchrun, SLURM and MPI launches) the same number named
 * {@code jshmem-bootstrap-root}.
 */
class PeerThreadsTest
{
    /** @return live bootstrap threads of each rank of a job of {@code size}, by rank. */
    private static Map<Integer, List<String>> threadsByRank(final int size)
    {
        final Map<Integer, List<String>> out = new TreeMap<>();
        for (int r = 0; r < size; r++)
        {
            out.put(r, new ArrayList<>());
        }
        for (final String name : TestJob.bootstrapThreads())
        {
            for (int r = 0; r < size; r++)
            {
                if (name.startsWith("jshmem-bootstrap-pe" + r + "-"))
                {
                    out.get(r).add(name);
                }
            }
        }
        return out;
    }

    /** Forms a job of {@code size}, runs collectives that open every link, returns each PE's thread count. */
    private static List<Integer> countsAt(final int size)
    {
        try (TestJob job = new TestJob(size, 60_000_000_000L, 20_000_000_000L))
        {
            final List<UidBootstrap> pes = job.form();
            job.each(pes, b ->
            {
                b.barrier();
                assertEquals(size, b.allgather(new byte[] {(byte)b.rank()}).length);
                final byte[][] to = new byte[size][];
                for (int i = 0; i < size; i++)
                {
                    to[i] = new byte[] {(byte)i};
                }
                assertEquals(size, b.alltoall(to).length);
                b.broadcast(new byte[] {1}, size - 1);
                b.barrier();
                return null;
            });
            final Map<Integer, List<String>> byRank = threadsByRank(size);
            final List<Integer> counts = new ArrayList<>();
            byRank.values().forEach(l -> counts.add(l.size()));
            final List<String> root = TestJob.bootstrapThreads().stream().filter(n -> n.startsWith("jshmem-bootstrap-root")).toList();
            System.out.printf("N=%d: bootstrap threads per PE %s; PE 0: %s; root: %d %s%n", size,
                counts.stream().distinct().sorted().toList(), byRank.get(0), root.size(), root);
            counts.add(root.size()); // last: the root's
            for (final UidBootstrap b : pes)
            {
                assertNull(b.failure(), "[pe " + b.rank() + "/" + size + "] failed");
            }
            return counts;
        }
    }

    @Test
    void threadsPerPeAndRootAreTheSameAtFourSixteenAndSixtyFourPes()
    {
        final Map<Integer, List<Integer>> byN = new TreeMap<>();
        for (final int n : new int[] {4, 16, 64})
        {
            byN.put(n, countsAt(n));
        }
        final int expected = byN.get(4).get(0);
        final int rootExpected = byN.get(4).get(4);
        assertTrue(expected > 0, "no bootstrap threads found for PE 0 of 4: " + byN);
        byN.forEach((n, counts) ->
        {
            for (int r = 0; r < n; r++)
            {
                assertEquals(expected, counts.get(r), "[pe " + r + "/" + n + "] has " + counts.get(r)
                    + " bootstrap threads, PE 0 of 4 has " + expected + " (all counts by job size, the root's last: " + byN + ")");
            }
            assertEquals(rootExpected, counts.get(n), "the root of " + n + " PEs has " + counts.get(n)
                + " threads, that of 4 has " + rootExpected + " (all counts by job size, the root's last: " + byN + ")");
        });
    }
}
