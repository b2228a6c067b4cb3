package io.jshmem.runtime;

import io.jshmem.bootstrap.BootstrapSettings;
import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;
import io.jshmem.team.TeamSettings;

import java.util.List;

/**
 * Every option the runtime and the modules it composes read, resolved once at the start of init (the
 * {@code options} step of {@link io.jshmem.Shmem#initPhaseNanos()}): the configuration is validated whole,
 * then turned into the settings each step takes (the bootstrap's {@link BootstrapSettings}, the heap size,
 * the transports' list, the waits' spins and yields, the teams' {@link TeamSettings}), so a bad value fails
 * before any socket opens, naming its variable, and no later step goes back to the configuration. The
 * transports resolve their own settings from {@link #config} when they are opened (each provider's
 * {@code Settings}), since only the ones a job uses are.
 *
 * @param config       the job's configuration, validated.
 * @param bootstrap    the bootstrap's settings (without the init's generation, which the caller adds).
 * @param heapBytes    {@code SHMEM_SYMMETRIC_SIZE}, rounded up to whole 4 KiB pages.
 * @param transports   {@code SHMEM_TRANSPORT}, in order of preference.
 * @param waitSpins    {@code SHMEM_WAIT_SPINS}, or -1 for auto (chosen once the job's layout is known).
 * @param waitYields   {@code SHMEM_WAIT_YIELDS}, or -1 for auto.
 * @param teams        the teams module's settings.
 * @param debug        {@code SHMEM_DEBUG}.
 * @param stats        {@code SHMEM_STATS}.
 * @param info         {@code SHMEM_INFO}.
 * @param version      {@code SHMEM_VERSION}.
 */
record RuntimeSettings(ShmemConfig config, BootstrapSettings bootstrap, long heapBytes, List<String> transports, int waitSpins,
    int waitYields, TeamSettings teams, boolean debug, boolean stats, boolean info, boolean version)
{
    /**
     * @param config the job's configuration.
     * @return its settings.
     * @throws io.jshmem.ConfigurationException naming the variable, for a value that does not parse.
     */
    static RuntimeSettings resolve(final ShmemConfig config)
    {
        config.validate(ShmemOptions.ALL); // every option parses, whether this job reads it or not
        return new RuntimeSettings(config, BootstrapSettings.from(config), roundUpToPage(config.get(ShmemOptions.SYMMETRIC_SIZE)),
            List.copyOf(config.get(ShmemOptions.TRANSPORT)), config.get(ShmemOptions.WAIT_SPINS), config.get(ShmemOptions.WAIT_YIELDS),
            TeamSettings.from(config), config.isSet(ShmemOptions.DEBUG), config.isSet(ShmemOptions.STATS),
            config.isSet(ShmemOptions.INFO), config.isSet(ShmemOptions.VERSION));
    }

    private static long roundUpToPage(final long bytes)
    {
        return Math.max(4096, (bytes + 4095) & ~4095L);
    }
}
