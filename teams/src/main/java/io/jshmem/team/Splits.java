package io.jshmem.team;

import io.jshmem.Team;
import io.jshmem.TeamConfig;
import io.jshmem.TeamMesh;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

/**
 * Team creation from a parent: split_strided, split_2d and meshes. Each is one phase of the parent
 * (the slot agreement, {@link TeamRegistry#agreeOnSlots}); argument errors are detected from the
 * arguments alone, so every PE of the parent throws the same exception without communicating.
 * Called by {@link TeamImpl} inside its collective guard.
 */
final class Splits
{
    private Splits()
    {
    }

    private static TeamConfig orDefault(final TeamConfig c)
    {
        return c == null ? TeamConfig.DEFAULT : c;
    }

    static Team strided(final TeamImpl parent, final int start, final int stride, final int size, final TeamConfig cfg)
    {
        final TeamRegistry registry = parent.registry();
        final String bad = checkTriplet(parent.nPes(), start, stride, size);
        if (bad != null)
        {
            throw new IllegalArgumentException(registry.prefix + "splitStrided(start=" + start + ", stride=" + stride + ", size=" +
                size + ") of " + parent + ": " + bad);
        }
        final int slot = registry.agreeOnSlots(parent, parent.channel(), 1)[0];
        final int d = parent.myPe() - start;
        final int index = stride == 0 ? (d == 0 ? 0 : -1) : (d % stride == 0 && d / stride >= 0 && d / stride < size ? d / stride : -1);
        if (index < 0)
        {
            return Team.INVALID;
        }
        return registry.join(slot, parent.worldPe(start), parent.stride() * stride, size, index, orDefault(cfg),
            "split of " + parent.name());
    }

    /** @return why the triplet is not a team of the parent's PEs, or null. */
    static String checkTriplet(final int parentSize, final int start, final int stride, final int size)
    {
        if (size < 1)
        {
            return "size must be at least 1";
        }
        if (stride == 0 && size != 1)
        {
            return "stride 0 requires size 1";
        }
        if (start < 0 || start >= parentSize)
        {
            return "start outside the parent's PEs [0, " + parentSize + ")";
        }
        final long last = start + (long)(size - 1) * stride;
        if (last < 0 || last >= parentSize)
        {
            return "the last member " + last + " falls outside the parent's PEs [0, " + parentSize + ") (triplets do not wrap)";
        }
        return null;
    }

    static Team.Split2d twoD(final TeamImpl parent, final int xrangeArg, final TeamConfig xConfig, final TeamConfig yConfig)
    {
        final TeamRegistry registry = parent.registry();
        final int n = parent.nPes();
        if (xrangeArg < 1)
        {
            throw new IllegalArgumentException(registry.prefix + "split2d(xrange=" + xrangeArg + ") of " + parent + ": xrange must be at least 1");
        }
        final int xrange = Math.min(xrangeArg, n);
        final int[] slots = registry.agreeOnSlots(parent, parent.channel(), 2);
        final int me = parent.myPe();
        final int x = me % xrange;
        final int y = me / xrange;
        final int rowStart = y * xrange;
        final int rowSize = Math.min(xrange, n - rowStart);
        final int colSize = (n - x + xrange - 1) / xrange;
        final Team row = registry.join(slots[0], parent.worldPe(rowStart), parent.stride(), rowSize, x, orDefault(xConfig),
            "row " + y + " of " + parent.name());
        final Team col = registry.join(slots[1], parent.worldPe(x), parent.stride() * xrange, colSize, y, orDefault(yConfig),
            "column " + x + " of " + parent.name());
        return new Team.Split2d(row, col);
    }

    static TeamMesh mesh(final TeamImpl parent, final String[] names, final int[] shape)
    {
        final TeamRegistry registry = parent.registry();
        final int n = parent.nPes();
        long product = 1;
        for (final int e : shape)
        {
            product = e < 1 ? -1 : product * e;
            if (product < 0)
            {
                break;
            }
        }
        if (shape.length == 0 || product != n || names.length != shape.length || new HashSet<>(List.of(names)).size() != names.length)
        {
            throw new IllegalArgumentException(registry.prefix + "mesh(names=" + Arrays.toString(names) + ", shape=" +
                Arrays.toString(shape) + ") of " + parent + ": needs one distinct name per dimension, extents >= 1, " +
                "and a product equal to the team's " + n + " PEs");
        }
        final int dims = shape.length;
        final int[] slots = registry.agreeOnSlots(parent, parent.channel(), dims);
        final int me = parent.myPe();
        final int[] coords = new int[dims];
        final Team[] teams = new Team[dims];
        int dimStride = n;
        for (int d = 0; d < dims; d++)
        {
            dimStride /= shape[d];
            coords[d] = (me / dimStride) % shape[d];
            final int first = me - coords[d] * dimStride;
            teams[d] = registry.join(slots[d], parent.worldPe(first), parent.stride() * dimStride, shape[d], coords[d], TeamConfig.DEFAULT,
                "mesh dimension " + names[d] + " of " + parent.name());
        }
        return new TeamMesh(parent, names, shape, coords, teams);
    }
}
