package io.jshmem.team;

import io.jshmem.SymmetricArray;

import java.lang.foreign.MemorySegment;

/**
 * Collectives across nodes with node-level aggregation, for groups (nodes) whose members map each other's heaps: a
 * node's members share the work of sending what their node sends another node, so that a member sends and receives
 * one message per other node instead of one per member of the other nodes. Ranks are team ranks. Each method runs one
 * phase ({@link Channel#next()} called inside).
 */
final class Aggregate
{
    /** The largest gather buffer of {@link #alltoall}, in bytes: a longer run of blocks is sent in several puts. */
    static final long GATHER_BYTES = 1L << 20;

    private Aggregate()
    {
    }

    /**
     * Alltoall with node-level aggregation (for groups whose members map each other's heaps): every message between
     * groups carries everything one group sends one member of another. Member t of group A is the forwarder of A for
     * member u of every other group B where {@code u % |A| == t}: it gathers, by loads from its group's mapped sources,
     * the blocks of A's members addressed to that member (consecutive in its dest where A's ranks are) and puts them
     * into its dest in one message, then signals. So a member sends and receives about one message per other group
     * (linear: one per member of the other groups), every message in flight at once, straight into dest: no scratch,
     * no chunks, one round between groups at any size. A member copies the blocks its own group's members address to
     * it from their sources itself. Steps: 0 a member's source is ready (to its group), 1 a forwarder's message
     * (between groups), 2 a forwarder finished reading the group's sources (to its group; a member returns only then,
     * since the caller may write its source next).
     *
     * @param srcs every member's copy of src in this PE's group (group order), mapped
     */
    static void alltoall(final Channel c, final Hierarchy h, final SymmetricArray<?> dest, final MemorySegment[] srcs,
        final long count)
    {
        c.next();
        final int[] group = h.group();
        final int t = h.myIndex();
        final int[][] groups = h.groups();
        final int k = groups.length;
        final int a = h.groupIndex();
        final int eb = dest.elementBytes();
        final long blockBytes = count * eb;
        for (final int member : group)
        {
            if (member != c.me)
            {
                c.signal(member, 0);
            }
        }
        for (final int member : group)
        {
            if (member != c.me)
            {
                c.await(member, 0);
            }
        }
        final int perBuffer = (int)Math.max(1, Math.min(group.length, GATHER_BYTES / blockBytes));
        final MemorySegment gather = perBuffer > 1 ? c.acc(perBuffer * blockBytes) : null; // reused: no allocation per call
        for (int d = 1; d < k; d++)
        {
            final int[] to = groups[(a + d) % k];
            for (int u = t; u < to.length; u += group.length)
            {
                final int m = to[u];
                int i = 0;
                while (i < group.length)
                {
                    int run = 1;
                    while (run < perBuffer && i + run < group.length && group[i + run] == group[i] + run)
                    {
                        run++;
                    }
                    final MemorySegment data;
                    if (run == 1)
                    {
                        data = srcs[i].asSlice(m * blockBytes, blockBytes);
                    }
                    else
                    {
                        for (int j = 0; j < run; j++)
                        {
                            MemorySegment.copy(srcs[i + j], m * blockBytes, gather, j * blockBytes, blockBytes);
                        }
                        data = gather.asSlice(0, run * blockBytes);
                    }
                    c.put(dest, group[i] * count, data, m);
                    i += run;
                }
                c.ctx.fence();
                c.signal(m, 1);
            }
        }
        final MemorySegment mine = dest.segment();
        for (int j = 0; j < group.length; j++)
        {
            if (j != t)
            {
                MemorySegment.copy(srcs[j], c.me * blockBytes, mine, group[j] * blockBytes, blockBytes);
            }
        }
        for (final int member : group)
        {
            if (member != c.me)
            {
                c.signal(member, 2);
            }
        }
        for (int d = 1; d < k; d++)
        {
            final int[] from = groups[(a - d + k) % k];
            c.await(from[t % from.length], 1);
        }
        for (final int member : group)
        {
            if (member != c.me)
            {
                c.await(member, 2);
            }
        }
    }
}
