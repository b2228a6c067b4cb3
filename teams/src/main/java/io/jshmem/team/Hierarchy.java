package io.jshmem.team;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * A team's two-level layout for node-aware collectives: the members grouped by node (or, with
 * {@code SHMEM_TEAM_GROUP_SIZE}, by blocks of consecutive team PEs), the lowest team PE of each group
 * its leader. Every member computes the same layout from the same inputs.
 *
 * @param group       team PEs of this PE's group, ascending; {@code group[0]} is its leader.
 * @param myIndex     this PE's index in {@code group}.
 * @param leaders     team PEs of every group's leader, ascending.
 * @param leaderIndex this PE's index in {@code leaders}, or -1.
 * @param maxGroup    the largest group's size (sizes scratch buffers identically on every member).
 * @param leaderOf    the leader of every team PE's group.
 * @param groups      every group's team PEs, ascending, in the order of {@code leaders}.
 * @param groupIndex  the index of this PE's group in {@code groups}.
 * @param sameIndex   the member at index {@code myIndex} of every group, in the order of {@code groups}, or -1 where a
 *                    group is smaller (a split reduction's owners of this PE's slice).
 */
record Hierarchy(int[] group, int myIndex, int[] leaders, int leaderIndex, int maxGroup, int[] leaderOf, int[][] groups, int groupIndex,
    int[] sameIndex)
{
    static Hierarchy of(final int size, final int me, final IntUnaryOperator groupOf)
    {
        final List<Integer> groupIds = new ArrayList<>();
        final List<List<Integer>> groups = new ArrayList<>();
        for (int r = 0; r < size; r++)
        {
            final int g = groupOf.applyAsInt(r);
            int at = groupIds.indexOf(g);
            if (at < 0)
            {
                groupIds.add(g);
                groups.add(new ArrayList<>());
                at = groups.size() - 1;
            }
            groups.get(at).add(r);
        }
        final int[] leaders = new int[groups.size()];
        final int[] leaderOf = new int[size];
        final int[][] all = new int[groups.size()][];
        int maxGroup = 0;
        int[] mine = null;
        int leaderIndex = -1;
        int groupIndex = -1;
        for (int i = 0; i < groups.size(); i++)
        {
            final List<Integer> g = groups.get(i);
            leaders[i] = g.get(0); // groups are filled in rank order, so the first is the lowest
            maxGroup = Math.max(maxGroup, g.size());
            all[i] = g.stream().mapToInt(Integer::intValue).toArray();
            for (final int r : g)
            {
                leaderOf[r] = g.get(0);
            }
            if (g.contains(me))
            {
                mine = all[i];
                groupIndex = i;
                leaderIndex = g.get(0) == me ? i : -1;
            }
        }
        int myIndex = 0;
        while (mine[myIndex] != me)
        {
            myIndex++;
        }
        final int[] sameIndex = new int[all.length];
        for (int i = 0; i < all.length; i++)
        {
            sameIndex[i] = myIndex < all[i].length ? all[i][myIndex] : -1;
        }
        return new Hierarchy(mine, myIndex, leaders, leaderIndex, maxGroup, leaderOf, all, groupIndex, sameIndex);
    }

    /**
     * @return whether every group is a run of consecutive team ranks and the groups follow each other in rank order
     *         (ranks placed block-wise by node): then any run of consecutive groups holds consecutive ranks.
     */
    boolean blockwise()
    {
        int next = 0;
        for (final int[] g : groups)
        {
            if (g[0] != next || g[g.length - 1] != next + g.length - 1)
            {
                return false;
            }
            next += g.length;
        }
        return true;
    }

    /** @return the smallest group's size. */
    int minGroup()
    {
        int min = Integer.MAX_VALUE;
        for (final int[] g : groups)
        {
            min = Math.min(min, g.length);
        }
        return min;
    }

    /** @return true when the layout has more than one group and some group of more than one PE. */
    boolean isTwoLevel()
    {
        return leaders.length > 1 && maxGroup > 1;
    }
}
