package io.jshmem.runtime;

import io.jshmem.CollectiveMismatchException;
import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import io.jshmem.TeamConfig;
import io.jshmem.TeamExhaustedException;
import io.jshmem.TeamMesh;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Team creation, translation, split rules, split2d, meshes, slot exhaustion and reuse, SHMEM_DEBUG checks. */
class TeamsThreadsTest
{
    private static final long SEED = Long.getLong("jshmem.test.seed", System.nanoTime());

    /** The membership a split must produce: parent PE start + i*stride is member i. */
    private static int expectedIndex(final int parentPe, final int start, final int stride, final int size)
    {
        for (int i = 0; i < size; i++)
        {
            if (start + i * stride == parentPe)
            {
                return i;
            }
        }
        return -1;
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void randomSplitsMatchTheArithmeticDefinition(final int n) throws Exception
    {
        System.out.println("TeamsThreadsTest seed=" + SEED + " n=" + n);
        ThreadPes.run(n, Map.of(), shmem -> {
            final Random random = new Random(SEED + n); // same on every PE: same triplets everywhere
            final Team world = shmem.teamWorld();
            final SymmetricLongs box = shmem.allocateLongs(2);
            final CollectivesThreadsTest.Buffers buffers = new CollectivesThreadsTest.Buffers(shmem);
            assertEquals(shmem.myPe(), world.myPe());
            assertEquals(n, world.nPes());
            for (int round = 0; round < 12; round++)
            {
                // a random valid triplet over WORLD, then a random valid triplet over that team
                final int[] t = randomTriplet(random, n);
                final Team team = world.splitStrided(t[0], t[1], t[2]);
                final int idx = expectedIndex(shmem.myPe(), t[0], t[1], t[2]);
                assertEquals(idx, team.myPe(), "membership of split " + java.util.Arrays.toString(t));
                assertEquals(idx >= 0, team.isValid());
                if (team.isValid())
                {
                    assertEquals(t[2], team.nPes());
                    for (int i = 0; i < t[2]; i++)
                    {
                        final int w = t[0] + i * t[1];
                        assertEquals(w, team.translatePe(i, world), "translate " + i + " to WORLD");
                        assertEquals(i, world.translatePe(w, team), "translate back");
                    }
                    assertEquals(-1, team.translatePe(t[2], world));
                    // a reduction over the team gives the sum of its WORLD numbers
                    box.setLocal(0, shmem.myPe());
                    team.reduce(ReduceOp.SUM, box.slice(1, 1), box.slice(0, 1), 1);
                    long sum = 0;
                    for (int i = 0; i < t[2]; i++)
                    {
                        sum += t[0] + (long)i * t[1];
                    }
                    assertEquals(sum, box.getLocal(1));
                    if (round % 3 == 0)
                    {
                        CollectivesThreadsTest.runAll(team, SEED + round, buffers); // every collective on a random shape
                    }
                    // split again, relative to the team (parent-relative arguments)
                    final int[] u = randomTriplet(new Random(SEED + round), t[2]);
                    final Team sub = team.splitStrided(u[0], u[1], u[2]);
                    final int subIdx = expectedIndex(team.myPe(), u[0], u[1], u[2]);
                    assertEquals(subIdx, sub.myPe());
                    if (sub.isValid())
                    {
                        assertEquals(t[0] + (u[0] + subIdx * u[1]) * t[1], sub.translatePe(subIdx, world));
                        assertEquals(team.myPe(), sub.translatePe(sub.myPe(), team));
                        sub.sync();
                    }
                    sub.close();
                    team.close();
                }
                assertSame(idx < 0 ? Team.INVALID : team, team);
            }
            buffers.free(shmem);
            shmem.free(box);
        });
    }

    private static int[] randomTriplet(final Random random, final int n)
    {
        final int size = 1 + random.nextInt(n);
        if (size == 1)
        {
            return new int[] {random.nextInt(n), random.nextInt(3) - 1 == 0 ? 0 : 1, 1};
        }
        final int maxStride = (n - 1) / (size - 1);
        final int stride = (1 + random.nextInt(maxStride)) * (random.nextBoolean() ? 1 : -1);
        final int span = (size - 1) * Math.abs(stride);
        final int low = random.nextInt(n - span);
        return new int[] {stride > 0 ? low : low + span, stride, size};
    }

    @Test
    void invalidTripletsAreRejectedOnEveryPe() throws Exception
    {
        ThreadPes.run(3, Map.of(), shmem -> {
            final Team world = shmem.teamWorld();
            for (final int[] t : new int[][] {{0, 1, 4}, {2, 1, 2}, {0, 0, 2}, {-1, 1, 1}, {1, -2, 2}, {0, 1, 0}})
            {
                final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> world.splitStrided(t[0], t[1], t[2]));
                assertTrue(ex.getMessage().startsWith("[pe " + shmem.myPe() + "/3]"), ex.getMessage());
            }
            // the team still works afterwards
            world.sync();
            assertEquals(-1, Team.INVALID.myPe());
            assertEquals(-1, Team.INVALID.translatePe(0, world));
            Team.INVALID.close();
        });
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {5, 8})
    void split2dRaggedRowsAndColumns(final int n) throws Exception
    {
        ThreadPes.run(n, Map.of(), shmem -> {
            final int me = shmem.myPe();
            for (final int xrange : new int[] {1, 2, 3, n, n + 4})
            {
                final int xr = Math.min(xrange, n);
                try (Team.Split2d s = shmem.teamWorld().split2d(xrange))
                {
                    assertEquals(me % xr, s.x().myPe(), "x of " + me + " xrange " + xrange);
                    assertEquals(me / xr, s.y().myPe(), "y");
                    assertEquals(Math.min(xr, n - (me / xr) * xr), s.x().nPes(), "row length (the last row may be short)");
                    assertEquals((n - me % xr + xr - 1) / xr, s.y().nPes(), "column length");
                    assertEquals(me, s.x().translatePe(s.x().myPe(), shmem.teamWorld()));
                    assertEquals(me, s.y().translatePe(s.y().myPe(), shmem.teamWorld()));
                    s.x().sync();
                    s.y().sync();
                }
            }
        });
    }

