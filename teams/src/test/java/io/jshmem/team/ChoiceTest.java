package io.jshmem.team;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The automatic choices: the one-round algorithms that read or write peers' mapped heaps directly are
 * never chosen unless every member maps every other (a team across nodes), node-aware algorithms are
 * chosen for teams that span groups, forced algorithms are kept unless they cannot run.
 */
class ChoiceTest
{
    private static final long[] BYTES = {0, 8, 2048, 4096, 8192, 16 << 10, 32 << 10, 64 << 10, 1 << 20};

    @Test
    void directReductionOnlyWhenEveryMemberIsMapped()
    {
        for (final Algorithm.Reduce forced : Algorithm.Reduce.values())
        {
            for (int size = 1; size <= 40; size++)
            {
                for (final long bytes : BYTES)
                {
                    for (final boolean twoLevel : new boolean[] {false, true})
                    {
                        for (final boolean fits : new boolean[] {false, true})
                        {
                            final Algorithm.Reduce notMapped = Choice.reduce(forced, size, bytes, twoLevel, false, fits);
                            assertNotEquals(Algorithm.Reduce.DIRECT, notMapped, forced + " size " + size + " bytes " + bytes);
                            if (forced == Algorithm.Reduce.DIRECT)
                            {
                                assertEquals(Algorithm.Reduce.RING, notMapped);
                                assertEquals(Algorithm.Reduce.DIRECT, Choice.reduce(forced, size, bytes, twoLevel, true, fits));
                            }
                            if (!fits)
                            {
                                assertNotEquals(Algorithm.Reduce.LINEAR, notMapped, "linear needs a buffer per member");
                            }
                            if (forced != Algorithm.Reduce.AUTO && forced != Algorithm.Reduce.DIRECT && forced != Algorithm.Reduce.SPLIT &&
                                (fits || forced != Algorithm.Reduce.LINEAR))
                            {
                                assertEquals(forced, notMapped, "forced algorithms are kept");
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void autoAcrossNodes()
    {
        for (int size = 2; size <= 40; size++)
        {
            for (final long bytes : BYTES)
            {
                assertEquals(Algorithm.Sync.HIERARCHICAL, Choice.sync(Algorithm.Sync.AUTO, true));
                assertEquals(Algorithm.Broadcast.HIERARCHICAL, Choice.broadcast(Algorithm.Broadcast.AUTO, size, bytes, true, false));
                assertEquals(Algorithm.Allgather.HIERARCHICAL, Choice.allgather(Algorithm.Allgather.AUTO, size, bytes, true, false));
                if (bytes < 64 << 10)
                {
                    assertEquals(Algorithm.Reduce.HIERARCHICAL, Choice.reduce(Algorithm.Reduce.AUTO, size, bytes, true, false, true));
                }
                else
                {
                    assertEquals(Algorithm.Reduce.RING, Choice.reduce(Algorithm.Reduce.AUTO, size, bytes, true, false, true));
                }
                assertEquals(Algorithm.Alltoall.HIERARCHICAL, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, false, 8, 8, 8, 1024, 1));
                assertEquals(Algorithm.Alltoall.HIERARCHICAL, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, false, 8, 8, 8, 1024,
                    Choice.HIERARCHICAL_ALLTOALL_MAX_CHUNKS), "a few chunks");
                assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, false, 8, 8, 8, 1024,
                    Choice.HIERARCHICAL_ALLTOALL_MAX_CHUNKS + 1), "large across nodes: linear, not pairwise");
                assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, false, 8, 8, 8, 1024, Long.MAX_VALUE),
                    "no hierarchical form (alltoalls): linear");
                assertEquals(size <= 4 ? Algorithm.Alltoall.LINEAR : Algorithm.Alltoall.PAIRWISE,
                    Choice.alltoall(Algorithm.Alltoall.AUTO, size, false, false, false, 8, 8, 8, 1024, 1));
            }
        }
    }

    @Test
    void theHierarchicalAlltoallRunsInAsManyChunksAsKeepALeaderToTwoMessagesOrToEightWhereCoresAreShared()
    {
        assertEquals(8, Choice.hierarchicalAlltoallMaxChunks(2, true), "2 nodes: 8 chunks, one message each");
        assertEquals(4, Choice.hierarchicalAlltoallMaxChunks(3, true), "3 nodes: 4 chunks of 2 messages");
        assertEquals(2, Choice.hierarchicalAlltoallMaxChunks(5, true));
        assertEquals(Choice.HIERARCHICAL_ALLTOALL_MAX_CHUNKS, Choice.hierarchicalAlltoallMaxChunks(9, true), "never under one chunk");
        assertEquals(2, Choice.hierarchicalAlltoallMaxChunks(2, false), "a core per PE, 2 nodes: 2 chunks, one message each");
        for (final int groups : new int[] {3, 8})
        {
            assertEquals(Choice.HIERARCHICAL_ALLTOALL_MAX_CHUNKS, Choice.hierarchicalAlltoallMaxChunks(groups, false), "a core per PE");
        }
        for (int size = 4; size <= 24; size++)
        {
            // 2 nodes of 8, members mapping each other (aggregate does not run across 2 nodes)
            assertEquals(Algorithm.Alltoall.HIERARCHICAL, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 2, 4096, 8,
                true), "2 nodes, shared cores, 8 chunks: hierarchical");
            assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 2, 8192, 16,
                true), "2 nodes, shared cores, 16 chunks: linear");
            assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 2, 4096, 8,
                false), "2 nodes, a core per PE, 8 chunks: linear");
            assertEquals(Algorithm.Alltoall.HIERARCHICAL, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 2, 1024, 2,
                false), "2 nodes, a core per PE, 2 chunks: hierarchical");
            assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 2, 2048, 4,
                false), "2 nodes, a core per PE, 4 chunks: linear");
            assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 4, 4, 3, 2048, 2,
                false), "3 nodes, a core per PE, 2 chunks: linear");
            assertEquals(Algorithm.Alltoall.HIERARCHICAL, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 4, 4, 3, 4096, 3,
                true), "3 nodes, shared cores, 3 chunks: hierarchical");
            assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 4, 4, 3, 8192, 6,
                true), "3 nodes, shared cores, 6 chunks: linear");
            // where aggregate runs, a leader's bytes bound the hierarchical form as before
            assertEquals(Algorithm.Alltoall.AGGREGATE, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 8, 1024, 2,
                true), "8 nodes, shared cores, 2 chunks: aggregate");
        }
    }

    @Test
    void leadersGatherByDoublingOnlyForSmallResultsOfBlockwiseGroups()
    {
        final long max = Choice.LEADER_DOUBLING_MAX_BYTES;
        for (final int leaders : new int[] {2, 3, 4, 6, 8, 64})
        {
            assertTrue(Choice.leaderDoubling(leaders, 8, true), leaders + " leaders, 8 bytes");
            assertTrue(Choice.leaderDoubling(leaders, max, true), leaders + " leaders, the bound");
            assertFalse(Choice.leaderDoubling(leaders, max + 1, true), leaders + " leaders, past the bound");
            assertFalse(Choice.leaderDoubling(leaders, 8, false), leaders + " leaders, groups not block-wise");
        }
        assertFalse(Choice.leaderDoubling(1, 8, true), "one leader");
    }

    @Test
    void alltoallAcrossNodesWhoseMembersMapEachOther()
    {
        final long over = Choice.HIERARCHICAL_ALLTOALL_MAX_CHUNKS + 1;
        for (int size = 2; size <= 40; size++)
        {
            assertEquals(Algorithm.Alltoall.HIERARCHICAL, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 8, 8, 1),
                "one chunk: one message per pair of nodes");
            assertEquals(Algorithm.Alltoall.AGGREGATE, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 8, 1024, over),
                "more than one chunk, 8 per node, 8 KiB messages: aggregate, not linear");
            assertEquals(Algorithm.Alltoall.AGGREGATE, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 8, 4096,
                Long.MAX_VALUE), "the scratch holds no chunk: aggregate needs none");
            assertEquals(Algorithm.Alltoall.AGGREGATE, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 4, 4, 8, 8192, over),
                "4 per node, messages of exactly the limit");
            assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 4, 4, 8, 16384, over),
                "4 per node, 64 KiB messages: linear");
            assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 7, 8, 8, 8192, over),
                "a node of 7, 64 KiB messages: linear");
            assertEquals(Algorithm.Alltoall.AGGREGATE, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 8, 8192, over),
                "8 per node, 64 KiB messages: aggregate");
            assertEquals(Algorithm.Alltoall.AGGREGATE, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 8, 64 << 10,
                over), "8 per node, 512 KiB messages: aggregate");
            assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 8, 128 << 10,
                over), "8 per node, 1 MiB messages: linear");
            assertEquals(Algorithm.Alltoall.AGGREGATE, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 2, 2, 8, 1024, over),
                "2 per node");
            final long leaderMax = Choice.HIERARCHICAL_ALLTOALL_MAX_LEADER_BYTES / (8L * size);
            assertEquals(Algorithm.Alltoall.HIERARCHICAL, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 8,
                leaderMax, 1), "one chunk, a leader's bytes within the bound: hierarchical");
            assertEquals(Algorithm.Alltoall.AGGREGATE, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 8,
                leaderMax + 1, 1), "one chunk, but a leader moves more than the bound: aggregate");
            assertEquals(Algorithm.Alltoall.HIERARCHICAL, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, 2,
                leaderMax + 1, 1), "one chunk past the bound across 2 nodes, where aggregate does not run: hierarchical");
            for (int groups = 2; groups < Choice.AGGREGATE_MIN_GROUPS; groups++)
            {
                assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, groups, 1024,
                    Choice.hierarchicalAlltoallMaxChunks(groups, false) + 1), groups + " nodes, past hierarchical's chunks: linear");
                assertEquals(Algorithm.Alltoall.HIERARCHICAL, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 8, 8, groups,
                    1024, 1), groups + " nodes, one chunk: hierarchical");
            }
            assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, true, 1, 8, 8, 1024, over),
                "a node of one PE: linear");
            assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, false, false, 8, 8, 8, 1024, over),
                "nodes whose members do not map each other: linear");
            for (final boolean twoLevel : new boolean[] {false, true})
            {
                assertEquals(Algorithm.Alltoall.AGGREGATE, Choice.alltoall(Algorithm.Alltoall.AGGREGATE, size, twoLevel, false, true, 2, 2, 8,
                    64 << 10, 1), "forced, groups mapped");
                assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AGGREGATE, size, twoLevel, false, false, 8, 8, 8,
                    1024, 1), "forced, a group's members do not map each other: linear");
            }
            assertEquals(size <= 32 ? Algorithm.Alltoall.LINEAR : Algorithm.Alltoall.PAIRWISE,
                Choice.alltoall(Algorithm.Alltoall.AUTO, size, true, true, true, 8, 8, 8, 1024, Long.MAX_VALUE),
                "groups on one node keep the one-node choice");
        }
    }

    @Test
    void splitSlicesForcedByTheTestHookStayWithinTheSmallestGroup()
    {
        assertEquals(0, Choice.parseSplitSlices(null));
        assertEquals(3, Choice.parseSplitSlices(" 3 "));
        for (final String bad : new String[] {"0", "-2", "many"})
        {
            final io.jshmem.ShmemException ex = assertThrows(io.jshmem.ShmemException.class, () -> Choice.parseSplitSlices(bad));
            assertTrue(ex.getMessage().contains("JSHMEM_TEST_SPLIT_SLICES=" + bad), ex.getMessage());
        }
        assertEquals(2, Choice.splitSlices(2, 8, 8, 1 << 20, false), "forced below the automatic choice's all-owners");
        assertEquals(8, Choice.splitSlices(64, 8, 8, 1 << 20, false), "at most the smallest group");
        assertEquals(2, Choice.splitSlices(0, 8, 64 << 10, 40 << 10, false), "0: the automatic choice (64 KiB in 40 KiB buffers)");
    }

    @Test
    void nodesLoadALargeResultFromTheirRepresentativeOnlyWhereTheyMapIt()
    {
        final long min = Choice.PULL_RELEASE_MIN_BYTES;
        assertFalse(Choice.pullRelease(Choice.Release.AUTO, true, false, min - 1), "below the bound: the representative stores");
        assertTrue(Choice.pullRelease(Choice.Release.AUTO, true, false, min), "from the bound: the members load");
        assertFalse(Choice.pullRelease(Choice.Release.AUTO, true, true, 1L << 30), "PEs outnumber a machine's cores");
        assertFalse(Choice.pullRelease(Choice.Release.AUTO, false, false, 1L << 30), "a node's members do not map each other");
        assertTrue(Choice.pullRelease(Choice.Release.PULL, true, true, 8), "forced");
        assertFalse(Choice.pullRelease(Choice.Release.PULL, false, false, 8), "forced, but not mapped: stores");
        assertFalse(Choice.pullRelease(Choice.Release.PUSH, true, false, 1L << 30), "forced");
        final io.jshmem.ShmemException ex = assertThrows(io.jshmem.ShmemException.class,
            () -> Algorithm.parse(Choice.RELEASE_TEST_VARIABLE, "pulled", Choice.Release.class));
        assertTrue(ex.getMessage().contains("JSHMEM_TEST_RELEASE='pulled'") && ex.getMessage().contains("push, pull"), ex.getMessage());
    }

    @Test
    void autoOnOneNode()
    {
        assertEquals(Algorithm.Sync.DISSEMINATION, Choice.sync(Algorithm.Sync.AUTO, false));
        assertEquals(Algorithm.Broadcast.LINEAR, Choice.broadcast(Algorithm.Broadcast.AUTO, 2, 8, false, true));
        assertEquals(Algorithm.Broadcast.TREE, Choice.broadcast(Algorithm.Broadcast.AUTO, 8, 1 << 20, false, true));
        assertEquals(Algorithm.Broadcast.LINEAR, Choice.broadcast(Algorithm.Broadcast.AUTO, 4, 16 << 10, false, true));
        assertEquals(Algorithm.Broadcast.SCATTER_ALLGATHER, Choice.broadcast(Algorithm.Broadcast.AUTO, 8, 32 << 10, false, false));
        assertEquals(Algorithm.Allgather.LINEAR, Choice.allgather(Algorithm.Allgather.AUTO, 32, 1 << 20, false, true));
        assertEquals(Algorithm.Allgather.RECURSIVE_DOUBLING, Choice.allgather(Algorithm.Allgather.AUTO, 33, 1 << 10, false, true));
        assertEquals(Algorithm.Allgather.RING, Choice.allgather(Algorithm.Allgather.AUTO, 33, 1 << 20, false, true));
        assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, 32, false, true, true, 8, 8, 8, 1024, 1));
        assertEquals(Algorithm.Alltoall.LINEAR, Choice.alltoall(Algorithm.Alltoall.AUTO, 8, true, true, true, 8, 8, 8, 1024, 1), "pretend groups on one node");
        assertEquals(Algorithm.Alltoall.PAIRWISE, Choice.alltoall(Algorithm.Alltoall.AUTO, 33, false, true, true, 8, 8, 8, 1024, 1), "one node, over 32 PEs");
        assertEquals(Algorithm.Reduce.DIRECT, Choice.reduce(Algorithm.Reduce.AUTO, 4, 2048, false, true, true));
        assertEquals(Algorithm.Reduce.LINEAR, Choice.reduce(Algorithm.Reduce.AUTO, 8, 2048, false, true, true));
        assertEquals(Algorithm.Reduce.DIRECT, Choice.reduce(Algorithm.Reduce.AUTO, 8, 4096, false, true, true));
        assertEquals(Algorithm.Scan.LINEAR, Choice.scan(Algorithm.Scan.AUTO, 4, true));
        assertEquals(Algorithm.Scan.RECURSIVE_DOUBLING, Choice.scan(Algorithm.Scan.AUTO, 5, true));
        assertEquals(Algorithm.Scan.RECURSIVE_DOUBLING, Choice.scan(Algorithm.Scan.LINEAR, 3, false));
    }

    @Test
    void spareCoresChoicesOnlyForAutoOnOneNodeMappedTeamsOfEightOrMore()
    {
        assertEquals(Algorithm.Reduce.RECURSIVE_DOUBLING, Choice.reduce(Algorithm.Reduce.AUTO, 16, 8, false, true, true, true));
        assertEquals(Algorithm.Reduce.DIRECT, Choice.reduce(Algorithm.Reduce.AUTO, 8, 1024, false, true, true, true));
        assertEquals(Algorithm.Reduce.LINEAR, Choice.reduce(Algorithm.Reduce.AUTO, 8, 8, false, true, true, false), "oversubscribed keeps linear");
        assertEquals(Algorithm.Reduce.LINEAR, Choice.reduce(Algorithm.Reduce.AUTO, 4, 8, false, true, true, true), "4 members keep linear");
        assertEquals(Algorithm.Allgather.RECURSIVE_DOUBLING, Choice.allgather(Algorithm.Allgather.AUTO, 16, 16 * 8, false, true, true));
        assertEquals(Algorithm.Allgather.LINEAR, Choice.allgather(Algorithm.Allgather.AUTO, 8, 8 * 64, false, true, true));
        assertEquals(Algorithm.Broadcast.SCATTER_ALLGATHER, Choice.broadcast(Algorithm.Broadcast.AUTO, 16, 1 << 20, false, true, true));
        assertEquals(Algorithm.Broadcast.TREE, Choice.broadcast(Algorithm.Broadcast.AUTO, 16, 1 << 20, false, true, false));
        for (final boolean spare : new boolean[] {false, true})
        {
            for (int size = 1; size <= 40; size++)
            {
                for (final long bytes : BYTES)
                {
                    for (final boolean twoLevel : new boolean[] {false, true})
                    {
                        // never direct without the mapping; forced algorithms stay as they are
                        assertNotEquals(Algorithm.Reduce.DIRECT, Choice.reduce(Algorithm.Reduce.AUTO, size, bytes, twoLevel, false, true, spare));
                        assertEquals(Algorithm.Reduce.RING, Choice.reduce(Algorithm.Reduce.RING, size, bytes, twoLevel, true, true, spare));
                        assertEquals(Algorithm.Allgather.RING, Choice.allgather(Algorithm.Allgather.RING, size, bytes, twoLevel, true, spare));
                        assertEquals(Algorithm.Broadcast.TREE, Choice.broadcast(Algorithm.Broadcast.TREE, size, bytes, twoLevel, true, spare));
                        if (twoLevel && bytes < 64 * 1024 && bytes < 2 * Choice.DIRECT_REDUCE_MIN_BYTES)
                        {
                            assertEquals(Algorithm.Reduce.HIERARCHICAL, Choice.reduce(Algorithm.Reduce.AUTO, size, bytes, true, false, true, spare));
                        }
                    }
                }
            }
        }
    }

    @Test
    void teamsOfSeveralMappedNodesReduceBySplitAndAForcedSplitFallsBack()
    {
        for (final long bytes : new long[] {8, 4096, 1 << 20})
        {
            assertEquals(Algorithm.Reduce.SPLIT, Choice.reduce(Algorithm.Reduce.AUTO, 16, bytes, true, false, true, true, false));
            assertEquals(Algorithm.Reduce.SPLIT, Choice.reduce(Algorithm.Reduce.SPLIT, 16, bytes, true, true, true, true, false),
                "forced split on groups of one node");
            assertEquals(Algorithm.Reduce.HIERARCHICAL, Choice.reduce(Algorithm.Reduce.SPLIT, 16, bytes, true, false, false, true, false),
                "groups whose members do not map each other");
            assertNotEquals(Algorithm.Reduce.SPLIT, Choice.reduce(Algorithm.Reduce.SPLIT, 16, bytes, false, true, true, true, false),
                "one group");
            assertNotEquals(Algorithm.Reduce.SPLIT, Choice.reduce(Algorithm.Reduce.AUTO, 16, bytes, true, false, false, true, false));
        }
    }

    @Test
    void splitSlicesUseOneOwnerWhileTheWholeFitsABufferAndEveryOwnerFromTheThreshold()
    {
        assertEquals(1, Choice.splitSlices(0, 8, 8, 26_000, false));
        assertEquals(1, Choice.splitSlices(0, 8, 16 << 10, 26_000, false));
        assertEquals(3, Choice.splitSlices(0, 8, 64 << 10, 26_000, false));
        assertEquals(8, Choice.splitSlices(0, 8, Choice.SPLIT_ALL_OWNERS_MIN_BYTES, 26_000, false));
        assertEquals(3, Choice.splitSlices(0, 3, 1 << 20, 26_000, false), "never more than the smallest node");
        assertEquals(1, Choice.splitSlices(0, 1, 64 << 10, 100, false), "a node of one PE: one owner");
        assertEquals(8, Choice.splitSlices(0, 8, 4096, 0, false), "no scratch: every owner (the ring needs none)");
    }

    @Test
    void splitSlicesWhereCoresAreSharedUseFourOwnersOfNodesOfEightFrom32KiB()
    {
        final long buf = 256 << 10;
        assertEquals(1, Choice.splitSlices(0, 8, 8, buf, true), "8 B: the leader");
        assertEquals(1, Choice.splitSlices(0, 8, (32 << 10) - 8, buf, true), "below 32 KiB: the leader");
        assertEquals(4, Choice.splitSlices(0, 8, Choice.SHARED_CORES_OWNERS_MIN_BYTES, buf, true), "32 KiB");
        assertEquals(4, Choice.splitSlices(0, 8, 1 << 20, buf, true), "1 MiB: 4, not every member");
        assertEquals(8, Choice.splitSlices(0, 8, 1 << 20, buf, false), "1 MiB with a core per PE: every member");
        assertEquals(4, Choice.splitSlices(0, 16, 1 << 20, buf, true), "nodes of 16");
        assertEquals(7, Choice.splitSlices(0, 7, 1 << 20, buf, true), "nodes of 7: every member, as before");
        assertEquals(2, Choice.splitSlices(0, 2, 64 << 10, 40 << 10, true), "2+2 on 2 cores: as before");
        assertEquals(2, Choice.splitSlices(2, 8, 1 << 20, buf, true), "the test hook still forces");
        assertEquals(8, Choice.splitSlices(0, 8, 4096, 0, true), "no scratch: every owner");
    }

    @Test
    void splitExchangeDoublesWhileTheSliceFitsABufferThenHalvesAcrossManyNodesInFewerRoundsThanTheRing()
    {
        final Choice.SplitExchange auto = Choice.SplitExchange.AUTO;
        for (int nodes = 2; nodes <= 64; nodes++)
        {
            final long one = Hierarchical.halvingRounds(nodes, 1000, 1000); // one chunk
            assertEquals(Choice.SplitExchange.DOUBLING, Choice.splitExchange(auto, nodes, 4096, 4096, one), "fits, nodes=" + nodes);
            assertEquals(nodes >= Choice.SPLIT_HALVING_MIN_NODES ? Choice.SplitExchange.HALVING : Choice.SplitExchange.RING,
                Choice.splitExchange(auto, nodes, 4097, 4096, one), "does not fit, one chunk, nodes=" + nodes);
            assertEquals(Choice.SplitExchange.RING, Choice.splitExchange(auto, nodes, 4097, 4096, 2L * nodes - 1),
                "as many rounds as the ring, nodes=" + nodes);
            assertEquals(Choice.SplitExchange.RING, Choice.splitExchange(auto, nodes, 4097, 4096, 0), "halving cannot run");
            assertEquals(Choice.SplitExchange.RING, Choice.splitExchange(Choice.SplitExchange.RING, nodes, 8, 4096, one), "forced ring");
            assertEquals(Choice.SplitExchange.HALVING, Choice.splitExchange(Choice.SplitExchange.HALVING, nodes, 8, 4096, 1000),
                "forced halving");
            assertEquals(Choice.SplitExchange.RING, Choice.splitExchange(Choice.SplitExchange.HALVING, nodes, 8, 4096, 0),
                "forced halving that cannot run");
            assertEquals(Choice.splitExchange(auto, nodes, 1 << 20, 4096, one), Choice.splitExchange(Choice.SplitExchange.DOUBLING, nodes,
                1 << 20, 4096, one), "a forced doubling that does not fit is the automatic choice");
        }
        assertEquals(6, Hierarchical.halvingRounds(8, 100, 100));
        assertEquals(6, Hierarchical.halvingRounds(6, 100, 100), "4 of halving and doubling, 2 of the fold");
        assertEquals(4, Hierarchical.halvingRounds(4, 100, 100));
        assertEquals(24, Hierarchical.halvingRounds(8, 100, 25));
        assertEquals(12, Hierarchical.halvingRounds(64, 1 << 14, 1 << 14), "1 MiB in 8 slices at 64 nodes: 12 rounds against 127");
    }

    @Test
    void halvingChunksFitTheScratchHalfAndCoverTheSlice()
    {
        for (final int nodes : new int[] {2, 3, 4, 5, 7, 8, 13, 64})
        {
            final int p2 = Integer.highestOneBit(nodes);
            for (final int eb : new int[] {1, 2, 4, 8})
            {
                for (final long len : new long[] {0, 1, 5, 1000, 1 << 17, 3 << 20})
                {
                    final long half = 512;
                    final long chunk = Hierarchical.halvingChunk(half, nodes, eb, len);
                    if (chunk == 0)
                    {
                        continue; // runs the ring
                    }
                    final long c = Math.min(chunk, len);
                    final long need = (nodes > p2 ? c : 0) + (p2 - 1) * ((c + p2 - 1) / p2); // the fold, then the rounds
                    assertEquals(true, need * eb <= half, "nodes=" + nodes + " eb=" + eb + " len=" + len + " chunk=" + chunk);
                    assertEquals(true, chunk >= 1, "chunk=" + chunk);
                }
            }
        }
        assertEquals(100, Hierarchical.halvingChunk(1 << 20, 4, 8, 100), "one chunk where the slice fits the half");
        assertEquals(0, Hierarchical.halvingChunk(64, 64, 8, 1 << 20), "a half too small for an element per block: the ring");
        assertEquals(0, Hierarchical.halvingChunk(512, 2, 1, 1L << 40), "more chunks than the phase has steps: the ring");
    }
}
