package io.jshmem;

import java.lang.foreign.MemorySegment;

/**
 * A team: an ordered set of PEs, {@code (start, stride, size)} relative to WORLD, so translating PE
 * numbers is arithmetic. Teams come from {@link Shmem#teamWorld()}, {@link Shmem#teamShared()},
 * {@link Shmem#teamNode()} and from splitting a team ({@link #splitStrided}, {@link #split2d},
 * {@link #mesh}). Collectives (sync, broadcast, collect, fcollect, alltoall(s), reductions, scans)
 * run over a team's members; PE numbers in their arguments (roots) are team-relative.
 * <pre>{@code
 * Team even = shmem.teamWorld().splitStrided(0, 2, (shmem.nPes() + 1) / 2);   // INVALID on odd PEs
 * if (even.isValid()) {
 *     even.reduce(ReduceOp.SUM, sum, values, 4);
 *     even.close();                                                             // collective
 * }
 * }</pre>
 * Rules (OpenSHMEM 1.5/1.6): creating a team is collective over the whole parent, members and
 * non-members, with the same arguments; team collectives are matched by program order on every
 * member, and one team is not used by two threads at once (jshmem detects a concurrent second call).
 * Collectives on different teams may run concurrently from different threads. A PE that is not in a
 * split team gets {@link #INVALID}, whose {@link #myPe()} and {@link #nPes()} are -1 and whose
 * {@link #close()} does nothing.
 */
public abstract class Team implements AutoCloseable
{
    /** {@code SHMEM_TEAM_INVALID}: what a split gives a PE that is not a member. */
    public static final Team INVALID = new Invalid();

    /** Subclassed by the runtime only. */
    protected Team()
    {
    }

    // ------------------------------------------------------------------ queries

    /** {@return false only for {@link #INVALID}} */
    public boolean isValid()
    {
        return true;
    }

    /** {@return this PE's number in the team ({@code shmem_team_my_pe}); -1 for {@link #INVALID}} */
    public abstract int myPe();

    /** {@return the number of PEs in the team ({@code shmem_team_n_pes}); -1 for {@link #INVALID}} */
    public abstract int nPes();

    /** {@return the WORLD number of team PE 0} */
    public abstract int start();

    /** {@return the WORLD distance between consecutive team PEs (negative: reverse order; 0 for a team of one)} */
    public abstract int stride();

    /**
     * Translates a team PE number to WORLD.
     *
     * @param pe a team PE number.
     * @return its WORLD number.
     * @throws IndexOutOfBoundsException if pe is not in [0, nPes()).
     */
    public abstract int worldPe(int pe);

    /**
     * {@code shmem_team_translate_pe}.
     *
     * @param pe   a PE number in this team.
     * @param dest another team.
     * @return the same PE's number in {@code dest}, or -1 if it is not in both teams or a team is INVALID.
     */
    public int translatePe(final int pe, final Team dest)
    {
        if (!isValid() || dest == null || !dest.isValid() || pe < 0 || pe >= nPes())
        {
            return -1;
        }
        return dest.teamPeOf(worldPe(pe));
    }

    /**
     * Translates a WORLD PE number to this team.
     *
     * @param worldPe a WORLD PE number.
     * @return its number in this team, or -1 if it is not a member.
     */
    public abstract int teamPeOf(int worldPe);

    /** {@return the configuration the team was created with ({@code shmem_team_get_config})} */
    public abstract TeamConfig config();

    // ------------------------------------------------------------------ creation and destruction

    /**
     * As {@link #splitStrided(int, int, int, TeamConfig)} with the default configuration.
     *
     * @param start this team's number of the new team's PE 0.
     * @param stride distance, in this team's numbers, between consecutive PEs of the new team.
     * @param size number of PEs in the new team.
     * @return the new team on its members, {@link #INVALID} on the other PEs.
     */
    public final Team splitStrided(final int start, final int stride, final int size)
    {
        return splitStrided(start, stride, size, TeamConfig.DEFAULT);
    }

    /**
     * {@code shmem_team_split_strided}: collective over every PE of this team, with the same arguments.
     * The new team's PE i is this team's PE {@code start + i * stride}; a negative stride lists PEs in
     * decreasing order, stride 0 requires size 1.
     *
     * @param start this team's number of the new team's PE 0.
     * @param stride distance, in this team's numbers, between consecutive PEs of the new team.
     * @param size number of PEs in the new team.
     * @param config the new team's configuration.
     * @return the new team on its members, {@link #INVALID} on the other PEs.
     * @throws IllegalArgumentException   on every PE if the triplet leaves [0, nPes()) or is malformed.
     * @throws TeamExhaustedException on every PE if no team slot is free on all of this team's PEs.
     */
    public abstract Team splitStrided(int start, int stride, int size, TeamConfig config);

