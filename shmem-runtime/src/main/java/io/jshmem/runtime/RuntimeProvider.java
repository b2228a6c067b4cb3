package io.jshmem.runtime;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;
import io.jshmem.bootstrap.Bootstraps;
import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;
import io.jshmem.spi.ShmemProvider;

/** The {@link ShmemProvider} that {@link Shmem#init()} finds through {@link java.util.ServiceLoader}. */
public final class RuntimeProvider implements ShmemProvider
{
    /** For the service loader. */
    public RuntimeProvider()
    {
    }

    @Override
    public Shmem create(final ShmemConfig config, final ThreadLevel requested)
    {
        return start(true, config, requested);
    }

    @Override
    public Shmem createIndependent(final ShmemConfig config, final ThreadLevel requested)
    {
        return start(false, config, requested);
    }

    private static Shmem start(final boolean processWide, final ShmemConfig config, final ThreadLevel requested)
    {
        config.validate(ShmemOptions.ALL); // a bad value fails here, naming its variable, before any socket opens
        return ShmemRuntime.start(processWide, config, requested, Bootstraps.fromConfig(config));
    }
}
