package io.jshmem.conformance;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property-based team and collective checks ({@code io.jshmem.conformance.sos.coll.CollProperties}):
 * random triplets, nested splits and 2-D splits against the arithmetic definition, random collectives
 * with random sizes, roots, per-PE counts, strides, operators and types, run as real multi-PE jobs
 * under the automatic algorithms and two mixes of forced ones. Each job gets a fresh seed, printed
 * with the job (and by PE 0), unless {@code -Dcoll.seed=N} fixes it to replay a failure.
 */
class CollPropertiesIT
{
    static final int ROUNDS = 30;

    /** Forced algorithms: the simple ones, then the multi-round ones. */
    static final List<String> MIX_A = List.of("SHMEM_BARRIER_ALGORITHM=linear", "SHMEM_BROADCAST_ALGORITHM=linear",
        "SHMEM_FCOLLECT_ALGORITHM=ring", "SHMEM_COLLECT_ALGORITHM=ring", "SHMEM_ALLTOALL_ALGORITHM=linear",
        "SHMEM_REDUCE_ALGORITHM=ring", "SHMEM_SCAN_ALGORITHM=linear");
    static final List<String> MIX_B = List.of("SHMEM_BARRIER_ALGORITHM=dissemination", "SHMEM_BROADCAST_ALGORITHM=scatter_allgather",
        "SHMEM_FCOLLECT_ALGORITHM=recursive_doubling", "SHMEM_COLLECT_ALGORITHM=recursive_doubling",
        "SHMEM_ALLTOALL_ALGORITHM=pairwise", "SHMEM_REDUCE_ALGORITHM=recursive_doubling", "SHMEM_SCAN_ALGORITHM=recursive_doubling");

    static Stream<Arguments> jobs()
    {
        return Stream.of(
            Arguments.of(2, "auto", List.of()), Arguments.of(3, "auto", List.of()), Arguments.of(5, "auto", List.of()),
            Arguments.of(8, "auto", List.of()), Arguments.of(3, "mix A", MIX_A), Arguments.of(5, "mix A", MIX_A),
            Arguments.of(4, "mix B", MIX_B), Arguments.of(8, "mix B", MIX_B));
    }

    @ParameterizedTest(name = "{0} PEs, {1}")
    @MethodSource("jobs")
    void properties(final int pes, final String what, final List<String> env)
    {
        final String fixed = System.getProperty("coll.seed");
        final long seed = fixed != null ? Long.parseLong(fixed) : System.nanoTime() ^ (pes * 0x9E3779B97F4A7C15L);
        System.out.println("CollPropertiesIT: " + pes + " PEs, " + what + ", seed " + seed + " (replay: -Dcoll.seed=" + seed + ")");
        final List<String> extra = new ArrayList<>();
        for (final String e : env)
        {
            extra.add("-x");
            extra.add(e);
        }
        final Launch.Result r = Launch.run(pes, 180, extra, "io.jshmem.conformance.sos.coll.CollProperties", String.valueOf(seed),
            String.valueOf(ROUNDS));
        assertEquals(0, r.status(), () -> "seed " + seed + r.report());
        assertTrue(r.out().contains("PASS [pe 0/" + pes + "] CollProperties"), () -> "seed " + seed + ": no PASS line" + r.report());
    }
}