    /**
     * As {@link #split2d(int, TeamConfig, TeamConfig)} with default configurations.
     *
     * @param xrange number of PEs in a row (the x dimension).
     * @return this PE's row and column teams.
     */
    public final Split2d split2d(final int xrange)
    {
        return split2d(xrange, TeamConfig.DEFAULT, TeamConfig.DEFAULT);
    }

    /**
     * {@code shmem_team_split_2d}: lays this team's PEs out in rows of {@code xrange} (the last row may
     * be shorter) and gives this PE its row (x team, where its number is its column x = pe mod xrange)
     * and its column (y team, where its number is its row y = pe div xrange). An xrange above nPes()
     * counts as nPes(). Collective over this team.
     *
     * @param xrange number of PEs in a row (the x dimension).
     * @param xConfig configuration of the x (row) team.
     * @param yConfig configuration of the y (column) team.
     * @return this PE's row and column teams.
     * @throws IllegalArgumentException if {@code xrange} is not positive.
     * @throws TeamExhaustedException   on every PE if no team slot is free.
     */
    public abstract Split2d split2d(int xrange, TeamConfig xConfig, TeamConfig yConfig);

    /**
     * The two teams of {@link #split2d}; {@link #close()} destroys both.
     *
     * @param x this PE's row team: the PEs with the same y.
     * @param y this PE's column team: the PEs with the same x.
     */
    public record Split2d(Team x, Team y) implements AutoCloseable
    {
        @Override
        public void close()
        {
            y.close();
            x.close();
        }
    }

    /**
     * As {@link #mesh(String[], int...)} with dimensions named "d0", "d1", ....
     *
     * @param shape the extent of each dimension, slowest first.
     * @return the mesh: this PE's coordinates and its team along each dimension.
     */
    public final TeamMesh mesh(final int... shape)
    {
        final String[] names = new String[shape.length];
        for (int d = 0; d < names.length; d++)
        {
            names[d] = "d" + d;
        }
        return mesh(names, shape);
    }

    /**
     * Slices this team into an N-dimensional row-major grid (the product of the shape must equal
     * nPes()) and creates, for every dimension, each PE's team along it. Collective over this team.
     *
     * @param names the name of each dimension.
     * @param shape the extent of each dimension, slowest first.
     * @return the mesh: this PE's coordinates and its team along each dimension.
     * @throws IllegalArgumentException if the shape's product is not nPes() or names and shape differ in length.
     */
    public abstract TeamMesh mesh(String[] names, int... shape);

    /**
     * {@code shmem_team_create_ctx}: a context whose PE numbers are this team's. Not collective.
     *
     * @param options context options ({@link ContextOption}), none for the defaults.
     * @return the new context.
     * @throws IllegalStateException for {@link #INVALID} or a destroyed team.
     */
    public abstract ShmemContext createContext(ContextOption... options);

    /**
     * {@code shmem_team_destroy}: collective over the team; closes the team's contexts, releases its
     * slot for reuse. {@link #INVALID} and already destroyed teams: no-op. The predefined teams cannot
     * be destroyed.
     */
    @Override
    public abstract void close();

    /**
     * {@code shmem_ptr} with a team PE number.
     *
     * @param object a symmetric object.
     * @param pe a PE number in this team.
     * @return the peer's copy of the object for loads and stores, or null if it is not reachable so.
     */
    public abstract MemorySegment ptr(SymmetricArray<?> object, int pe);

    // ------------------------------------------------------------------ collectives

    /** {@code shmem_team_sync}: waits until every member arrived; does not complete outstanding operations. */
    public abstract void sync();

    /**
     * {@code shmem_broadcast}: copies {@code count} elements of the root's {@code src} into {@code dest} on
     * every member, the root included.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param count number of elements.
     * @param root the source PE, team-relative.
     */
    public abstract <A> void broadcast(SymmetricArray<A> dest, SymmetricArray<A> src, long count, int root);

    /**
     * {@code shmem_collect}: concatenates every member's {@code count} elements (counts may differ per PE)
     * in team order into {@code dest} on every member.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param count number of elements.
     */
    public abstract <A> void collect(SymmetricArray<A> dest, SymmetricArray<A> src, long count);

