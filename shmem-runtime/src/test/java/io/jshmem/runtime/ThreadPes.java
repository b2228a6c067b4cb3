package io.jshmem.runtime;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;
import io.jshmem.bootstrap.BootstrapRoot;
import io.jshmem.bootstrap.UniqueId;
import io.jshmem.config.ShmemConfig;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Test support: runs an SPMD body on N PEs that are threads of this JVM, over the real UID bootstrap
 * (loopback sockets) and real /dev/shm heaps. Every PE's failure is collected; the first is rethrown
 * with the others suppressed.
 */
final class ThreadPes
{
    interface Body
    {
        void run(Shmem shmem) throws Exception;
    }

    private ThreadPes()
    {
    }

    static void run(final int n, final Map<String, String> extraEnv, final Body body) throws Exception
    {
        final ShmemConfig rootConfig = ShmemConfig.of(Map.of("SHMEM_BOOTSTRAP_TIMEOUT", "30s"), null, null);
        try (BootstrapRoot root = UniqueId.createRoot(rootConfig))
        {
            final ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
                final Thread t = new Thread(r, "test-pe");
                t.setDaemon(true);
                return t;
            });
            try
            {
                final List<Future<?>> futures = new ArrayList<>();
                for (int pe = 0; pe < n; pe++)
                {
                    final Map<String, String> env = new HashMap<>(extraEnv);
                    env.put("JSHMEM_RANK", Integer.toString(pe));
                    env.put("JSHMEM_SIZE", Integer.toString(n));
                    env.put("SHMEM_BOOTSTRAP_UID", root.uniqueId().toText());
                    env.put("SHMEM_BOOTSTRAP_TIMEOUT", "30s");
                    env.put("SHMEM_SYMMETRIC_SIZE", env.getOrDefault("SHMEM_SYMMETRIC_SIZE", "4M"));
                    final ShmemConfig config = ShmemConfig.of(env, null, null);
                    futures.add(pool.submit(() -> {
                        try (Shmem shmem = Shmem.create(config, ThreadLevel.MULTIPLE))
                        {
                            body.run(shmem);
                        }
                        return null;
                    }));
                }
                Exception first = null;
                for (final Future<?> f : futures)
                {
                    try
                    {
                        f.get(60, TimeUnit.SECONDS);
                    }
                    catch (final Exception ex)
                    {
                        if (first == null)
                        {
                            first = ex;
                        }
                        else
                        {
                            first.addSuppressed(ex);
                        }
                    }
                }
                if (first != null)
                {
                    throw first;
                }
            }
            finally
            {
                pool.shutdownNow();
                pool.awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }
}
