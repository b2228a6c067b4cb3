package io.jshmem.transport;

import io.jshmem.JobFailedException;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;
import io.jshmem.transport.ucx.UcxTransport;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.IntUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport contract on the UCX transport: PEs that are threads of this JVM, each with its own UCP
 * context and worker, over whatever UCX selects between them (tcp over loopback, or shared memory into
 * the /dev/shm heaps, both served by the target's progress thread). libucp (Debian's libucx0) must be
 * installed: {@code .ci/run} installs it; a missing library fails the test rather than skipping it.
 */
class UcxTransportContractTest extends TransportContractTest
{
    /** SHMEM_UCX_HANDOFF of PE 0 in the next run (the others have the default, 1 ms). */
    private long handoffPe0Ns = 1_000_000L;
    /** The wire-up deadline (SHMEM_BOOTSTRAP_TIMEOUT) of every PE in the next run. */
    private long connectTimeoutNs = 30_000_000_000L;

    @Override
    Transport make(final Bootstrap bootstrap, final HeapFile heap, final IntUnaryOperator idle)
    {
        return new UcxTransport(bootstrap, heap.dataSegment(), new UcxTransport.Settings("libucp.so.0", 50_000L,
            bootstrap.rank() == 0 ? handoffPe0Ns : 1_000_000L, connectTimeoutNs, System.err::println), idle);
    }

    @Override
    byte peerId()
    {
        return ReachabilityMap.UCX;
    }

    /**
     * Passive progress: PE 0 sleeps (it never calls UCX) while the others run fetch_adds, gets and puts on
     * its heap; all of them complete, and their "done" flags are in PE 0's heap before it wakes.
     */
    @Test
    void aPeThatNeverCallsUcxStillServesItsPeers() throws Exception
    {
        run(pe -> servedWhilePe0Sleeps(pe, () ->
        {
        }));
    }

    /**
     * The progress thread stands aside while its PE uses UCX (PE 0's for 6 s here), and takes over at once when a
     * wait stops progressing and parks ({@link Transport#progressParks()}): PE 0 progresses, hands over, then
     * sleeps 3 s; the others' fetch_adds, gets and puts all complete while it sleeps (without the hand-over they
     * would wait until 6 s, and the check at 3 s fails).
     */
    @Test
    void aWaitThatParksHandsProgressToTheThreadAtOnce() throws Exception
    {
        handoffPe0Ns = 6_000_000_000L;
        run(pe -> servedWhilePe0Sleeps(pe, () ->
        {
            pe.transport().progress(); // a wait's poll: the thread stands aside for the hand-off time
            pe.transport().progressParks();
        }));
    }

    /**
     * PE 0 runs {@code beforeSleep}, then sleeps 3 s and checks that every other PE's 20 fetch_adds (each followed by
     * a get that sees it) and final put landed meanwhile; the others start 200 ms after it.
     */
    private static void servedWhilePe0Sleeps(final Pe pe, final Runnable beforeSleep) throws InterruptedException
    {
        if (pe.me() == 0)
        {
            beforeSleep.run();
            Thread.sleep(3000);
            for (int q = 1; q < pe.n(); q++)
            {
                assertEquals(1L, pe.heap().get(ValueLayout.JAVA_LONG, 512 + 8L * q), "pe " + q + " finished while pe 0 slept");
            }
            assertEquals(20L * (pe.n() - 1), pe.heap().get(ValueLayout.JAVA_LONG, 256), "every fetch_add applied");
            return;
        }
        Thread.sleep(200); // after pe 0's beforeSleep
        final long[] got = new long[1];
        for (int i = 0; i < 20; i++)
        {
            pe.transport().amo(pe.ctx(), 0, io.jshmem.AtomicOp.FETCH_ADD, 8, 256, 1, 0);
            pe.transport().get(pe.ctx(), 0, 256, MemorySegment.ofArray(got), false);
            assertTrue(got[0] >= i + 1, "get saw " + got[0]);
        }
        pe.transport().put(pe.ctx(), 0, 512 + 8L * pe.me(), MemorySegment.ofArray(new long[] {1}), false);
        pe.transport().quiet(pe.ctx());
    }

