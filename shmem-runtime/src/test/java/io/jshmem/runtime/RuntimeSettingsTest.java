package io.jshmem.runtime;

import io.jshmem.ShmemException;
import io.jshmem.config.ShmemConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The options step: every option resolved once, a bad one failing by name before anything else runs. */
class RuntimeSettingsTest
{
    private static RuntimeSettings resolve(final Map<String, String> env)
    {
        return RuntimeSettings.resolve(ShmemConfig.of(env, new Properties(), Map.of()));
    }

    @Test
    void resolvesWhatInitReads()
    {
        final RuntimeSettings s = resolve(Map.of("SHMEM_SYMMETRIC_SIZE", "10000", "SHMEM_TRANSPORT", "p2p,proxy",
            "SHMEM_WAIT_SPINS", "7", "SHMEM_DEBUG", "1", "SHMEM_TEAMS_MAX", "5"));
        assertEquals(12288, s.heapBytes(), "rounded up to whole pages");
        assertEquals(List.of("p2p", "proxy"), s.transports());
        assertEquals(7, s.waitSpins());
        assertEquals(-1, s.waitYields(), "auto");
        assertTrue(s.debug());
        assertFalse(s.stats());
        assertEquals(5 * resolve(Map.of("SHMEM_SYMMETRIC_SIZE", "10000")).teams().poolBytes(4), 32 * s.teams().poolBytes(4),
            "5 team slots of the default 32");
        final long small = resolve(Map.of("SHMEM_SYMMETRIC_SIZE", "4M")).teams().poolBytes(4);
        final long big = resolve(Map.of()).teams().poolBytes(4);
        assertEquals(32L * (256 - 32) * 1024, big - small, "the default scratch: 256K at the default 128M heap, 32K at 4M");
        assertEquals(small, resolve(Map.of("SHMEM_SYMMETRIC_SIZE", "1G", "SHMEM_TEAM_SCRATCH_SIZE", "32K")).teams().poolBytes(4),
            "a set SHMEM_TEAM_SCRATCH_SIZE is kept");
    }

    @Test
    void aBadTeamOptionFailsNamingItsVariable()
    {
        final ShmemException few = assertThrows(ShmemException.class, () -> resolve(Map.of("SHMEM_TEAMS_MAX", "2")));
        assertTrue(few.getMessage().contains("SHMEM_TEAMS_MAX=2"), few.getMessage());
        final ShmemException algorithm = assertThrows(ShmemException.class, () -> resolve(Map.of("SHMEM_REDUCE_ALGORITHM", "bogus")));
        assertTrue(algorithm.getMessage().contains("SHMEM_REDUCE_ALGORITHM"), algorithm.getMessage());
    }

    @Test
    void aValueThatDoesNotParseFailsNamingItsVariable()
    {
        final ShmemException bad = assertThrows(ShmemException.class, () -> resolve(Map.of("SHMEM_SYMMETRIC_SIZE", "lots")));
        assertTrue(bad.getMessage().contains("SHMEM_SYMMETRIC_SIZE"), bad.getMessage());
    }
}
