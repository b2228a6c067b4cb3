package io.jshmem.transport;

import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;
import io.jshmem.transport.ucx.UcxTransport;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.IntUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    @Override
    Transport make(final Bootstrap bootstrap, final HeapFile heap, final IntUnaryOperator idle)
    {
        return new UcxTransport(bootstrap, heap.dataSegment(), new UcxTransport.Settings("libucp.so.0", 50_000L,
            bootstrap.rank() == 0 ? handoffPe0Ns : 1_000_000L, 30_000_000_000L, System.err::println), idle);
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
}
