package io.jshmem.runtime;

import io.jshmem.ShmemTimeoutException;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SHMEM_COLLECTIVE_TIMEOUT: one PE skips a team sync or a broadcast it is the root of; every other PE
 * fails within the configured time with a {@link ShmemTimeoutException} that names the collective, the
 * team and the missing PE. The skipping PE waits until the others have failed (so its heap stays mapped
 * while they diagnose), then every PE ends with a WORLD barrier: the broken team is a copy of WORLD, so
 * WORLD itself stays consistent.
 */
class CollectiveTimeoutThreadsTest
{
    private static final long TIMEOUT_MS = 1000;

    static Stream<Arguments> cases()
    {
        final List<Arguments> args = new ArrayList<>();
        for (final String collective : new String[] {"sync", "broadcast"})
        {
            for (final String algorithms : new String[] {"auto", "linear", "hierarchical"})
            {
                args.add(Arguments.of(collective, algorithms));
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void missingPeIsNamedWithinTheTimeout(final String collective, final String algorithms) throws Exception
    {
        final int n = 4;
        final int skipper = 2;
        final CountDownLatch othersDone = new CountDownLatch(n - 1);
        final Map<String, String> env = new java.util.HashMap<>(Map.of("SHMEM_COLLECTIVE_TIMEOUT", TIMEOUT_MS + "ms",
            "SHMEM_BARRIER_ALGORITHM", algorithms, "SHMEM_BROADCAST_ALGORITHM", algorithms.equals("linear") ? "tree" : algorithms));
        if (algorithms.equals("hierarchical"))
        {
            env.put("JSHMEM_TEST_NODE_LAYOUT", "2,2");
        }
        ThreadPes.run(n, env, shmem -> {
            final Team team = shmem.teamWorld().splitStrided(0, 1, n);
            final SymmetricLongs data = shmem.allocateLongs(4);
            if (shmem.myPe() == skipper)
            {
                assertTrue(othersDone.await(30, TimeUnit.SECONDS), "the other PEs did not give up within 30 s");
            }
            else
            {
                try
                {
                    final long t0 = System.nanoTime();
                    final ShmemTimeoutException ex = assertThrows(ShmemTimeoutException.class,
                        () -> {
                            if (collective.equals("sync"))
                            {
                                team.sync();
                            }
                            else
                            {
                                team.broadcast(data, data, 4, skipper);
                            }
                        });
                    final long ms = (System.nanoTime() - t0) / 1_000_000;
                    assertTrue(ms >= TIMEOUT_MS && ms < TIMEOUT_MS + 10_000, "failed after " + ms + " ms, timeout " + TIMEOUT_MS + " ms");
                    final String m = ex.getMessage();
                    System.out.println("after " + ms + " ms: " + m);
                    assertTrue(m.startsWith("[pe " + shmem.myPe() + "/" + n + "] " + collective + " on team split of WORLD"), m);
                    assertTrue(m.contains("team PEs [" + skipper + "] (WORLD PEs [" + skipper + "]) have not arrived"), m);
                    assertTrue(m.contains("SHMEM_COLLECTIVE_TIMEOUT"), m);
                    assertArrayEquals(new int[] {skipper}, ex.missingPes(), m);
                }
                finally
                {
                    othersDone.countDown();
                }
            }
            shmem.barrierAll();
            shmem.free(data);
        });
    }
}
