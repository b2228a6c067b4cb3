package io.jshmem.transport;

import io.jshmem.AtomicOp;
import io.jshmem.SignalOp;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;
import io.jshmem.transport.proxy.ProxyTransport;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.IntUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport contract on the proxy with {@code SHMEM_PROXY_WAIT_POLL=on}: waits on heap words progress the proxy
 * ({@link Transport.Capability#PROGRESS_FROM_WAITS}), the proxy thread stands aside while they poll, and a polling wait
 * leaves the ACKs of puts and signals for its next poll. The whole contract runs again this way, plus the hand-overs
 * between a polling wait and the proxy thread.
 */
class ProxyWaitPollContractTest extends TransportContractTest
{
    @Override
    Transport make(final Bootstrap bootstrap, final HeapFile heap, final IntUnaryOperator idle)
    {
        return new ProxyTransport(bootstrap, heap.dataSegment(), ProxyTransportContractTest.settings().withWaitPolls(true), idle);
    }

    @Override
    byte peerId()
    {
        return ReachabilityMap.PROXY;
    }

    /**
     * PE 0 waits for every other PE's put-with-signal by polling {@link Transport#progress()} (as the runtime's waits do),
     * then stops calling the proxy for 3 s: the others' quiets (whose ACKs PE 0's last polls may have left unsent), 20
     * fetch_adds and gets each and a final put all complete while it sleeps, served by the proxy thread, which stood aside
     * while PE 0 polled. Three rounds, so a wait that starts while the thread sleeps in its selector or stands aside is hit.
     */
    @Test
    void aPollingWaitServesThePeersAndTheProxyThreadTakesOverWhenItStops() throws Exception
    {
        run(pe ->
        {
            assertTrue(pe.transport().capabilities().contains(Transport.Capability.PROGRESS_FROM_WAITS), "capabilities");
            for (int round = 1; round <= 3; round++)
            {
                if (pe.me() == 0)
                {
                    final long deadline = System.nanoTime() + 20_000_000_000L;
                    for (int q = 1; q < pe.n(); q++)
                    {
                        while (pe.heap().get(ValueLayout.JAVA_LONG, 1024 + 8L * q) < round)
                        {
                            pe.transport().progress();
                            assertTrue(System.nanoTime() < deadline, "[pe 0] round " + round + ": signal of pe " + q + " within 20 s");
                        }
                        final long[] data = new long[16];
                        MemorySegment.copy(pe.heap(), ValueLayout.JAVA_LONG, 2048 + 128L * q, data, 0, 16);
                        for (int i = 0; i < 16; i++)
                        {
                            assertEquals(round * 1000L + q * 100L + i, data[i], "[pe 0] round " + round + " word " + i + " from pe " + q);
                        }
                    }
                    Thread.sleep(3000);
                    for (int q = 1; q < pe.n(); q++)
                    {
                        assertEquals(round, pe.heap().get(ValueLayout.JAVA_LONG, 512 + 8L * q), "[pe 0] round " + round + ": pe " + q +
                            " finished while pe 0 slept");
                    }
                    assertEquals(20L * (pe.n() - 1) * round, pe.heap().get(ValueLayout.JAVA_LONG, 256), "every fetch_add applied");
                }
                else
                {
                    final long[] data = new long[16];
                    for (int i = 0; i < 16; i++)
                    {
                        data[i] = round * 1000L + pe.me() * 100L + i;
                    }
                    pe.transport().putSignal(pe.ctx(), 0, 2048 + 128L * pe.me(), MemorySegment.ofArray(data), 1024 + 8L * pe.me(), round,
                        SignalOp.SET, false);
                    pe.transport().quiet(pe.ctx());
                    final long[] got = new long[1];
                    for (int i = 0; i < 20; i++)
                    {
                        pe.transport().amo(pe.ctx(), 0, AtomicOp.FETCH_ADD, 8, 256, 1, 0);
                        pe.transport().get(pe.ctx(), 0, 256, MemorySegment.ofArray(got), false);
                        assertTrue(got[0] >= i + 1, "get saw " + got[0]);
                    }
                    pe.transport().put(pe.ctx(), 0, 512 + 8L * pe.me(), MemorySegment.ofArray(new long[] {round}), false);
                    pe.transport().quiet(pe.ctx());
                }
                pe.sync();
            }
        });
    }

    /**
     * A polling wait that parks hands over at once ({@link Transport#progressParks()}): PE 0 polls, then "parks" and sleeps
     * 3 s; the others' operations complete meanwhile.
     */
    @Test
    void aWaitThatParksHandsTheProxyToItsThread() throws Exception
    {
        run(pe ->
        {
            if (pe.me() == 0)
            {
                for (int i = 0; i < 1000; i++)
                {
                    pe.transport().progress();
                }
                pe.transport().progressParks();
                Thread.sleep(3000);
                for (int q = 1; q < pe.n(); q++)
                {
                    assertEquals(1L, pe.heap().get(ValueLayout.JAVA_LONG, 512 + 8L * q), "pe " + q + " finished while pe 0 slept");
                }
                assertEquals(20L * (pe.n() - 1), pe.heap().get(ValueLayout.JAVA_LONG, 256), "every fetch_add applied");
            }
            else
            {
                Thread.sleep(200);
                for (int i = 0; i < 20; i++)
                {
                    pe.transport().amo(pe.ctx(), 0, AtomicOp.FETCH_ADD, 8, 256, 1, 0);
                }
                pe.transport().put(pe.ctx(), 0, 512 + 8L * pe.me(), MemorySegment.ofArray(new long[] {1}), false);
                pe.transport().quiet(pe.ctx());
            }
            pe.sync();
        });
    }

    /**
     * Polling waits leave a transfer under way to the proxy thread (it marks itself busy; the pollers back off and are woken
     * when it is done) and the transfer arrives whole: every other PE sends 1 MiB to PE 0 in non-blocking puts, then polls
     * {@link Transport#progress()} (as a wait for ring space or a polling wait does) until its quiet completes, then
     * signals; PE 0 polls until every signal has come and checks every byte. Five rounds with new data each.
     */
    @Test
    void pollingWaitsLeaveATransferToTheProxyThreadAndItArrivesWhole() throws Exception
    {
        final int bytes = 1 << 20;
        run(pe ->
        {
            for (int round = 1; round <= 5; round++)
            {
                final long deadline = System.nanoTime() + 30_000_000_000L;
                if (pe.me() == 0)
                {
                    for (int q = 1; q < pe.n(); q++)
                    {
                        while (pe.heap().get(ValueLayout.JAVA_LONG, 1024 + 8L * q) < round)
                        {
                            pe.transport().progress();
                            assertTrue(System.nanoTime() < deadline, "[pe 0] round " + round + ": signal of pe " + q + " within 30 s");
                        }
                        final long base = (long)bytes * q;
                        for (long i = 0; i < bytes; i += 8)
                        {
                            final long want = round * 1_000_000_000L + q * 10_000_000L + i;
                            final long got = pe.heap().get(ValueLayout.JAVA_LONG, base + i);
                            if (got != want)
                            {
                                assertEquals(want, got, "[pe 0] round " + round + ": word at byte " + i + " from pe " + q);
                            }
                        }
                    }
                }
                else
                {
                    final MemorySegment src = MemorySegment.ofArray(new long[bytes / 8]);
                    for (long i = 0; i < bytes; i += 8)
                    {
                        src.set(ValueLayout.JAVA_LONG, i, round * 1_000_000_000L + pe.me() * 10_000_000L + i);
                    }
                    for (int part = 0; part < 16; part++)
                    {
                        final long at = (long)part * (bytes / 16);
                        pe.transport().put(pe.ctx(), 0, (long)bytes * pe.me() + at, src.asSlice(at, bytes / 16), true);
                        pe.transport().progress(); // a poll in the middle of the transfer: it must not stall it
                    }
                    for (int i = 0; i < 1000; i++)
                    {
                        pe.transport().progress();
                    }
                    pe.transport().quiet(pe.ctx());
                    assertTrue(System.nanoTime() < deadline, "[pe " + pe.me() + "] round " + round + ": 1 MiB sent within 30 s");
                    pe.transport().putSignal(pe.ctx(), 0, 0, null, 1024 + 8L * pe.me(), round, SignalOp.SET, false);
                    pe.transport().quiet(pe.ctx());
                }
                pe.sync();
            }
        });
    }
}
