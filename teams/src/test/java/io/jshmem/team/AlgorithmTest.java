package io.jshmem.team;

import io.jshmem.ConfigurationException;
import io.jshmem.config.Option;
import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SHMEM_&lt;COLLECTIVE&gt;_ALGORITHM parsing: every algorithm of every collective by name, unknown names refused. */
class AlgorithmTest
{
    private record Case(Option<String> option, Class<? extends Enum<?>> type)
    {
    }

    private static final List<Case> CASES = List.of(
        new Case(ShmemOptions.BARRIER_ALGORITHM, Algorithm.Sync.class),
        new Case(ShmemOptions.BROADCAST_ALGORITHM, Algorithm.Broadcast.class),
        new Case(ShmemOptions.COLLECT_ALGORITHM, Algorithm.Allgather.class),
        new Case(ShmemOptions.FCOLLECT_ALGORITHM, Algorithm.Allgather.class),
        new Case(ShmemOptions.ALLTOALL_ALGORITHM, Algorithm.Alltoall.class),
        new Case(ShmemOptions.REDUCE_ALGORITHM, Algorithm.Reduce.class),
        new Case(ShmemOptions.SCAN_ALGORITHM, Algorithm.Scan.class));

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void everyAlgorithmParsesFromItsVariable()
    {
        for (final Case c : CASES)
        {
            assertEquals("AUTO", Algorithm.parse(ShmemConfig.of(Map.of(), null, null), c.option(), (Class)c.type()).toString(),
                c.option().envName() + " defaults to auto");
            for (final Enum<?> e : c.type().getEnumConstants())
            {
                final String text = Algorithm.text(e);
                for (final String spelled : new String[] {text, text.toUpperCase(Locale.ROOT), " " + text + " "})
                {
                    final ShmemConfig config = ShmemConfig.of(Map.of(c.option().envName(), spelled), null, null);
                    assertSame(e, Algorithm.parse(config, c.option(), (Class)c.type()), c.option().envName() + "='" + spelled + "'");
                }
            }
        }
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void unknownNamesAreAConfigurationErrorNamingTheVariableAndTheAcceptedNames()
    {
        for (final Case c : CASES)
        {
            final String variable = c.option().envName();
            final ShmemConfig config = ShmemConfig.of(Map.of(variable, "bogus"), null, null);
            final ConfigurationException ex = assertThrows(ConfigurationException.class, () -> Algorithm.parse(config, c.option(), (Class)c.type()));
            assertEquals(variable, ex.optionName());
            assertTrue(ex.getMessage().contains(variable) && ex.getMessage().contains("bogus"), ex.getMessage());
            for (final Enum<?> e : c.type().getEnumConstants())
            {
                assertTrue(ex.getMessage().contains(Algorithm.text(e)), ex.getMessage() + " names " + Algorithm.text(e));
            }
        }
        // the enum's own check, for names the option table might accept but the collective does not have
        final ConfigurationException ex = assertThrows(ConfigurationException.class,
            () -> Algorithm.parse("SHMEM_ALLTOALL_ALGORITHM", "ring", Algorithm.Alltoall.class));
        assertEquals("SHMEM_ALLTOALL_ALGORITHM='ring' is not an algorithm of this collective; accepted: auto, linear, pairwise, hierarchical, aggregate",
            ex.getMessage());
    }
}