    /**
     * A signal that goes as an active message (no data, nothing of the thread in flight to the target) is applied at its
     * target when the sending context's quiet returns: UCX's flush completes an active message only locally, so each quiet
     * confirms with one fetch per such target, and only once. barrier_all's quietAll(false) leaves the collectives'
     * context alone; quietAll(true) (finalize) and pe_quiet confirm too. PE 1 finds every signal after the barrier.
     */
    @Test
    void aQuietConfirmsSignalsSentAsActiveMessages() throws Exception
    {
        run(pe ->
        {
            final UcxTransport t = (UcxTransport)pe.transport();
            if (pe.me() == 0)
            {
                final long before = t.signalConfirmations();
                t.putSignal(pe.ctx(), 1, 0, null, 1024, 7, io.jshmem.SignalOp.SET, false);
                t.quiet(pe.ctx());
                assertEquals(before + 1, t.signalConfirmations(), "the quiet confirmed the signal to pe 1");
                t.quiet(pe.ctx());
                assertEquals(before + 1, t.signalConfirmations(), "nothing left to confirm");
                final TransportContext coll = t.createCollectiveContext();
                t.putSignal(coll, 1, 0, null, 1032, 9, io.jshmem.SignalOp.SET, false);
                t.quietAll(false);
                assertEquals(before + 1, t.signalConfirmations(), "barrier_all's quiet leaves the collectives' signals");
                t.quietAll(true);
                assertEquals(before + 2, t.signalConfirmations(), "finalize's quiet confirms them");
                t.putSignal(pe.ctx(), 1, 0, null, 1040, 11, io.jshmem.SignalOp.ADD, false);
                t.peQuiet(pe.ctx(), 1);
                assertEquals(before + 3, t.signalConfirmations(), "pe_quiet of pe 1 confirms its signal");
                coll.close();
            }
            pe.bootstrap().barrier();
            if (pe.me() == 1)
            {
                assertEquals(7L, pe.heap().get(ValueLayout.JAVA_LONG, 1024), "signal of the program's context");
                assertEquals(9L, pe.heap().get(ValueLayout.JAVA_LONG, 1032), "signal of the collectives' context");
                assertEquals(11L, pe.heap().get(ValueLayout.JAVA_LONG, 1040), "signal before pe_quiet");
            }
        });
    }

