package io.jshmem.conformance;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs every conformance program through shmemrun at 1, 2, 3 and 4 PEs. A job passes when shmemrun
 * exits 0 (every PE passed). A job whose PEs printed {@code SKIP:} and exited 77 (the program needs
 * more PEs) is reported as a JUnit skip with the PE's reason, never as a pass. On failure the
 * assertion message holds every PE's output.
 */
class ConformanceIT
{
    /** shmemrun --timeout per job: the programs take a few seconds; a hang must not stall the build for long. */
    static final int TIMEOUT_S = 60;

    /** The programs, in the order a reader meets the spec. */
    static final List<String> PROGRAMS = List.of(
        "SetupQuery", "MemoryMgmt", "Rma", "Atomics", "Signals", "PointToPointSync", "Ordering", "ErrorChecks");

    static Stream<Arguments> jobs()
    {
        return PROGRAMS.stream().flatMap(p -> Stream.of(1, 2, 3, 4).map(n -> Arguments.of(p, n)));
    }

    @ParameterizedTest(name = "{0} at {1} PEs")
    @MethodSource("jobs")
    void program(final String program, final int pes)
    {
        final Launch.Result r = Launch.run(pes, TIMEOUT_S, List.of(), "io.jshmem.conformance." + program);
        final String skip = r.skipLine();
        if (r.status() == Spmd.SKIP)
        {
            assertTrue(skip != null, () -> "exit 77 (SKIP) without a SKIP: line" + r.report());
            Assumptions.abort(skip);
        }
        assertEquals(0, r.status(), r::report);
        assertTrue(r.out().contains("PASS [pe 0/" + pes + "] " + program), () -> "exit 0 without PE 0's PASS line" + r.report());
    }
}
