package io.jshmem.conformance;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The conformance programs with every PE pair carried by the proxy transport ({@code SHMEM_TRANSPORT=proxy}:
 * puts, gets, atomics, signals and every collective go through the command ring, the proxy threads and
 * TCP, as between hosts), at 2 PEs (the collectives and atomics at 3 too). Every PE must pass; the jobs on two namespaced hosts are in
 * the multi-host tests.
 */
class ProxyConformanceIT
{
    static Stream<Arguments> jobs()
    {
        // every program at 2 PEs; the collectives and atomics also at an odd count
        return Stream.concat(Stream.concat(ConformanceIT.PROGRAMS.stream(), Stream.of("team.TeamCollectives")).map(p -> Arguments.of(p, 2)),
            Stream.of(Arguments.of("team.TeamCollectives", 3), Arguments.of("Atomics", 3)));
    }

    @ParameterizedTest(name = "{0} at {1} PEs over the proxy")
    @MethodSource("jobs")
    void program(final String program, final int pes)
    {
        final Launch.Result r = Launch.run(pes, 120, List.of("-x", "SHMEM_TRANSPORT=proxy"), "io.jshmem.conformance." + program);
        assertEquals(0, r.status(), r::report);
        final String name = program.substring(program.lastIndexOf('.') + 1);
        for (int pe = 0; pe < pes; pe++)
        {
            final String pass = "PASS [pe " + pe + "/" + pes + "] " + name;
            assertTrue(r.out().contains(pass), () -> "no '" + pass + "' line" + r.report());
        }
    }
}
