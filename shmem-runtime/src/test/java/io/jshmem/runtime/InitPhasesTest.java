package io.jshmem.runtime;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link io.jshmem.Shmem#initPhaseNanos()}: every step of init, in order, timed, immutable. */
class InitPhasesTest
{
    @Test
    void everyPeRecordsEveryInitStepInOrder() throws Exception
    {
        ThreadPes.run(2, Map.of(), shmem -> {
            final Map<String, Long> phases = shmem.initPhaseNanos();
            final String pe = "[pe " + shmem.myPe() + "/2] ";
            assertEquals(List.of("options", "bootstrap", "heap", "transports", "teams", "barrier"), List.copyOf(phases.keySet()),
                pe + "phases " + phases);
            phases.forEach((name, ns) -> assertTrue(ns >= 0 && ns < 60_000_000_000L, pe + name + " took " + ns + " ns"));
            assertTrue(phases.get("bootstrap") > 0, pe + "the bootstrap cannot take no time: " + phases);
            assertSame(phases, shmem.initPhaseNanos(), pe + "the same map on every call");
            assertThrows(UnsupportedOperationException.class, () -> phases.put("x", 1L));
            final String line = InitClock.format(phases);
            assertTrue(line.startsWith("options ") && line.contains(", barrier ") && line.contains("(total "), line);
        });
    }
}
