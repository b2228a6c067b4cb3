package io.jshmem.transport.proxy;

import io.jshmem.AtomicOp;
import io.jshmem.JobFailedException;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.bootstrap.BootstrapRoot;
import io.jshmem.bootstrap.BootstrapSettings;
import io.jshmem.bootstrap.Bootstraps;
import io.jshmem.bootstrap.UniqueId;
import io.jshmem.config.ShmemConfig;
import io.jshmem.heap.HeapFile;
import io.jshmem.transport.PeFutures;
import io.jshmem.transport.ReachabilityMap;
import io.jshmem.transport.TransportContext;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Wire-up on first use: PEs as threads of this JVM over the real UID bootstrap, real /dev/shm heaps and
 * real loopback TCP, every pair through the proxy. No connection exists after connect; a PE that
 * talks to one neighbour has one dialed and one accepted connection; two PEs addressing each other for
 * the first time at once, and many PEs addressing one at once, work; a first use of a dead or
 * unreachable peer fails the job naming it within the connect deadline; and a closed transport leaves
 * no proxy thread and no socket behind. Every PE's failure is collected.
 */
class ProxyWireUpTest
{
    private static final long HEAP = 1L << 20;

    interface Body
    {
        void run(Pe pe) throws Exception;
    }

    /** One PE of the test job. */
    record Pe(int me, int n, Bootstrap bootstrap, ProxyTransport transport, TransportContext ctx, MemorySegment heap)
    {
        void sync()
        {
            transport.quiet(ctx);
            bootstrap.barrier();
        }
    }

    private static IntUnaryOperator idleOf(final Bootstrap b)
    {
        return count ->
        {
            final JobFailedException f = b.failure();
            if (f != null)
            {
                throw new JobFailedException("wait abandoned: " + f.getMessage(), f.lostPe(), f);
            }
            if (count < 100)
            {
                Thread.onSpinWait();
            }
            else
            {
                Thread.yield();
            }
            return count + 1;
        };
    }

    /**
     * Whether the PEs' waits alone serve the proxy ({@code SHMEM_PROXY_WAIT_POLL} on, a core per PE, as on a machine of many
     * cores: {@code ProxyTransport.Settings.waitsAlone}).
     */
    private boolean waitsAlone;

    private ProxyTransport.Settings settings(final long connectTimeoutNs)
    {
        return new ProxyTransport.Settings(1 << 20, 1 << 20, 20, 10, 10_000_000_000L, connectTimeoutNs, System.err::println, waitsAlone,
            false, waitsAlone);
    }

    /** Runs {@code body} on {@code n} PEs; {@code endpointOverride} may replace the endpoints a PE connects with. */
    private void run(final int n, final long connectTimeoutNs, final java.util.function.BiFunction<Integer, byte[][], byte[][]> endpointOverride,
        final Body body) throws Exception
    {
        final java.util.Set<String> socketsBefore = tcpSockets();
        final ShmemConfig rootConfig = ShmemConfig.of(Map.of("SHMEM_BOOTSTRAP_TIMEOUT", "60s"), null, null);
        try (BootstrapRoot root = UniqueId.createRoot(rootConfig))
        {
            final ExecutorService pool = Executors.newFixedThreadPool(n, r -> Thread.ofPlatform().daemon().name("wireup-pe").unstarted(r));
            try
            {
                final List<Future<?>> futures = new ArrayList<>();
                for (int rank = 0; rank < n; rank++)
                {
                    final Map<String, String> env = new HashMap<>();
                    env.put("JSHMEM_RANK", Integer.toString(rank));
                    env.put("JSHMEM_SIZE", Integer.toString(n));
                    env.put("SHMEM_BOOTSTRAP_UID", root.uniqueId().toText());
                    env.put("SHMEM_BOOTSTRAP_TIMEOUT", "60s");
                    final ShmemConfig config = ShmemConfig.of(env, null, null);
                    futures.add(pool.submit(() ->
                    {
                        runPe(config, connectTimeoutNs, endpointOverride, body);
                        return null;
                    }));
                }
                PeFutures.awaitAll(futures, 120);
            }
            finally
            {
                pool.shutdownNow();
            }
        }
        // finalize/close leaves no proxy thread and no TCP socket
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while ((proxyThreads() > 0 || !socketsBefore.containsAll(tcpSockets())) && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertEquals(0, proxyThreads(), "proxy threads left after close");
        final java.util.Set<String> left = tcpSockets();
        left.removeAll(socketsBefore);
        assertEquals(java.util.Set.of(), left, "TCP sockets left after the job");
    }

    private static long proxyThreads()
    {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("jshmem-proxy") && t.isAlive()).count();
    }

