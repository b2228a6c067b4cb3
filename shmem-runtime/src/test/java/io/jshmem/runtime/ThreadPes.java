package io.jshmem.runtime;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;
import io.jshmem.bootstrap.BootstrapRoot;
import io.jshmem.bootstrap.UniqueId;
import io.jshmem.config.ShmemConfig;
import io.jshmem.transport.PeFutures;

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
                            try
                            {
                                body.run(shmem);
                            }
                            catch (final Throwable ex)
                            {
                                // The other PEs may now wait for this one forever (until the test's timeout):
                                // say at once what went wrong.
                                System.err.println("[pe " + shmem.myPe() + "/" + shmem.nPes() + "] test body failed: " + ex);
                                ex.printStackTrace();
                                throw ex;
                            }
                        }
                        return null;
                    }));
                }
                PeFutures.awaitAll(futures, 60);
            }
            finally
            {
                pool.shutdownNow();
                pool.awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }
}