    /**
     * Strangers connect to every TCP port this JVM listens on (UCX's tcp interfaces among them, and the
     * bootstrap's) and send nonsense, then close: UCX drops them and every PE's puts and gets stay exact.
     */
    @Test
    void strangersOnUcxPortsChangeNothing() throws Exception
    {
        run(pe ->
        {
            if (pe.me() == 0)
            {
                for (final int port : listeningPorts())
                {
                    try (java.net.Socket s = new java.net.Socket())
                    {
                        s.connect(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 1000);
                        s.getOutputStream().write(new byte[] {0x55, 0x43, 0x58, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
                        s.getOutputStream().write(new byte[4096]);
                        s.getOutputStream().flush();
                    }
                    catch (final java.io.IOException ex)
                    {
                        // a port that refuses or resets a stranger is what we want
                    }
                }
            }
            pe.sync();
            for (int round = 0; round < 50; round++)
            {
                final long[] v = {pe.me() * 1000L + round};
                pe.transport().put(pe.ctx(), pe.right(), 128, MemorySegment.ofArray(v), false);
                pe.sync();
                assertEquals(pe.left() * 1000L + round, pe.heap().get(ValueLayout.JAVA_LONG, 128));
                final long[] got = new long[1];
                pe.transport().get(pe.ctx(), pe.right(), 128, MemorySegment.ofArray(got), false);
                assertEquals(pe.me() * 1000L + round, got[0]);
                pe.sync();
            }
            assertEquals(null, pe.bootstrap().failure(), "no failure reported");
        });
    }

    /** @return the TCP ports this process listens on (from /proc/net/tcp and this process's socket inodes). */
    private static java.util.List<Integer> listeningPorts() throws java.io.IOException
    {
        final java.util.Set<String> inodes = new java.util.HashSet<>();
        try (java.util.stream.Stream<java.nio.file.Path> fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd")))
        {
            for (final java.nio.file.Path fd : fds.toList())
            {
                try
                {
                    final String target = java.nio.file.Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:["))
                    {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                }
                catch (final java.io.IOException ex)
                {
                    // closed meanwhile
                }
            }
        }
        final java.util.List<Integer> ports = new java.util.ArrayList<>();
        for (final String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"})
        {
            final java.nio.file.Path p = java.nio.file.Path.of(table);
            if (!java.nio.file.Files.exists(p))
            {
                continue;
            }
            // read once: the table changes between two reads while other jobs open and close sockets
            final java.util.List<String> lines = java.nio.file.Files.readAllLines(p);
            for (final String line : lines.subList(1, lines.size()))
            {
                final String[] f = line.strip().split("\\s+");
                if (f[3].equals("0A") && inodes.contains(f[9])) // LISTEN
                {
                    ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16));
                }
            }
        }
        assertTrue(ports.size() > N, "expected the bootstrap root's port and UCX's tcp ports of " + N + " workers: " + ports);
        return ports;
    }

    @Test
    void aLostPeerFailsEveryWaitNamingItWithinSeconds() throws Exception
    {
        lostPeerFailsEveryWaitNamingIt();
    }

    private static int endpoints(final Pe pe)
    {
        return ((UcxTransport)pe.transport()).endpointCount();
    }

    /**
     * Endpoints on first use: none after connect; a PE that puts, gets, takes atomics from and signals only its right
     * neighbour, then quiets, holds exactly one endpoint; a second peer makes it two. pe_quiet of a peer never addressed
     * and quiet with no endpoint complete at once.
     */
    @Test
    void aPeHoldsEndpointsOnlyToThePeersItAddressed() throws Exception
    {
        run(pe ->
        {
            assertEquals(0, endpoints(pe), "endpoints after connect");
            pe.transport().quiet(pe.ctx());
            pe.transport().peQuiet(pe.ctx(), pe.left());
            pe.bootstrap().barrier();
            final long[] v = {pe.me() + 100L};
            pe.transport().put(pe.ctx(), pe.right(), 0, MemorySegment.ofArray(v), false);
            pe.transport().amo(pe.ctx(), pe.right(), io.jshmem.AtomicOp.FETCH_ADD, 8, 8, 1, 0);
            pe.transport().putSignal(pe.ctx(), pe.right(), 16, MemorySegment.ofArray(v), 24, 1, io.jshmem.SignalOp.ADD, true);
            pe.transport().putSignal(pe.ctx(), pe.right(), 0, null, 32, 1, io.jshmem.SignalOp.SET, false);
            final long[] got = new long[1];
            pe.transport().get(pe.ctx(), pe.right(), 0, MemorySegment.ofArray(got), false);
            assertEquals(pe.me() + 100L, got[0]);
            pe.sync(); // quiet: covers the endpoint used
            assertEquals(1, endpoints(pe), "endpoints after talking to the right neighbour only");
            assertEquals(pe.left() + 100L, pe.heap().get(ValueLayout.JAVA_LONG, 0));
            assertEquals(1L, pe.heap().get(ValueLayout.JAVA_LONG, 8));
            assertEquals(1L, pe.heap().get(ValueLayout.JAVA_LONG, 24));
            assertEquals(1L, pe.heap().get(ValueLayout.JAVA_LONG, 32));
            pe.transport().put(pe.ctx(), pe.left(), 40, MemorySegment.ofArray(v), true);
            pe.sync();
            assertEquals(2, endpoints(pe), "endpoints after the left neighbour too");
            assertEquals(pe.right() + 100L, pe.heap().get(ValueLayout.JAVA_LONG, 40));
        });
    }

    /**
     * First use from many threads at once, and two PEs first-addressing each other at once: every PE starts 8 threads
     * that, released together, each fetch_add 50 times on PE 0 and on its right neighbour (PE 0's threads on PEs 1 and 2:
     * PEs first-address each other in both directions at the same time). Every add lands once, each PE made one endpoint
     * per peer it addressed.
     */
    @Test
    void manyThreadsAndPesFirstAddressingAPeerAtOnce() throws Exception
    {
        final int threads = 8;
        final int adds = 50;
        run(pe ->
        {
            final java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
            final java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
            final int first = pe.me() == 0 ? 1 : 0;
            final int second = pe.me() == 0 ? 2 : pe.right();
            try
            {
                final java.util.List<java.util.concurrent.Future<?>> fs = new java.util.ArrayList<>();
                for (int t = 0; t < threads; t++)
                {
                    fs.add(pool.submit(() ->
                    {
                        start.await(10, java.util.concurrent.TimeUnit.SECONDS);
                        for (int i = 0; i < adds; i++)
                        {
                            pe.transport().amo(pe.ctx(), first, io.jshmem.AtomicOp.ADD, 8, 0, 1, 0);
                            pe.transport().amo(pe.ctx(), second, io.jshmem.AtomicOp.FETCH_ADD, 8, 8, 1, 0);
                        }
                        pe.transport().quiet(pe.ctx());
                        return null;
                    }));
                }
                for (final java.util.concurrent.Future<?> f : fs)
                {
                    f.get(60, java.util.concurrent.TimeUnit.SECONDS);
                }
            }
            finally
            {
                pool.shutdownNow();
            }
            pe.sync();
            final int expectedEndpoints = first == second ? 1 : 2;
            assertEquals(expectedEndpoints, endpoints(pe), "endpoints made by " + threads + " threads first-addressing " + first + " and " + second);
            // word 0: every PE but 0 adds to PE 0, PE 0 adds to PE 1
            final long word0 = pe.me() == 0 ? (long)(pe.n() - 1) * threads * adds : pe.me() == 1 ? (long)threads * adds : 0;
            assertEquals(word0, pe.heap().get(ValueLayout.JAVA_LONG, 0), "adds to word 0");
            // word 8: every PE adds to its right neighbour, PE 0 to PE 2 (its right neighbour is 1)
            long word8 = 0;
            for (int q = 0; q < pe.n(); q++)
            {
                final int target = q == 0 ? 2 : (q + 1) % pe.n();
                if (target == pe.me())
                {
                    word8 += (long)threads * adds;
                }
            }
            assertEquals(word8, pe.heap().get(ValueLayout.JAVA_LONG, 8), "fetch_adds to word 8");
        });
    }

    /**
     * A dead peer's first use: the last PE closes its transport (its worker is gone, as when its process died, but its
     * bootstrap stays, so only the wire-up deadline can end the attempts) before anyone addressed it; every other PE's
     * first get to it throws {@link JobFailedException} naming it after the wire-up deadline (5 s here; endpoint
     * creation is retried until then), within 8 s, never hangs or aborts the JVM, and the job's failure is reported.
     */
    @Test
    void aDeadPeersFirstUseFailsNamingIt() throws Exception
    {
        connectTimeoutNs = 5_000_000_000L;
        run(pe ->
        {
            final int victim = pe.n() - 1;
            if (pe.me() == victim)
            {
                pe.transport().close();
                pe.bootstrap().barrier(); // closed before anyone addresses it
                final long deadline = System.nanoTime() + 20_000_000_000L;
                while (pe.bootstrap().failure() == null && System.nanoTime() < deadline)
                {
                    Thread.sleep(10);
                }
                assertNotNull(pe.bootstrap().failure(), "the job failed");
                return;
            }
            pe.bootstrap().barrier();
            assertEquals(0, endpoints(pe));
            final long start = System.nanoTime();
            final JobFailedException ex = assertThrows(JobFailedException.class,
                () -> pe.transport().get(pe.ctx(), victim, 0, MemorySegment.ofArray(new long[1]), false));
            final long ms = (System.nanoTime() - start) / 1_000_000;
            System.err.println("first use of dead pe " + victim + " failed after " + ms + " ms: " + ex.getMessage());
            assertTrue(ms < 8000, "failed after " + ms + " ms: " + ex.getMessage());
            assertTrue(ms >= 4000 || !ex.getMessage().contains("cannot create an endpoint"), "gave up before the deadline: " + ex.getMessage());
            assertTrue(String.valueOf(ex.getMessage()).contains("pe " + victim), ex::getMessage);
            assertNotNull(pe.bootstrap().failure(), "the job's failure reported");
        });
    }
}
