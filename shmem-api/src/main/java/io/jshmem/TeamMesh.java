package io.jshmem;

import java.util.Arrays;

/**
 * An N-dimensional grid over a team (PyTorch's DeviceMesh): the parent's PEs laid out row-major in a
 * grid of the given shape, and for each dimension this PE's team along it (the PEs that share every
 * other coordinate). Every dimension's teams are made once, with one strided split per dimension, when
 * the mesh is created; lookups are array reads. Made by {@link Team#mesh}; {@link #close()} destroys the
 * dimension teams (collective over the parent).
 * <pre>{@code
 * try (TeamMesh mesh = shmem.teamWorld().mesh(new String[] {"dp", "tp"}, 2, 4)) {
 *     mesh.team("tp").reduce(ReduceOp.SUM, grads, grads, n);   // inside a row of 4
 *     mesh.team("dp").broadcast(weights, weights, n, 0);        // down a column of 2
 * }
 * }</pre>
 */
public final class TeamMesh implements AutoCloseable
{
    private final Team parent;
    private final int[] shape;
    private final String[] names;
    private final int[] coordinates;
    private final Team[] teams;

    /**
     * Runtime use: the teams are already created.
     *
     * @param parent      the team the mesh slices.
     * @param names       one name per dimension.
     * @param shape       the extent of each dimension.
     * @param coordinates this PE's coordinate in each dimension.
     * @param teams       this PE's team along each dimension.
     */
    public TeamMesh(final Team parent, final String[] names, final int[] shape, final int[] coordinates, final Team[] teams)
    {
        this.parent = parent;
        this.names = names.clone();
        this.shape = shape.clone();
        this.coordinates = coordinates.clone();
        this.teams = teams.clone();
    }

    /** {@return the number of dimensions} */
    public int dimensions()
    {
        return shape.length;
    }

    /** {@return the extent of each dimension} */
    public int[] shape()
    {
        return shape.clone();
    }

    /**
     * {@return the name of dimension {@code dim}}
     *
     * @param dim a dimension, 0 to {@link #dimensions()} - 1.
     */
    public String name(final int dim)
    {
        return names[checkDim(dim)];
    }

    /**
     * {@return this PE's coordinate along dimension {@code dim}}
     *
     * @param dim a dimension, 0 to {@link #dimensions()} - 1.
     */
    public int coordinate(final int dim)
    {
        return coordinates[checkDim(dim)];
    }

    /** {@return this PE's coordinates} */
    public int[] coordinates()
    {
        return coordinates.clone();
    }

    /**
     * {@return this PE's team along dimension {@code dim}; its team PE number is this PE's coordinate there}
     *
     * @param dim a dimension, 0 to {@link #dimensions()} - 1.
     */
    public Team team(final int dim)
    {
        return teams[checkDim(dim)];
    }

    /**
     * {@return this PE's team along the named dimension}
     *
     * @param name a dimension's name.
     * @throws IllegalArgumentException if no dimension has that name.
     */
    public Team team(final String name)
    {
        for (int d = 0; d < names.length; d++)
        {
            if (names[d].equals(name))
            {
                return teams[d];
            }
        }
        throw new IllegalArgumentException("no mesh dimension named '" + name + "' (dimensions " + Arrays.toString(names) + ")");
    }

    /** {@return the team the mesh slices} */
    public Team parent()
    {
        return parent;
    }

    /**
     * {@return the parent-team PE number at the given coordinates (row-major)}
     *
     * @param coords one coordinate per dimension, each within its extent.
     * @throws IllegalArgumentException if the coordinates do not match the shape.
     */
    public int peAt(final int... coords)
    {
        if (coords.length != shape.length)
        {
            throw new IllegalArgumentException("coordinates " + Arrays.toString(coords) + " do not match shape " + Arrays.toString(shape));
        }
        int pe = 0;
        for (int d = 0; d < shape.length; d++)
        {
            if (coords[d] < 0 || coords[d] >= shape[d])
            {
                throw new IndexOutOfBoundsException("coordinate " + coords[d] + " of dimension " + d + " outside [0, " + shape[d] + ")");
            }
            pe = pe * shape[d] + coords[d];
        }
        return pe;
    }

    private int checkDim(final int dim)
    {
        if (dim < 0 || dim >= shape.length)
        {
            throw new IndexOutOfBoundsException("dimension " + dim + " outside [0, " + shape.length + ")");
        }
        return dim;
    }

    /** Destroys every dimension's team (collective over the parent, like the splits that made them). */
    @Override
    public void close()
    {
        for (final Team t : teams)
        {
            t.close();
        }
    }

    @Override
    public String toString()
    {
        return "TeamMesh" + Arrays.toString(names) + Arrays.toString(shape) + " at " + Arrays.toString(coordinates);
    }
}