    /**
     * The small reductions, alltoall and barrier run back to back in real programs; on a fresh JVM every page their
     * garbage touches is a first-touch fault (measured on 16 cores: an 8-byte reduce at 8 PEs took 2.6 µs while the
     * young generation was still being touched, 1.2 µs once it was). Each must allocate next to nothing per call once
     * warm: measured per PE thread, after warm-up, over many calls, for every algorithm that runs at these sizes
     * (here, 4 PEs as threads of one JVM: 0 bytes for direct, alltoall and sync, 56 for linear and recursive doubling,
     * down from 272-512; as processes under shmemrun every one of them measured 0 bytes per call once warm). Split (two
     * groups of two) covers the reduction between owners and the alltoall between groups: 336 bytes per call before
     * their accumulator and gather buffer became the team's. Broadcast and fcollect took 96 and 152 bytes per call here
     * before they passed blocks by offsets.
     */
    @ParameterizedTest
    @ValueSource(strings = {"linear", "recursive_doubling", "direct", "split"})
    void backToBackSmallCollectivesAllocateNothing(final String reduce) throws Exception
    {
        // split: two groups of two, so the reduction is split between owners and alltoall runs between groups
        final Map<String, String> env = reduce.equals("split") ? Map.of("SHMEM_REDUCE_ALGORITHM", reduce, "SHMEM_TEAM_GROUP_SIZE", "2")
            : Map.of("SHMEM_REDUCE_ALGORITHM", reduce);
        ThreadPes.run(4, env, shmem -> {
            final SymmetricLongs src = shmem.allocateLongs(4 * 256);
            final SymmetricLongs dest = shmem.allocateLongs(4 * 256);
            final Team world = shmem.teamWorld();
            final com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
            final long[] counts = {1, 256};
            for (final long count : counts)
            {
                final Runnable[] ops = {
                    () -> world.reduce(ReduceOp.SUM, dest, src, count),
                    () -> world.reduce(ReduceOp.MAX, dest.slice(0, count), src.slice(0, count), count), // new handles each call
                    () -> world.alltoall(dest, src, count),
                    world::sync,
                    () -> world.broadcast(dest, src, count, 1),
                    () -> world.fcollect(dest, src, count),
                };
                for (int k = 0; k < ops.length; k++)
                {
                    for (int i = 0; i < 3000; i++)
                    {
                        ops[k].run();
                    }
                    final int calls = 2000;
                    final long before = mx.getCurrentThreadAllocatedBytes();
                    for (int i = 0; i < calls; i++)
                    {
                        ops[k].run();
                    }
                    final long perCall = (mx.getCurrentThreadAllocatedBytes() - before) / calls;
                    // op 1 makes two slice handles per call in this test (160 bytes)
                    assertTrue(perCall <= (k == 1 ? 256 : 64), "[pe " + shmem.myPe() + "] op " + k + " (" + reduce + ", count " + count +
                        ") allocated " + perCall + " bytes per call");
                }
            }
            shmem.free(dest);
            shmem.free(src);
        });
    }

