package io.jshmem.conformance;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Teams, collectives, contexts and locks as real multi-JVM jobs through shmemrun
 * ({@code io.jshmem.conformance.team.TeamCollectives}): automatic algorithms at 1, 3 and 4 PEs, and
 * every collective forced to its linear algorithm at 4 PEs. The in-JVM tests of shmem-runtime cover
 * the algorithm matrix; these check the same code across processes.
 */
class TeamsIT
{
    @ParameterizedTest(name = "{0} PEs, {1}")
    @CsvSource({"1, auto", "3, auto", "4, auto", "4, linear"})
    void teamCollectives(final int pes, final String algorithm)
    {
        final List<String> extra = algorithm.equals("auto") ? List.of() : List.of(
            "-x", "SHMEM_BARRIER_ALGORITHM=linear", "-x", "SHMEM_BROADCAST_ALGORITHM=linear", "-x", "SHMEM_FCOLLECT_ALGORITHM=linear",
            "-x", "SHMEM_COLLECT_ALGORITHM=linear", "-x", "SHMEM_ALLTOALL_ALGORITHM=linear", "-x", "SHMEM_REDUCE_ALGORITHM=linear",
            "-x", "SHMEM_SCAN_ALGORITHM=linear");
        final Launch.Result r = Launch.run(pes, ConformanceIT.TIMEOUT_S, extra, "io.jshmem.conformance.team.TeamCollectives");
        assertEquals(0, r.status(), r::report);
        assertTrue(r.out().contains("PASS [pe 0/" + pes + "] TeamCollectives"), () -> "exit 0 without PE 0's PASS line" + r.report());
    }
}
