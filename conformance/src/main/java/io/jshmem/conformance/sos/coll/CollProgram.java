package io.jshmem.conformance.sos.coll;

import io.jshmem.conformance.Program;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Base of the collective, team, spec-example and shmemx ports: the routines a port covers and the
 * environments (forced collective algorithms, as SOS's CI runs its collective tests) it runs under.
 */
public abstract class CollProgram implements Program
{
    /** Barrier/sync algorithms ({@code SHMEM_BARRIER_ALGORITHM}). */
    public static final String[] BARRIER = {"linear", "dissemination", "hierarchical"};
    /** Broadcast algorithms. */
    public static final String[] BROADCAST = {"linear", "tree", "scatter_allgather", "hierarchical"};
    /** Collect and fcollect algorithms. */
    public static final String[] COLLECT = {"linear", "ring", "recursive_doubling", "hierarchical"};
    /** Alltoall(s) algorithms. */
    public static final String[] ALLTOALL = {"linear", "pairwise", "hierarchical", "aggregate"};
    /** Reduction algorithms. */
    public static final String[] REDUCE = {"linear", "recursive_doubling", "ring", "direct", "hierarchical", "split"};
    /** Scan algorithms. */
    public static final String[] SCAN = {"linear", "recursive_doubling"};

    private final String follows;
    private final List<String> routines;
    private final List<Map<String, String>> variants;

    /**
     * @param follows  the original, e.g. {@code "tests-sos test/unit/bcast.c"}.
     * @param routines the spec routines the port exercises.
     * @param variants the environments to run under (see {@link #forced}).
     */
    protected CollProgram(final String follows, final List<String> routines, final List<Map<String, String>> variants)
    {
        this.follows = follows;
        this.routines = List.copyOf(routines);
        this.variants = List.copyOf(variants);
    }

    /** A program that runs once, in the default environment. */
    protected CollProgram(final String follows, final String... routines)
    {
        this(follows, List.of(routines), List.of(Map.of()));
    }

    @Override
    public final String follows()
    {
        return follows;
    }

    /** @return the spec routines this program exercises and checks. */
    public List<String> routines()
    {
        return routines;
    }

    /** @return the environments ({@code shmemrun -x NAME=VALUE}) to run under, one run per map. */
    public List<Map<String, String>> variants()
    {
        return variants;
    }

    /**
     * The default environment and then each forced algorithm of each named collective: for
     * {@code ("BROADCAST", BROADCAST)}, {@code SHMEM_BROADCAST_ALGORITHM=linear}, {@code =tree}, ....
     * The hierarchical algorithms, the split reduction and the aggregate alltoall also get {@code SHMEM_TEAM_GROUP_SIZE=2}, so that their two levels
     * run on one node.
     *
     * @param pairs alternately a collective's name (String) and its algorithms (String[]).
     * @return the environments.
     */
    public static List<Map<String, String>> forced(final Object... pairs)
    {
        final List<Map<String, String>> out = new ArrayList<>();
        out.add(Map.of());
        for (int p = 0; p < pairs.length; p += 2)
        {
            final String collective = (String)pairs[p];
            for (final String algorithm : (String[])pairs[p + 1])
            {
                final Map<String, String> env = new LinkedHashMap<>();
                env.put("SHMEM_" + collective + "_ALGORITHM", algorithm);
                if (algorithm.equals("hierarchical") || algorithm.equals("split") || algorithm.equals("aggregate"))
                {
                    env.put("SHMEM_TEAM_GROUP_SIZE", "2");
                }
                out.add(Map.copyOf(env));
            }
        }
        return List.copyOf(out);
    }
}