    @Test
    void meshGivesOneTeamPerDimension() throws Exception
    {
        ThreadPes.run(8, Map.of(), shmem -> {
            final int me = shmem.myPe();
            final SymmetricLongs v = shmem.allocateLongs(2);
            try (TeamMesh mesh = shmem.teamWorld().mesh(new String[] {"dp", "pp", "tp"}, 2, 2, 2))
            {
                assertEquals(3, mesh.dimensions());
                assertEquals(me / 4, mesh.coordinate(0));
                assertEquals((me / 2) % 2, mesh.coordinate(1));
                assertEquals(me % 2, mesh.coordinate(2));
                assertEquals(me, mesh.peAt(mesh.coordinates()));
                final Team tp = mesh.team("tp");
                assertSame(tp, mesh.team(2));
                assertEquals(mesh.coordinate(2), tp.myPe());
                v.setLocal(0, me);
                tp.reduce(ReduceOp.SUM, v.slice(1, 1), v.slice(0, 1), 1);
                assertEquals((me & ~1) * 2 + 1, v.getLocal(1), "tp pairs are {2k, 2k+1}");
                mesh.team("dp").reduce(ReduceOp.SUM, v.slice(1, 1), v.slice(0, 1), 1);
                assertEquals(2L * (me % 4) + 4, v.getLocal(1), "dp pairs are {k, k+4}");
                assertThrows(IllegalArgumentException.class, () -> mesh.team("ep"));
            }
            try (TeamMesh mesh = shmem.teamWorld().mesh(4, 2))
            {
                assertEquals(4, mesh.team(0).nPes());
                assertEquals(2, mesh.team("d1").nPes());
            }
            assertThrows(IllegalArgumentException.class, () -> shmem.teamWorld().mesh(3, 3));
            shmem.free(v);
        });
    }

    @Test
    void slotsRunOutRecoverablyAndAreReused() throws Exception
    {
        ThreadPes.run(3, Map.of("SHMEM_TEAMS_MAX", "8"), shmem -> {
            final long heapBefore = shmem.heapUsedBytes();
            final List<Team> teams = new ArrayList<>();
            for (int i = 0; i < 5; i++)
            {
                teams.add(shmem.teamWorld().splitStrided(0, 1, 3, new TeamConfig(1)));
            }
            final TeamExhaustedException ex = assertThrows(TeamExhaustedException.class, () -> shmem.teamWorld().splitStrided(0, 1, 2));
            assertTrue(ex.getMessage().contains("SHMEM_TEAMS_MAX"), ex.getMessage());
            assertEquals(1, teams.get(0).config().numContexts());
            teams.remove(2).close();
            final Team again = shmem.teamWorld().splitStrided(0, 1, 3);
            again.sync();
            again.close();
            for (final Team t : teams)
            {
                t.close();
            }
            // thousands of teams over the job's life, a handful of slots
            for (int i = 0; i < 1000; i++)
            {
                final Team t = shmem.teamWorld().splitStrided(i % 3, 0, 1);
                if (t.isValid())
                {
                    t.sync();
                }
                t.close();
            }
            assertEquals(heapBefore, shmem.heapUsedBytes());
            assertThrows(IllegalStateException.class, () -> shmem.teamWorld().close());
            final Team dead = shmem.teamWorld().splitStrided(0, 1, 3);
            dead.close();
            dead.close(); // no-op
            assertThrows(IllegalStateException.class, dead::sync);
        });
    }

    @Test
    void predefinedTeamsOnOneNode() throws Exception
    {
        ThreadPes.run(3, Map.of(), shmem -> {
            assertEquals(3, shmem.teamShared().nPes());
            assertEquals(3, shmem.teamNode().nPes());
            assertEquals(shmem.myPe(), shmem.teamNode().myPe());
            assertNotNull(shmem.teamShared().ptr(shmem.allocateLongs(1), (shmem.myPe() + 1) % 3));
            shmem.teamShared().sync();
            shmem.teamNode().sync();
            assertSame(shmem.teamWorld(), shmem.team());
        });
    }

    @Test
    void debugDetectsMismatchedCollectives() throws Exception
    {
        ThreadPes.run(3, Map.of("SHMEM_DEBUG", "1"), shmem -> {
            final SymmetricLongs a = shmem.allocateLongs(8);
            final SymmetricLongs b = shmem.allocateLongs(8);
            final int count = shmem.myPe() == 1 ? 5 : 4;
            final CollectiveMismatchException ex = assertThrows(CollectiveMismatchException.class,
                () -> shmem.teamWorld().broadcast(a, b, count, 0));
            assertTrue(ex.getMessage().contains("team pe 1"), ex.getMessage());
            if (shmem.myPe() == 2)
            {
                assertThrows(CollectiveMismatchException.class, () -> shmem.teamWorld().reduce(ReduceOp.SUM, a, b, 4));
            }
            else
            {
                assertThrows(CollectiveMismatchException.class, () -> shmem.teamWorld().fcollect(a, b, 2));
            }
            shmem.barrierAll();
            assertFalse(Team.INVALID.isValid());
        });
    }
}