    /** @return this process's TCP sockets (fds whose inode the kernel's tcp tables list): the proxy's kind. */
    private static java.util.Set<String> tcpSockets() throws IOException
    {
        final java.util.Set<String> tcp = new java.util.HashSet<>();
        for (final String table : new String[] {"tcp", "tcp6"})
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/net/" + table)))
            {
                final String[] f = line.strip().split("\\s+");
                if (f.length > 9)
                {
                    tcp.add(f[9]);
                }
            }
        }
        final java.util.Set<String> mine = new java.util.TreeSet<>();
        try (var fds = Files.list(Path.of("/proc/self/fd")))
        {
            fds.forEach(fd ->
            {
                try
                {
                    final String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[") && tcp.contains(link.substring(8, link.length() - 1)))
                    {
                        mine.add(link);
                    }
                }
                catch (final IOException ignore)
                {
                    // closed meanwhile
                }
            });
        }
        return mine;
    }

    private void runPe(final ShmemConfig config, final long connectTimeoutNs,
        final java.util.function.BiFunction<Integer, byte[][], byte[][]> endpointOverride, final Body body) throws Exception
    {
        try (Bootstrap b = Bootstraps.fromConfig(config, BootstrapSettings.from(config).withExitOnFailure(false));
            HeapFile heap = HeapFile.create(HeapFile.DEFAULT_DIRECTORY, b.jobId(), b.rank(), b.size(), HEAP))
        {
            final ProxyTransport t = new ProxyTransport(b, heap.dataSegment(), settings(connectTimeoutNs), idleOf(b));
            try
            {
                final byte[][] endpoints = b.allgather(t.endpoint());
                final byte[] row = new byte[b.size()];
                for (int pe = 0; pe < row.length; pe++)
                {
                    row[pe] = pe == b.rank() ? ReachabilityMap.P2P : ReachabilityMap.PROXY;
                }
                final ReachabilityMap map = ReachabilityMap.gather(b, row);
                t.connect(map, endpointOverride == null ? endpoints : endpointOverride.apply(b.rank(), endpoints));
                final TransportContext ctx = t.createContext();
                assertEquals(0, t.connectedPeers().length + t.acceptedPeers().length, "connections made by connect");
                b.barrier();
                final Pe pe = new Pe(b.rank(), b.size(), b, t, ctx, heap.dataSegment());
                body.run(pe);
                if (b.failure() == null) // a test of failure ends here
                {
                    pe.sync();
                    t.quiesce();
                    b.barrier();
                }
                ctx.close();
            }
            finally
            {
                t.close();
            }
        }
    }

    @Test
    void aPeThatTalksToOneNeighbourHasOneConnectionEachWay() throws Exception
    {
        run(6, 30_000_000_000L, null, pe ->
        {
            final int right = (pe.me() + 1) % pe.n();
            final int left = (pe.me() + pe.n() - 1) % pe.n();
            pe.transport().put(pe.ctx(), right, 0, MemorySegment.ofArray(new long[] {pe.me() + 1000}), false);
            pe.sync();
            assertEquals(left + 1000, pe.heap().get(ValueLayout.JAVA_LONG, 0));
            assertArrayEquals(new int[] {right}, pe.transport().connectedPeers(), "dialed");
            assertArrayEquals(new int[] {left}, pe.transport().acceptedPeers(), "accepted");
            assertTrue(pe.transport().bufferBytes() <= 4L * PeerConnection.MIN_BUFFER, "buffers " + pe.transport().bufferBytes());
        });
    }

