package io.jshmem.runtime;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;
import io.jshmem.bootstrap.Bootstraps;
import io.jshmem.config.ShmemConfig;
import io.jshmem.spi.ShmemProvider;

/** The {@link ShmemProvider} that {@link Shmem#init()} finds through {@link java.util.ServiceLoader}. */
public final class RuntimeProvider implements ShmemProvider
{
    /** For the service loader. */
    public RuntimeProvider()
    {
    }

    @Override
    public Shmem create(final ShmemConfig config, final ThreadLevel requested, final int generation)
    {
        return start(true, config, requested, generation);
    }

    @Override
    public Shmem createIndependent(final ShmemConfig config, final ThreadLevel requested)
    {
        return start(false, config, requested, 1);
    }

    private static Shmem start(final boolean processWide, final ShmemConfig config, final ThreadLevel requested, final int generation)
    {
        if (processWide)
        {
            ShmemRuntime.refuseInitAfterFailure(generation);
        }
        final InitClock clock = new InitClock();
        final RuntimeSettings settings = RuntimeSettings.resolve(config); // a bad value fails here, naming its variable, before any socket opens
        clock.mark(InitClock.OPTIONS);
        final io.jshmem.bootstrap.Bootstrap bootstrap = Bootstraps.fromConfig(config, settings.bootstrap().withGeneration(generation));
        clock.mark(InitClock.BOOTSTRAP);
        return ShmemRuntime.start(processWide, settings, requested, bootstrap, clock);
    }
}
