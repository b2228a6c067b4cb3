package io.jshmem.team;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two-level layouts for the groupings NodeLayoutTest does not cover: blocks of consecutive team PEs
 * ({@code SHMEM_TEAM_GROUP_SIZE}) with a short last block, arbitrary (negative, sparse) group ids,
 * interleaved groups, and the degenerate one-group and one-PE-per-group layouts that are not two-level.
 */
class HierarchyTest
{
    @Test
    void blocksOfConsecutivePesWithAShortLastBlock()
    {
        final int size = 10;
        final int block = 4;
        final IntUnaryOperator groupOf = r -> r / block;
        for (int me = 0; me < size; me++)
        {
            final Hierarchy h = Hierarchy.of(size, me, groupOf);
            final int first = me / block * block;
            final int[] group = java.util.stream.IntStream.range(first, Math.min(size, first + block)).toArray();
            assertArrayEquals(group, h.group(), "group of " + me);
            assertEquals(me - first, h.myIndex());
            assertArrayEquals(new int[] {0, 4, 8}, h.leaders());
            assertEquals(me % block == 0 ? me / block : -1, h.leaderIndex(), "leader index of " + me);
            assertEquals(block, h.maxGroup(), "the largest group, not the last one");
            assertArrayEquals(new int[] {0, 0, 0, 0, 4, 4, 4, 4, 8, 8}, h.leaderOf());
            assertTrue(h.isTwoLevel());
        }
    }

    @Test
    void groupIdsAreLabelsNotIndexes()
    {
        // ids negative, sparse and decreasing; groups are still ordered by their lowest member
        final int[] ids = {-7, 1000, -7, 42, 1000, 42};
        final Hierarchy h = Hierarchy.of(ids.length, 4, r -> ids[r]);
        assertArrayEquals(new int[] {0, 1, 3}, h.leaders());
        assertArrayEquals(new int[] {1, 4}, h.group());
        assertEquals(1, h.myIndex());
        assertEquals(-1, h.leaderIndex());
        assertArrayEquals(new int[] {0, 1, 0, 3, 1, 3}, h.leaderOf());
        assertEquals(2, h.maxGroup());
        final Hierarchy leader = Hierarchy.of(ids.length, 3, r -> ids[r]);
        assertEquals(2, leader.leaderIndex(), "PE 3 leads the third group");
        assertArrayEquals(new int[] {3, 5}, leader.group());
        assertEquals(0, leader.myIndex());
    }

    @Test
    void blockwiseOnlyWhereGroupsAreConsecutiveRanksInRankOrder()
    {
        final int[][] yes = {{0, 0, 1, 1, 1, 2}, {5, 5, 9}, {0, 1, 2, 3}, {0, 0, 0}};
        for (final int[] ids : yes)
        {
            assertTrue(Hierarchy.of(ids.length, 0, r -> ids[r]).blockwise(), Arrays.toString(ids));
        }
        final int[][] no = {{0, 1, 0, 1}, {0, 0, 1, 0}, {0, 1, 1, 0}};
        for (final int[] ids : no)
        {
            assertFalse(Hierarchy.of(ids.length, 0, r -> ids[r]).blockwise(), Arrays.toString(ids));
        }
    }

    @Test
    void interleavedGroupsKeepRankOrderWithinEachGroup()
    {
        final int size = 9;
        final Hierarchy h = Hierarchy.of(size, 7, r -> r % 3);
        assertArrayEquals(new int[] {1, 4, 7}, h.group());
        assertEquals(2, h.myIndex());
        assertArrayEquals(new int[] {0, 1, 2}, h.leaders());
        assertArrayEquals(new int[] {0, 1, 2, 0, 1, 2, 0, 1, 2}, h.leaderOf());
        assertEquals(3, h.maxGroup());
        assertTrue(h.isTwoLevel());
    }

    @Test
    void oneGroupOrOnePePerGroupIsNotTwoLevel()
    {
        for (int size = 1; size <= 6; size++)
        {
            for (int me = 0; me < size; me++)
            {
                final Hierarchy together = Hierarchy.of(size, me, r -> 0);
                assertFalse(together.isTwoLevel(), "one group of " + size);
                assertArrayEquals(new int[] {0}, together.leaders());
                assertEquals(size, together.group().length);
                assertEquals(me, together.myIndex());
                assertEquals(me == 0 ? 0 : -1, together.leaderIndex());
                assertEquals(size, together.maxGroup());

                final Hierarchy apart = Hierarchy.of(size, me, r -> r);
                assertFalse(apart.isTwoLevel(), size + " groups of one");
                assertArrayEquals(new int[] {me}, apart.group());
                assertEquals(0, apart.myIndex());
                assertEquals(me, apart.leaderIndex(), "every PE leads its own group");
                assertEquals(1, apart.maxGroup());
                final int[] identity = java.util.stream.IntStream.range(0, size).toArray();
                assertArrayEquals(identity, apart.leaders());
                assertArrayEquals(identity, apart.leaderOf());
            }
        }
    }

    @Test
    void twoGroupsOfWhichOneIsASinglePeAreTwoLevel()
    {
        final Hierarchy h = Hierarchy.of(3, 2, r -> r < 2 ? 0 : 1);
        assertTrue(h.isTwoLevel());
        assertArrayEquals(new int[] {2}, h.group());
        assertEquals(1, h.leaderIndex());
        assertEquals(2, h.maxGroup());
    }

    @Test
    void everyMemberComputesTheSameSharedParts()
    {
        final int[] ids = {3, 3, 1, 2, 1, 3, 2, 2, 1, 5};
        final Hierarchy h0 = Hierarchy.of(ids.length, 0, r -> ids[r]);
        int leadersSeen = 0;
        for (int me = 0; me < ids.length; me++)
        {
            final Hierarchy h = Hierarchy.of(ids.length, me, r -> ids[r]);
            assertArrayEquals(h0.leaders(), h.leaders(), "leaders seen by " + me);
            assertArrayEquals(h0.leaderOf(), h.leaderOf(), "leaderOf seen by " + me);
            assertEquals(h0.maxGroup(), h.maxGroup());
            assertEquals(h.leaderOf()[me], h.group()[0]);
            if (h.leaderIndex() >= 0)
            {
                assertEquals(me, h.leaders()[h.leaderIndex()]);
                leadersSeen++;
            }
            for (final int r : h.group())
            {
                assertEquals(ids[me], ids[r], "group of " + me + " is " + Arrays.toString(h.group()));
            }
        }
        assertEquals(h0.leaders().length, leadersSeen, "each leader knows it leads");
        assertArrayEquals(new int[] {0, 2, 3, 9}, h0.leaders());
    }
}
