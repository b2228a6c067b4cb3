package io.jshmem.runtime;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricBytes;
import io.jshmem.SymmetricChars;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricFloats;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricShorts;
import io.jshmem.Team;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every collective on WORLD and on split teams (strided, negative stride, teams of one), at 1, 2, 3, 4,
 * 5 and 8 PEs, under each forced algorithm set, against references computed locally from the
 * (seeded) inputs every PE can regenerate. Sizes cross the scratch chunk size so the pipelined paths
 * run. The seed is printed; rerun one with -Djshmem.test.seed=N.
 */
class CollectivesThreadsTest
{
    private static final long SEED = Long.getLong("jshmem.test.seed", System.nanoTime());

    /** Every algorithm of every collective appears in at least one set (auto in the first). */
    static List<Map<String, String>> algorithmSets()
    {
        return List.of(
            Map.of(),
            Map.of("SHMEM_BARRIER_ALGORITHM", "linear", "SHMEM_BROADCAST_ALGORITHM", "linear", "SHMEM_COLLECT_ALGORITHM", "linear",
                "SHMEM_FCOLLECT_ALGORITHM", "linear", "SHMEM_ALLTOALL_ALGORITHM", "linear", "SHMEM_REDUCE_ALGORITHM", "linear",
                "SHMEM_SCAN_ALGORITHM", "linear"),
            Map.of("SHMEM_BARRIER_ALGORITHM", "dissemination", "SHMEM_BROADCAST_ALGORITHM", "tree", "SHMEM_COLLECT_ALGORITHM", "ring",
                "SHMEM_FCOLLECT_ALGORITHM", "ring", "SHMEM_ALLTOALL_ALGORITHM", "pairwise", "SHMEM_REDUCE_ALGORITHM", "recursive_doubling",
                "SHMEM_SCAN_ALGORITHM", "recursive_doubling", "SHMEM_TEAM_SCRATCH_SIZE", "2K"),
            Map.of("SHMEM_BROADCAST_ALGORITHM", "scatter_allgather", "SHMEM_COLLECT_ALGORITHM", "recursive_doubling",
                "SHMEM_FCOLLECT_ALGORITHM", "recursive_doubling", "SHMEM_REDUCE_ALGORITHM", "ring", "SHMEM_TEAM_SCRATCH_SIZE", "1K",
                "SHMEM_DEBUG", "1"),
            // members load a two-level broadcast's result from their representative at every size (the test hook
            // JSHMEM_TEST_RELEASE), in pieces of 1 KiB (half the scratch); the hierarchical set below stores it into them
            // (auto, below 64 KiB)
            Map.of("SHMEM_BARRIER_ALGORITHM", "hierarchical", "SHMEM_REDUCE_ALGORITHM", "hierarchical", "SHMEM_TEAM_GROUP_SIZE", "3",
                "SHMEM_BROADCAST_ALGORITHM", "hierarchical", "SHMEM_ALLTOALL_ALGORITHM", "hierarchical",
                "SHMEM_TEAM_SCRATCH_SIZE", "2K", "JSHMEM_TEST_RELEASE", "pull", "SHMEM_FCOLLECT_ALGORITHM", "hierarchical"),
            Map.of("SHMEM_REDUCE_ALGORITHM", "direct", "SHMEM_BARRIER_ALGORITHM", "linear"),
            Map.of("SHMEM_REDUCE_ALGORITHM", "split", "SHMEM_TEAM_GROUP_SIZE", "2", "SHMEM_TEAM_SCRATCH_SIZE", "1K"),
            Map.of("SHMEM_REDUCE_ALGORITHM", "split", "SHMEM_TEAM_GROUP_SIZE", "2", "SHMEM_TEAM_SCRATCH_SIZE", "1K",
                "JSHMEM_TEST_SPLIT_EXCHANGE", "halving"),
            // two owners in groups of three at every size (the test hook JSHMEM_TEST_SPLIT_SLICES)
            Map.of("SHMEM_REDUCE_ALGORITHM", "split", "SHMEM_TEAM_GROUP_SIZE", "3", "JSHMEM_TEST_SPLIT_SLICES", "2"),
            // a 1 KiB scratch: the two-level broadcast moves in pieces of 512 bytes, stored into the members
            Map.of("SHMEM_FCOLLECT_ALGORITHM", "hierarchical", "SHMEM_COLLECT_ALGORITHM", "hierarchical", "SHMEM_TEAM_GROUP_SIZE", "2",
                "SHMEM_BARRIER_ALGORITHM", "hierarchical", "SHMEM_BROADCAST_ALGORITHM", "hierarchical", "SHMEM_ALLTOALL_ALGORITHM",
                "hierarchical", "SHMEM_TEAM_SCRATCH_SIZE", "1K"),
            Map.of("SHMEM_ALLTOALL_ALGORITHM", "aggregate", "SHMEM_TEAM_GROUP_SIZE", "3"));
    }

