package io.jshmem.spi;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;
import io.jshmem.config.ShmemConfig;

/**
 * How {@link Shmem#init()} finds the runtime: a {@link java.util.ServiceLoader} service implemented
 * by {@code shmem-runtime}. Not for applications.
 */
public interface ShmemProvider
{
    /**
     * Runs the init sequence for the process's PE.
     *
     * @param config     the configuration (environment, properties, explicit settings).
     * @param requested  the thread level asked for.
     * @param generation which init of the process this is: 1, then one more for each init after a last
     *                   finalize (OpenSHMEM 1.6); every PE of the job is at the same generation.
     * @return the initialized PE.
     */
    Shmem create(ShmemConfig config, ThreadLevel requested, int generation);

    /**
     * Runs the init sequence for a PE that is not the process's (see {@link Shmem#create}).
     *
     * @param config    the configuration.
     * @param requested the thread level asked for.
     * @return the initialized PE.
     */
    Shmem createIndependent(ShmemConfig config, ThreadLevel requested);
}