    /**
     * {@code shmem_fcollect}: as collect with the same count on every PE.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param count number of elements.
     */
    public abstract <A> void fcollect(SymmetricArray<A> dest, SymmetricArray<A> src, long count);

    /**
     * {@code shmem_alltoall}: block j of PE i's src goes to block i of PE j's dest; blocks of {@code count} elements.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param count number of elements.
     */
    public abstract <A> void alltoall(SymmetricArray<A> dest, SymmetricArray<A> src, long count);

    /**
     * {@code shmem_alltoalls}: as alltoall with element strides: element k of block j of PE i's source is
     * {@code src[sst * (j * count + k)]}, and lands in {@code dest[dst * (i * count + k)]} of PE j.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param dst distance, in elements, between consecutive elements (blocks) in {@code dest}.
     * @param sst distance, in elements, between consecutive elements (blocks) in {@code src}.
     * @param count number of elements.
     */
    public abstract <A> void alltoalls(SymmetricArray<A> dest, SymmetricArray<A> src, long dst, long sst, long count);

    /**
     * {@code shmem_OP_reduce}: element-wise reduction of every member's {@code src} into {@code dest} on
     * every member. {@code dest} and {@code src} are the same object (in place) or do not overlap.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param op the reduction.
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param count number of elements.
     */
    public abstract <A> void reduce(ReduceOp op, SymmetricArray<A> dest, SymmetricArray<A> src, long count);

    /**
     * {@code shmem_sum_inscan} (1.6): member i gets the element-wise sum of members 0..i.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param count number of elements.
     */
    public abstract <A> void sumInscan(SymmetricArray<A> dest, SymmetricArray<A> src, long count);

    /**
     * {@code shmem_sum_exscan} (1.6): member i gets the sum of members 0..i-1 (zeros on member 0).
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param count number of elements.
     */
    public abstract <A> void sumExscan(SymmetricArray<A> dest, SymmetricArray<A> src, long count);

    // ------------------------------------------------------------------ INVALID

    private static final class Invalid extends Team
    {
        private static IllegalStateException invalid(final String what)
        {
            return new IllegalStateException(what + " on Team.INVALID (this PE is not a member of the team)");
        }

        @Override
        public boolean isValid()
        {
            return false;
        }

        @Override
        public int myPe()
        {
            return -1;
        }

        @Override
        public int nPes()
        {
            return -1;
        }

        @Override
        public int start()
        {
            return -1;
        }

        @Override
        public int stride()
        {
            return 0;
        }

        @Override
        public int worldPe(final int pe)
        {
            throw invalid("worldPe");
        }

        @Override
        public int teamPeOf(final int worldPe)
        {
            return -1;
        }

        @Override
        public TeamConfig config()
        {
            throw invalid("config");
        }

        @Override
        public Team splitStrided(final int start, final int stride, final int size, final TeamConfig config)
        {
            throw invalid("splitStrided");
        }

        @Override
        public Split2d split2d(final int xrange, final TeamConfig xConfig, final TeamConfig yConfig)
        {
            throw invalid("split2d");
        }

        @Override
        public TeamMesh mesh(final String[] names, final int... shape)
        {
            throw invalid("mesh");
        }

        @Override
        public ShmemContext createContext(final ContextOption... options)
        {
            throw invalid("createContext");
        }

        @Override
        public void close()
        {
        }

        @Override
        public MemorySegment ptr(final SymmetricArray<?> object, final int pe)
        {
            throw invalid("ptr");
        }

        @Override
        public void sync()
        {
            throw invalid("sync");
        }

        @Override
        public <A> void broadcast(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count, final int root)
        {
            throw invalid("broadcast");
        }

        @Override
        public <A> void collect(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
        {
            throw invalid("collect");
        }

        @Override
        public <A> void fcollect(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
        {
            throw invalid("fcollect");
        }

        @Override
        public <A> void alltoall(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
        {
            throw invalid("alltoall");
        }

        @Override
        public <A> void alltoalls(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long dst, final long sst, final long count)
        {
            throw invalid("alltoalls");
        }

        @Override
        public <A> void reduce(final ReduceOp op, final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
        {
            throw invalid("reduce");
        }

        @Override
        public <A> void sumInscan(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
        {
            throw invalid("sumInscan");
        }

        @Override
        public <A> void sumExscan(final SymmetricArray<A> dest, final SymmetricArray<A> src, final long count)
        {
            throw invalid("sumExscan");
        }

        @Override
        public String toString()
        {
            return "Team.INVALID";
        }
    }
}