    static Stream<Arguments> cases()
    {
        System.out.println("CollectivesThreadsTest seed=" + SEED);
        final List<Map<String, String>> sets = algorithmSets();
        final List<Arguments> args = new ArrayList<>();
        for (final int n : new int[] {1, 2, 3, 4, 5, 8})
        {
            for (int s = 0; s < sets.size(); s++)
            {
                args.add(Arguments.of(n, s, sets.get(s)));
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0} PEs, algorithm set {1}")
    @MethodSource("cases")
    void everyCollectiveMatchesItsReference(final int n, final int set, final Map<String, String> env) throws Exception
    {
        ThreadPes.run(n, env, shmem -> onWorldAndSplits(shmem, n, SEED + set));
    }

    /** Every collective on WORLD, on the even PEs or the odd ones in reverse order (negative stride), and on a team of one. */
    private static void onWorldAndSplits(final Shmem shmem, final int n, final long seed)
    {
        final Team world = shmem.teamWorld();
        final Buffers b = new Buffers(shmem);
        runAll(world, seed, b);
        final Team even = world.splitStrided(0, 2, (n + 1) / 2);
        final Team oddReversed = n > 1 ? world.splitStrided(n % 2 == 0 ? n - 1 : n - 2, -2, n / 2) : Team.INVALID;
        runAll(even.isValid() ? even : oddReversed, seed + 1, b);
        final Team last = world.splitStrided(n - 1, 0, 1); // a team of one
        runAll(last, seed + 2, b);
        last.close();
        even.close();
        oddReversed.close();
        shmem.barrierAll();
        b.free(shmem);
    }

    /**
     * Node layouts (PEs per pretend node, consecutive WORLD PEs, through the teams module's test hook
     * {@code JSHMEM_TEST_NODE_LAYOUT}): 2 hosts x 2 PEs, 2 x 3, an uneven 3 + 1, and 3, 4, 6 and 8 uneven nodes (the
     * hierarchical fcollect's leaders by Bruck's doubling at small sizes, wrapping past the last leader where they are
     * not a power of two), under every algorithm
     * set with the grouping by node (SHMEM_TEAM_GROUP_SIZE removed), so the node-aware algorithms pick
     * one leader per pretend node and the one-round algorithms that read peers' heaps are not chosen
     * across pretend nodes.
     */
    /** An algorithm set with the grouping by pretend node: SHMEM_TEAM_GROUP_SIZE removed, the node layout set. */
    private static Map<String, String> onNodes(final Map<String, String> set, final String layout)
    {
        final Map<String, String> env = new java.util.HashMap<>(set);
        env.remove("SHMEM_TEAM_GROUP_SIZE");
        env.put("JSHMEM_TEST_NODE_LAYOUT", layout);
        return env;
    }

    static Stream<Arguments> layouts()
    {
        final List<Arguments> args = new ArrayList<>();
        final List<Map<String, String>> sets = algorithmSets();
        for (final String layout : new String[] {"2,2", "3,3", "3,1", "2,1,2", "2,1,2,3", "1,2,1,2,1,1", "1,2,1,1,2,1,1,1"})
        {
            for (int s = 0; s < sets.size(); s++)
            {
                args.add(Arguments.of(layout, s, onNodes(sets.get(s), layout)));
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "nodes {0}, algorithm set {1}")
    @MethodSource("layouts")
    void everyCollectiveMatchesItsReferenceAcrossNodes(final String layout, final int set, final Map<String, String> env) throws Exception
    {
        final int[] perNode = java.util.Arrays.stream(layout.split(",")).mapToInt(Integer::parseInt).toArray();
        final int n = java.util.Arrays.stream(perNode).sum();
        ThreadPes.run(n, env, shmem -> {
            // NODE and SHARED follow the pretend nodes
            int first = 0;
            int node = 0;
            while (first + perNode[node] <= shmem.myPe())
            {
                first += perNode[node++];
            }
            assertEquals(perNode[node], shmem.teamNode().nPes(), "NODE size on pretend node " + node);
            assertEquals(first, shmem.teamNode().worldPe(0), "NODE's first PE");
            assertEquals(perNode[node], shmem.teamShared().nPes(), "SHARED size on pretend node " + node);
            final Team world = shmem.teamWorld();
            final Buffers b = new Buffers(shmem);
            runAll(world, SEED + set, b);
            // a team across the nodes in another order, and each node's team
            final Team reversed = world.splitStrided(n - 1, -1, n);
            runAll(reversed, SEED + set + 1, b);
            runAll(shmem.teamNode(), SEED + set + 2, b);
            final Team even = world.splitStrided(0, 2, (n + 1) / 2);
            runAll(even, SEED + set + 3, b);
            even.close();
            reversed.close();
            shmem.barrierAll();
            b.free(shmem);
        });
    }

    /**
     * The split reduction's exchanges between nodes (the test hook {@code JSHMEM_TEST_SPLIT_EXCHANGE} forces ring or
     * recursive halving) on 3, 4 and 5 pretend nodes (a power of two and not, a node of one PE), with a 1 KiB scratch
     * (the halving in many chunks) and 16 KiB (one chunk up to some 1000 elements), on counts below the nodes, uneven and across chunks.
     */
    static Stream<Arguments> splitExchanges()
    {
        final List<Arguments> args = new ArrayList<>();
        for (final String layout : new String[] {"2,2,2", "3,3,3", "2,2,2,1", "2,2,2,2", "2,2,2,2,2"})
        {
            for (final String exchange : new String[] {"halving", "ring"})
            {
                for (final String scratch : new String[] {"1K", "16K"})
                {
                    args.add(Arguments.of(layout, exchange, scratch));
                }
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "nodes {0}, {1}, scratch {2}")
    @MethodSource("splitExchanges")
    void splitReductionsMatchTheirReference(final String layout, final String exchange, final String scratch) throws Exception
    {
        final int n = java.util.Arrays.stream(layout.split(",")).mapToInt(Integer::parseInt).sum();
        final Map<String, String> env = Map.of("SHMEM_REDUCE_ALGORITHM", "split", "JSHMEM_TEST_NODE_LAYOUT", layout,
            "JSHMEM_TEST_SPLIT_EXCHANGE", exchange, "SHMEM_TEAM_SCRATCH_SIZE", scratch);
        final int typedCount = 301;
        ThreadPes.run(n, env, shmem -> {
            final Team world = shmem.teamWorld();
            final Buffers b = new Buffers(shmem, 1409, typedCount);
            final Team reversed = world.splitStrided(n - 1, -1, n);
            reductionsOnBoth(world, reversed, b, new int[] {1, 4, 37, 701, 1409});
            typedReductions(world, SEED, b.typed, typedCount);
            reversed.close();
            shmem.barrierAll();
            b.free(shmem);
        });
    }

    /**
     * Round-robin placement ({@code JSHMEM_TEST_NODE_LAYOUT=cyclic:K}, as a launcher mapping ranks by node places them): a
     * node's members are not consecutive ranks, so the node-aware algorithms move a group's blocks in several runs (the
     * hierarchical fcollect and collect one put per run of consecutive ranks). 6 PEs on 2 pretend nodes and 7 on 3 (uneven),
     * under every algorithm set with the grouping by node, on WORLD, the even or odd-reversed team and a team of one.
     */
    static Stream<Arguments> cyclicLayouts()
    {
        final List<Arguments> args = new ArrayList<>();
        final List<Map<String, String>> sets = algorithmSets();
        for (final int[] nk : new int[][] {{6, 2}, {7, 3}})
        {
            for (int s = 0; s < sets.size(); s++)
            {
                args.add(Arguments.of(nk[0], nk[1], s, onNodes(sets.get(s), "cyclic:" + nk[1])));
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0} PEs cyclic over {1} nodes, algorithm set {2}")
    @MethodSource("cyclicLayouts")
    void everyCollectiveMatchesItsReferenceWithRanksRoundRobinOverNodes(final int n, final int nodes, final int set,
        final Map<String, String> env) throws Exception
    {
        ThreadPes.run(n, env, shmem -> onWorldAndSplits(shmem, n, SEED + set));
    }

    /**
     * The automatic split reduction over two pretend nodes of 8 PEs, from 8 bytes to 512 KiB (the sizes whose owners per node
     * change: one, then as many as make a slice fit, then every member; where the job's PEs outnumber the machine's cores,
     * as 16 thread PEs on a machine of fewer than 16 do, 4 owners from 32 KiB, {@code Choice.SHARED_CORES_OWNERS}), on
     * WORLD and on a reversed team, in place too.
     */
    @Test
    void automaticSplitReductionsOnNodesOfEightMatchTheirReference() throws Exception
    {
        final int n = 16;
        final int max = 1 << 16; // 512 KiB of longs
        ThreadPes.run(n, Map.of("JSHMEM_TEST_NODE_LAYOUT", "8,8"), shmem -> {
            final Team world = shmem.teamWorld();
            final Buffers b = new Buffers(shmem, max / (2 * n), 1); // src and dest of max longs
            final Team reversed = world.splitStrided(n - 1, -1, n);
            reductionsOnBoth(world, reversed, b, new int[] {1, 2047, 4096, 8193, 16384, max});
            reversed.close();
            shmem.barrierAll();
            b.free(shmem);
        });
    }

    /** Every reduction of each count on both teams, each with sources of its own seed, checked against the reference. */
    private static void reductionsOnBoth(final Team world, final Team reversed, final Buffers b, final int[] counts)
    {
        int k = 0;
        for (final int count : counts)
        {
            for (final Team team : new Team[] {world, reversed})
            {
                final long seed = SEED + 10L * k++;
                for (int i = 0; i < count; i++)
                {
                    b.src.setLocal(i, value(seed, team.worldPe(team.myPe()), i));
                }
                team.sync();
                reductions(team, seed, b, count);
            }
        }
    }

    /**
     * Repeated alltoalls under each algorithm, each PE overwriting its source as soon as a call returns, then checking
     * its dest: an algorithm that returns while another member may still read this PE's source (aggregate's
     * forwarders load it) delivers the overwritten values and fails. Pretend
     * nodes of 3 + 2 + 3 PEs (uneven), groups of 3 on one node and (auto) nodes of 4 + 4, blocks of 1 to 300 longs (the scratch of 1K moves
     * hierarchical's in many chunks).
     */
    static Stream<Arguments> alltoallRepeats()
    {
        final List<Arguments> args = new ArrayList<>();
        for (final String alg : new String[] {"linear", "pairwise", "hierarchical", "aggregate", "auto"})
        {
            args.add(Arguments.of(alg, Map.of("SHMEM_ALLTOALL_ALGORITHM", alg, "JSHMEM_TEST_NODE_LAYOUT", "3,2,3",
                "SHMEM_TEAM_SCRATCH_SIZE", "1K")));
            args.add(Arguments.of(alg, Map.of("SHMEM_ALLTOALL_ALGORITHM", alg, "SHMEM_TEAM_GROUP_SIZE", "3", "SHMEM_TEAM_SCRATCH_SIZE", "1K")));
        }
        // four pretend nodes of 2 whose scratch holds no hierarchical chunk: auto runs aggregate (Choice.alltoall: 4 nodes or more)
        args.add(Arguments.of("auto", Map.of("JSHMEM_TEST_NODE_LAYOUT", "2,2,2,2", "SHMEM_TEAM_SCRATCH_SIZE", "1K")));
        return args.stream();
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("alltoallRepeats")
    void alltoallReturnsOnlyWhenItsSourceIsFree(final String alg, final Map<String, String> env) throws Exception
    {
        final int n = 8;
        ThreadPes.run(n, env, shmem -> {
            final Team world = shmem.teamWorld();
            final int max = 300;
            final SymmetricLongs src = shmem.allocateLongs((long)max * n);
            final SymmetricLongs dest = shmem.allocateLongs((long)max * n);
            for (int call = 0; call < 40; call++)
            {
                alltoallAndCheck(world, src, dest, call, call % 4 == 3 ? max : 1 + call % 7, alg);
            }
            shmem.barrierAll();
            shmem.free(dest);
            shmem.free(src);
        });
    }

    /**
     * Aggregate's messages between nodes past its gather buffer ({@code Aggregate.GATHER_BYTES}, 1 MiB), as auto now
     * sends with 8 or more PEs per node (up to 512 KiB messages): blocks of 320 KiB (two to a gather) and of 1.1 MB (each
     * put straight from the node-mate's source), four pretend nodes of 2, the source overwritten as each call returns.
     */
    @Test
    void aggregateAlltoallPastItsGatherBuffer() throws Exception
    {
        final int n = 8;
        ThreadPes.run(n, Map.of("SHMEM_ALLTOALL_ALGORITHM", "aggregate", "JSHMEM_TEST_NODE_LAYOUT", "2,2,2,2",
            "SHMEM_SYMMETRIC_SIZE", "24M"), shmem -> {
            final Team world = shmem.teamWorld();
            final int[] counts = {40_000, 140_000};
            final SymmetricLongs src = shmem.allocateLongs((long)counts[1] * n);
            final SymmetricLongs dest = shmem.allocateLongs((long)counts[1] * n);
            for (int call = 0; call < 4; call++)
            {
                alltoallAndCheck(world, src, dest, call, counts[call % 2], "aggregate");
            }
            shmem.barrierAll();
            shmem.free(dest);
            shmem.free(src);
        });
    }

    /** One alltoall of {@code count} longs per block whose values name call, source PE and index; overwrites the source as it returns, then checks dest. */
    private static void alltoallAndCheck(final Team world, final SymmetricLongs src, final SymmetricLongs dest, final int call,
        final int count, final String alg)
    {
        final int me = world.myPe();
        final int n = world.nPes();
        for (long i = 0; i < (long)count * n; i++)
        {
            src.setLocal(i, ((long)call << 40) | ((long)me << 24) | i);
        }
        world.alltoall(dest, src, count);
        for (long i = 0; i < (long)count * n; i++)
        {
            src.setLocal(i, -1); // the caller may write its source at once
        }
        for (int r = 0; r < n; r++)
        {
            for (int i = 0; i < count; i++)
            {
                final long want = ((long)call << 40) | ((long)r << 24) | ((long)me * count + i);
                final long got = dest.getLocal((long)r * count + i);
                if (got != want)
                {
                    throw new AssertionError("[pe " + me + "/" + n + "] " + alg + " call " + call + " count " + count + ": block from pe " +
                        r + " element " + i + " is " + Long.toHexString(got) + ", want " + Long.toHexString(want));
                }
            }
        }
        world.sync(); // every member checked its dest before any writes the next call's blocks into it
    }

    /** Buffers allocated once over WORLD (allocation is WORLD-collective; teams use them on their members). */
    static final class Buffers
    {
        static final int MAX_COUNT = 706;
        final SymmetricLongs src;
        final SymmetricLongs dest;
        final List<SymmetricArray<?>> typed;

        Buffers(final Shmem shmem)
        {
            this(shmem, MAX_COUNT, TYPED_COUNT);
        }

        /** @param typedCount the count of the typed reductions (each typed array holds twice as many) */
        Buffers(final Shmem shmem, final int maxCount, final int typedCount)
        {
            src = shmem.allocateLongs((long)maxCount * shmem.nPes() * 2);
            dest = shmem.allocateLongs((long)maxCount * shmem.nPes() * 2);
            final int c = 2 * typedCount;
            typed = List.of(shmem.allocateBytes(c), shmem.allocateShorts(c), shmem.allocateChars(c), shmem.allocateInts(c),
                shmem.allocateFloats(c), shmem.allocateDoubles(c));
        }

        void free(final Shmem shmem)
        {
            for (final SymmetricArray<?> a : typed)
            {
                shmem.free(a);
            }
            shmem.free(dest);
            shmem.free(src);
        }
    }

    private static final int TYPED_COUNT = 37;

    /** Runs every collective on the team (on its members) and checks each result. */
    static void runAll(final Team team, final long seed, final Buffers b)
    {
        if (!team.isValid())
        {
            return;
        }
        final int n = team.nPes();
        final int me = team.myPe();
        final Random random = new Random(seed);
        final int count = 1 + random.nextInt(5) + (random.nextBoolean() ? 700 : 0); // crosses small scratch chunks
        final SymmetricLongs src = b.src;
        final SymmetricLongs dest = b.dest;
        for (int i = 0; i < Math.max(count * n * 2, 8); i++) // collect below reads up to 3 elements
        {
            src.setLocal(i, value(seed, team.worldPe(me), i));
        }
        team.sync();

        // broadcast from every root
        for (int root = 0; root < n; root++)
        {
            team.broadcast(dest, src, count, root);
            for (int i = 0; i < count; i++)
            {
                assertEquals(value(seed, team.worldPe(root), i), dest.getLocal(i), "broadcast root " + root + " element " + i);
            }
            team.sync();
        }

        // fcollect
        team.fcollect(dest, src, count);
        for (int r = 0; r < n; r++)
        {
            for (int i = 0; i < count; i++)
            {
                assertEquals(value(seed, team.worldPe(r), i), dest.getLocal((long)r * count + i), "fcollect block " + r);
            }
        }
        team.sync();

        // collect with per-PE counts (some zero)
        final int myCount = (me * 3 + (int)(seed & 7)) % 4;
        team.collect(dest, src, myCount);
        int at = 0;
        for (int r = 0; r < n; r++)
        {
            final int c = (r * 3 + (int)(seed & 7)) % 4;
            for (int i = 0; i < c; i++)
            {
                final int pos = at++;
                final int rr = r;
                final int ii = i;
                assertEquals(value(seed, team.worldPe(r), i), dest.getLocal(pos), () -> "collect block " + rr + " element " + ii + " at " + pos +
                    " counts " + java.util.stream.IntStream.range(0, n).map(q -> (q * 3 + (int)(seed & 7)) % 4).boxed().toList() +
                    " team " + team + " src[0..4) " + java.util.stream.LongStream.range(0, 4).map(src::getLocal).boxed().toList() +
                    " dest[0..4) " + java.util.stream.LongStream.range(0, 4).map(dest::getLocal).boxed().toList());
            }
        }
        team.sync();

        // alltoall: block j of PE i's source lands in block i of PE j's dest
        team.alltoall(dest, src, count);
        for (int r = 0; r < n; r++)
        {
            for (int i = 0; i < count; i++)
            {
                assertEquals(value(seed, team.worldPe(r), me * count + i), dest.getLocal((long)r * count + i), "alltoall block " + r);
            }
        }
        team.sync();

        // alltoalls with strides 2 (dest) and 1 (source), on a small count
        final int sc = Math.min(count, 5);
        team.alltoalls(dest, src, 2, 1, sc);
        for (int r = 0; r < n; r++)
        {
            for (int i = 0; i < sc; i++)
            {
                assertEquals(value(seed, team.worldPe(r), me * sc + i), dest.getLocal(2L * (r * sc + i)), "alltoalls block " + r);
            }
        }
        team.sync();

        reductions(team, seed, b, count);

        // scans
        team.sumInscan(dest, src, count);
        for (int i = 0; i < count; i++)
        {
            long sum = 0;
            for (int r = 0; r <= me; r++)
            {
                sum += value(seed, team.worldPe(r), i);
            }
            assertEquals(sum, dest.getLocal(i), "inscan element " + i);
        }
        team.sync();
        team.sumExscan(dest, src, count);
        for (int i = 0; i < count; i++)
        {
            long sum = 0;
            for (int r = 0; r < me; r++)
            {
                sum += value(seed, team.worldPe(r), i);
            }
            assertEquals(sum, dest.getLocal(i), "exscan element " + i);
        }
        team.sync();
        typedReductions(team, seed, b.typed, TYPED_COUNT);
    }

    /** Reductions on longs, every op, out of place and in place, each checked against the reference. */
    static void reductions(final Team team, final long seed, final Buffers b, final int count)
    {
        final int me = team.myPe();
        final SymmetricLongs src = b.src;
        final SymmetricLongs dest = b.dest;
        for (final ReduceOp op : ReduceOp.values())
        {
            team.reduce(op, dest, src, count);
            for (int i = 0; i < count; i++)
            {
                assertEquals(reference(op, seed, team, i), dest.getLocal(i), op + " element " + i);
            }
            team.sync();
        }
        final SymmetricLongs inPlace = dest.slice(0, count);
        for (int i = 0; i < count; i++)
        {
            inPlace.setLocal(i, value(seed, team.worldPe(me), i));
        }
        team.reduce(ReduceOp.SUM, inPlace, inPlace, count);
        for (int i = 0; i < count; i++)
        {
            assertEquals(reference(ReduceOp.SUM, seed, team, i), inPlace.getLocal(i), "in-place SUM element " + i);
        }
        team.sync();
    }

    static long value(final long seed, final int worldPe, final long i)
    {
        return ((seed * 31 + worldPe * 7L + i * 3) % 13 + 13) % 13 - 6; // small: exact in every type and in PROD
    }

    static long reference(final ReduceOp op, final long seed, final Team team, final long i)
    {
        long acc = value(seed, team.worldPe(0), i);
        for (int r = 1; r < team.nPes(); r++)
        {
            final long v = value(seed, team.worldPe(r), i);
            acc = switch (op)
            {
                case AND -> acc & v;
                case OR -> acc | v;
                case XOR -> acc ^ v;
                case MAX -> Math.max(acc, v);
                case MIN -> Math.min(acc, v);
                case SUM -> acc + v;
                case PROD -> acc * v;
            };
        }
        return acc;
    }

    /** SUM, MAX and (for integers) XOR on every element type, compared after widening to double/long. */
    private static void typedReductions(final Team team, final long seed, final List<SymmetricArray<?>> arrays, final int count)
    {
        final int me = team.worldPe(team.myPe());
        for (final SymmetricArray<?> a : arrays)
        {
            final boolean isChar = a instanceof SymmetricChars;
            for (int i = 0; i < count; i++)
            {
                store(a, i, isChar ? Math.abs(value(seed, me, i)) : value(seed, me, i));
            }
        }
        team.sync();
        for (final SymmetricArray<?> a : arrays)
        {
            final boolean integral = !(a instanceof SymmetricFloats || a instanceof SymmetricDoubles);
            final boolean isChar = a instanceof SymmetricChars;
            for (final ReduceOp op : integral ? new ReduceOp[] {ReduceOp.SUM, ReduceOp.MAX, ReduceOp.XOR} : new ReduceOp[] {ReduceOp.SUM, ReduceOp.MIN, ReduceOp.PROD})
            {
                reduceTyped(team, op, a, count);
                for (int i = 0; i < count; i++)
                {
                    long expect = isChar ? Math.abs(value(seed, team.worldPe(0), i)) : value(seed, team.worldPe(0), i);
                    for (int r = 1; r < team.nPes(); r++)
                    {
                        final long v = isChar ? Math.abs(value(seed, team.worldPe(r), i)) : value(seed, team.worldPe(r), i);
                        expect = switch (op)
                        {
                            case SUM -> expect + v;
                            case MAX -> Math.max(expect, v);
                            case MIN -> Math.min(expect, v);
                            case XOR -> expect ^ v;
                            case PROD -> expect * v;
                            default -> throw new AssertionError();
                        };
                    }
                    assertEquals(truncate(a, expect), load(a, count + i), 0.0, a.getClass().getSimpleName() + " " + op + " element " + i);
                }
                team.sync();
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void reduceTyped(final Team team, final ReduceOp op, final SymmetricArray a, final int count)
    {
        team.reduce(op, a.slice(count, count), a.slice(0, count), count);
    }

    private static void store(final SymmetricArray<?> a, final long i, final long v)
    {
        final MemorySegment s = a.segment();
        switch (a)
        {
            case SymmetricBytes b -> s.set(ValueLayout.JAVA_BYTE, i, (byte)v);
            case SymmetricShorts b -> s.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2 * i, (short)v);
            case SymmetricChars b -> s.set(ValueLayout.JAVA_CHAR_UNALIGNED, 2 * i, (char)v);
            case SymmetricInts b -> s.set(ValueLayout.JAVA_INT_UNALIGNED, 4 * i, (int)v);
            case SymmetricFloats b -> s.set(ValueLayout.JAVA_FLOAT_UNALIGNED, 4 * i, (float)v);
            case SymmetricDoubles b -> s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8 * i, (double)v);
            default -> throw new AssertionError(a);
        }
    }

    private static double load(final SymmetricArray<?> a, final long i)
    {
        final MemorySegment s = a.segment();
        return switch (a)
        {
            case SymmetricBytes b -> s.get(ValueLayout.JAVA_BYTE, i);
            case SymmetricShorts b -> s.get(ValueLayout.JAVA_SHORT_UNALIGNED, 2 * i);
            case SymmetricChars b -> s.get(ValueLayout.JAVA_CHAR_UNALIGNED, 2 * i);
            case SymmetricInts b -> s.get(ValueLayout.JAVA_INT_UNALIGNED, 4 * i);
            case SymmetricFloats b -> s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 4 * i);
            case SymmetricDoubles b -> s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8 * i);
            default -> throw new AssertionError(a);
        };
    }

    private static double truncate(final SymmetricArray<?> a, final long v)
    {
        return switch (a)
        {
            case SymmetricBytes b -> (byte)v;
            case SymmetricShorts b -> (short)v;
            case SymmetricChars b -> (char)v;
            case SymmetricInts b -> (int)v;
            case SymmetricFloats b -> (float)v;
            default -> (double)v;
        };
    }

    static void assertLongs(final long[] expected, final SymmetricLongs actual, final String what)
    {
        final long[] got = new long[expected.length];
        for (int i = 0; i < got.length; i++)
        {
            got[i] = actual.getLocal(i);
        }
        assertArrayEquals(expected, got, what);
    }
}