    /**
     * Where the waits alone serve the proxy: rounds of signals without data between two PEs, the sender
     * alternating, each poster leaving at once (it blocks on a latch of this JVM and never polls) while the other polls
     * for the signal. The poster sends it itself, and the target's proxy thread, standing aside, runs a cycle of its own
     * only once per millisecond: the first round, the pair's first contact, needs that cycle for the accept and the
     * handshake.
     */
    @Test
    void signalsReachAPollingPeWhoseSenderDoesNotPoll() throws Exception
    {
        waitsAlone = true;
        final int rounds = 200;
        final java.util.concurrent.Phaser phaser = new java.util.concurrent.Phaser(2);
        run(2, 30_000_000_000L, null, pe ->
        {
            final int other = 1 - pe.me();
            for (int k = 1; k <= rounds; k++)
            {
                if (k % 2 == pe.me())
                {
                    pe.transport().putSignal(pe.ctx(), other, 0, null, 8, k, io.jshmem.SignalOp.SET, false);
                }
                else
                {
                    final long deadline = System.nanoTime() + 10_000_000_000L;
                    while (pe.heap().get(ValueLayout.JAVA_LONG_UNALIGNED, 8) != k)
                    {
                        pe.transport().progress();
                        assertTrue(System.nanoTime() < deadline, "[pe " + pe.me() + "] round " + k + ": the signal did not arrive within 10 s");
                    }
                }
                phaser.arriveAndAwaitAdvance(); // the poster waits here without polling its proxy
            }
            assertEquals(pe.me() == 1 ? rounds : rounds - 1, pe.heap().get(ValueLayout.JAVA_LONG_UNALIGNED, 8), "the last signal this PE got");
        });
    }

    @Test
    void buffersGrowForLargeFramesAndShrinkWhenIdle() throws Exception
    {
        run(2, 30_000_000_000L, null, pe ->
        {
            final int peer = 1 - pe.me();
            final byte[] big = new byte[300_000];
            java.util.Arrays.fill(big, (byte)(pe.me() + 1));
            pe.transport().put(pe.ctx(), peer, 0, MemorySegment.ofArray(big), false);
            final byte[] back = new byte[big.length];
            pe.transport().get(pe.ctx(), peer, 0, MemorySegment.ofArray(back), false);
            pe.sync();
            assertEquals((byte)(peer + 1), pe.heap().get(ValueLayout.JAVA_BYTE, big.length - 1));
            assertEquals((byte)(pe.me() + 1), back[big.length - 1]);
            final long grown = pe.transport().bufferBytes();
            assertTrue(grown > 4L * PeerConnection.MIN_BUFFER, "buffers after 64 KiB frames: " + grown);
            // quiet for 2 s with nothing buffered: back to 4 KiB each
            final long deadline = System.nanoTime() + 6_000_000_000L;
            while (pe.transport().bufferBytes() > 4L * PeerConnection.MIN_BUFFER && System.nanoTime() < deadline)
            {
                Thread.sleep(50);
            }
            assertEquals(4L * PeerConnection.MIN_BUFFER, pe.transport().bufferBytes(), "buffers after an idle spell (grown: " + grown + ")");
            pe.bootstrap().barrier();
        });
    }

    @Test
    void twoPesAddressingEachOtherFirstAtTheSameMomentBothComplete() throws Exception
    {
        run(8, 30_000_000_000L, null, pe ->
        {
            final int partner = pe.me() ^ 1;
            // after the barrier, both of a pair dial each other at once; gets, atomics and puts flow both ways
            final long[] got = new long[1];
            pe.transport().get(pe.ctx(), partner, 64, MemorySegment.ofArray(got), false);
            assertEquals(0, got[0]);
            for (int i = 0; i < 100; i++)
            {
                pe.transport().amo(pe.ctx(), partner, AtomicOp.ADD, 8, 8, 1, 0);
                pe.transport().put(pe.ctx(), partner, 16, MemorySegment.ofArray(new long[] {i}), true);
            }
            assertEquals(100, pe.transport().amo(pe.ctx(), partner, AtomicOp.FETCH_ADD, 8, 8, 0, 0));
            pe.sync();
            assertEquals(100, pe.heap().get(ValueLayout.JAVA_LONG, 8));
            assertEquals(99, pe.heap().get(ValueLayout.JAVA_LONG, 16));
            assertArrayEquals(new int[] {partner}, pe.transport().connectedPeers(), "dialed");
            assertArrayEquals(new int[] {partner}, pe.transport().acceptedPeers(), "accepted");
            assertEquals(0, pe.transport().droppedConnections(), "dropped connections");
        });
    }

