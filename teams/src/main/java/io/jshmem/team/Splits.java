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
        final Triplet child = new Triplet(start, stride, size);
        final int index = child.indexOf(parent.myPe());
        if (index < 0)
        {
            return Team.INVALID;
        }
        return join(registry, slot, child.in(parent.triplet()), index, orDefault(cfg), "split of " + parent.name());
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
        final Team row = join(registry, slots[0], row(n, xrange, me).in(parent.triplet()), me % xrange, orDefault(xConfig),
            "row " + me / xrange + " of " + parent.name());
        final Team col = join(registry, slots[1], column(n, xrange, me).in(parent.triplet()), me / xrange, orDefault(yConfig),
            "column " + me % xrange + " of " + parent.name());
        return new Team.Split2d(row, col);
    }

    private static Team join(final TeamRegistry registry, final int slot, final Triplet world, final int index, final TeamConfig config,
        final String name)
    {
        return registry.join(slot, world.start(), world.stride(), world.size(), index, config, name);
    }

    /** @return split_2d's x team of parent PE p (its row: same p div xrange, numbered by p mod xrange), relative to the parent. */
    static Triplet row(final int n, final int xrange, final int p)
    {
        final int rowStart = p / xrange * xrange;
        return new Triplet(rowStart, 1, Math.min(xrange, n - rowStart));
    }

    /** @return split_2d's y team of parent PE p (its column: same p mod xrange, numbered by p div xrange), relative to the parent. */
    static Triplet column(final int n, final int xrange, final int p)
    {
        final int x = p % xrange;
        return new Triplet(x, xrange, (n - x + xrange - 1) / xrange);
    }

    /** @return the row-major coordinates of PE p in a mesh of this shape. */
    static int[] coordinates(final int[] shape, final int p)
    {
        final int[] coords = new int[shape.length];
        int rest = p;
        for (int d = shape.length - 1; d >= 0; d--)
        {
            coords[d] = rest % shape[d];
            rest /= shape[d];
        }
        return coords;
    }

    /** @return the team of PE p along mesh dimension d: the PEs whose other coordinates equal p's, numbered by coordinate d. */
    static Triplet meshDimension(final int[] shape, final int p, final int d)
    {
        int dimStride = 1;
        for (int e = d + 1; e < shape.length; e++)
        {
            dimStride *= shape[e];
        }
        final int coord = p / dimStride % shape[d];
        return new Triplet(p - coord * dimStride, dimStride, shape[d]);
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
        final int[] coords = coordinates(shape, me);
        final Team[] teams = new Team[dims];
        for (int d = 0; d < dims; d++)
        {
            teams[d] = join(registry, slots[d], meshDimension(shape, me, d).in(parent.triplet()), coords[d], TeamConfig.DEFAULT,
                "mesh dimension " + names[d] + " of " + parent.name());
        }
        return new TeamMesh(parent, names, shape, coords, teams);
    }
}