    @Test
    void manyPesAddressingOnePeFirstAtOnceAllComplete() throws Exception
    {
        final int n = 12;
        run(n, 30_000_000_000L, null, pe ->
        {
            if (pe.me() != 0)
            {
                for (int i = 0; i < 200; i++)
                {
                    pe.transport().amo(pe.ctx(), 0, AtomicOp.FETCH_ADD, 8, 0, 1, 0);
                }
                pe.transport().put(pe.ctx(), 0, 8L * pe.me(), MemorySegment.ofArray(new long[] {pe.me()}), false);
            }
            pe.sync();
            if (pe.me() == 0)
            {
                assertEquals(200L * (n - 1), pe.heap().get(ValueLayout.JAVA_LONG, 0));
                for (int q = 1; q < n; q++)
                {
                    assertEquals(q, pe.heap().get(ValueLayout.JAVA_LONG, 8L * q), "slot of pe " + q);
                }
                assertArrayEquals(IntStream.range(1, n).toArray(), pe.transport().acceptedPeers(), "accepted");
                assertEquals(0, pe.transport().connectedPeers().length, "dialed");
            }
            else
            {
                assertArrayEquals(new int[] {0}, pe.transport().connectedPeers(), "dialed");
                assertEquals(0, pe.transport().acceptedPeers().length, "accepted");
            }
        });
    }

    @Test
    void aDeadPeersFirstUseFailsNamingItAtOnce() throws Exception
    {
        final int n = 3;
        final int victim = n - 1;
        // the survivors (threads of this JVM) leave together: one that left early would be the lost PE the other reports
        final java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(n - 1);
        run(n, 30_000_000_000L, null, pe ->
        {
            if (pe.me() == victim)
            {
                pe.transport().close(); // its listener closes, as when the process dies (its bootstrap stays: the proxy must tell)
                pe.bootstrap().barrier();
                awaitFailure(pe);
                return;
            }
            pe.bootstrap().barrier();
            final long start = System.nanoTime();
            final JobFailedException ex;
            try
            {
                ex = assertThrows(JobFailedException.class,
                    () -> pe.transport().get(pe.ctx(), victim, 0, MemorySegment.ofArray(new long[1]), false));
            }
            finally
            {
                asked.countDown();
            }
            final long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(asked.await(30, java.util.concurrent.TimeUnit.SECONDS), "the other survivor's get ended");
            assertTrue(ms < 5000, "failed after " + ms + " ms");
            assertTrue(ex.getMessage().contains("proxy: cannot connect to pe " + victim + " at "), ex::getMessage);
            assertTrue(ex.getMessage().contains("refused"), ex::getMessage);
        });
    }

    @Test
    void aSilentPeersFirstUseFailsNamingItWithinTheConnectDeadline() throws Exception
    {
        final int n = 2;
        final long deadlineMs = 2000;
        // PE 0 is told PE 1 listens where a socket takes connections into its backlog and never answers: the TCP
        // connection is made, the handshake never completes
        try (java.nio.channels.ServerSocketChannel silent = java.nio.channels.ServerSocketChannel.open())
        {
            silent.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 4);
            final String where = "127.0.0.1:" + ((java.net.InetSocketAddress)silent.getLocalAddress()).getPort();
            run(n, deadlineMs * 1_000_000L, (rank, endpoints) ->
            {
                final byte[][] e = endpoints.clone();
                if (rank == 0)
                {
                    e[1] = where.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                }
                return e;
            }, pe ->
            {
                if (pe.me() == 1)
                {
                    awaitFailure(pe);
                    return;
                }
                final long start = System.nanoTime();
                final JobFailedException ex = assertThrows(JobFailedException.class,
                    () -> pe.transport().amo(pe.ctx(), 1, AtomicOp.FETCH_ADD, 8, 0, 1, 0));
                final long ms = (System.nanoTime() - start) / 1_000_000;
                assertTrue(ms >= deadlineMs - 100 && ms < deadlineMs + 2000, "failed after " + ms + " ms");
                assertTrue(ex.getMessage().contains("proxy: cannot connect to pe 1 at " + where + ": no connection within 2000 ms"),
                    ex::getMessage);
                assertEquals(1, ex.lostPe());
            });
        }
    }

    private static void awaitFailure(final Pe pe) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 15_000_000_000L;
        while (pe.bootstrap().failure() == null && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertNotNull(pe.bootstrap().failure(), "the job failed");
    }
}
