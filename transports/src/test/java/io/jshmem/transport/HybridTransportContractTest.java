package io.jshmem.transport;

import io.jshmem.AtomicOp;
import io.jshmem.SignalOp;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;
import io.jshmem.transport.hybrid.HybridTransport;
import io.jshmem.transport.proxy.ProxyTransport;
import io.jshmem.transport.ucx.UcxTransport;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.IntUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport contract on the hybrid transport (the proxy and UCX to every peer, chosen per operation), and the
 * ordering it keeps across the two. libucp must be installed, as for {@link UcxTransportContractTest}.
 */
class HybridTransportContractTest extends TransportContractTest
{
    @Override
    Transport make(final Bootstrap bootstrap, final HeapFile heap, final IntUnaryOperator idle)
    {
        final UcxTransport ucx = new UcxTransport(bootstrap, heap.dataSegment(), new UcxTransport.Settings("libucp.so.0", 50_000L,
            1_000_000L, 30_000_000_000L, System.err::println), idle);
        return new HybridTransport(new ProxyTransport(bootstrap, heap.dataSegment(), ProxyTransportContractTest.settings(), idle), ucx,
            bootstrap.size());
    }

    @Override
    byte peerId()
    {
        return ReachabilityMap.HYBRID;
    }

    @Test
    void aLostPeerFailsEveryWaitNamingIt() throws Exception
    {
        lostPeerFailsEveryWaitNamingIt();
    }

    /**
     * Each round: a 64 KiB put to the right neighbour (proxy), then a blocking get of its last word (UCX) sees it; a
     * blocking fetch-add (UCX) after a put to the same word (proxy) applies after it; then data, fence and a signal
     * without data, which the neighbour waits for and then finds the data under.
     */
    @Test
    void operationsThroughEitherTransportKeepProgramOrderPerTarget() throws Exception
    {
        run(pe ->
        {
            final long data = 1 << 20;
            final int words = 8192;
            final long sig = 64;
            final long word = 128;
            final MemorySegment src = MemorySegment.ofArray(new long[words]);
            final MemorySegment one = MemorySegment.ofArray(new long[1]);
            for (int round = 1; round <= 20; round++)
            {
                final long stamp = (long)round << 32 | pe.me();
                for (int i = 0; i < words; i++)
                {
                    src.setAtIndex(ValueLayout.JAVA_LONG, i, stamp + i);
                }
                pe.transport().put(pe.ctx(), pe.right(), data, src, true);
                pe.transport().get(pe.ctx(), pe.right(), data + 8L * (words - 1), one, false);
                assertEquals(stamp + words - 1, one.get(ValueLayout.JAVA_LONG, 0), "round " + round + ": a get sees this PE's put before it");

                one.set(ValueLayout.JAVA_LONG, 0, 1000L * round);
                pe.transport().put(pe.ctx(), pe.right(), word, one, true);
                final long old = pe.transport().amo(pe.ctx(), pe.right(), AtomicOp.FETCH_ADD, 8, word, 1, 0);
                assertEquals(1000L * round, old, "round " + round + ": a fetch-add applies after this PE's put to the word");

                src.setAtIndex(ValueLayout.JAVA_LONG, 0, stamp);
                pe.transport().put(pe.ctx(), pe.right(), data, src, true);
                pe.transport().fence(pe.ctx());
                pe.transport().putSignal(pe.ctx(), pe.right(), 0, null, sig, round, SignalOp.SET, true);
                final long deadline = System.nanoTime() + 30_000_000_000L;
                while (pe.heap().get(ValueLayout.JAVA_LONG_UNALIGNED, sig) < round)
                {
                    pe.transport().progress();
                    assertTrue(System.nanoTime() < deadline, "round " + round + ": the left neighbour's signal");
                }
                final long expected = (long)round << 32 | pe.left();
                assertEquals(expected, pe.heap().get(ValueLayout.JAVA_LONG_UNALIGNED, data), "round " + round + ": the data is there under the signal");
                assertEquals(expected + words - 1, pe.heap().get(ValueLayout.JAVA_LONG_UNALIGNED, data + 8L * (words - 1)));
                pe.sync();
            }
        });
    }

    /**
     * Signals to one word alternate between a signal alone (UCX, the proxy having nothing unacknowledged) and a
     * put-with-signal carrying data (proxy): the word ends with the last one sent, never an earlier one arriving late.
     */
    @Test
    void signalsToOneWordThroughEitherTransportArriveInOrder() throws Exception
    {
        run(pe ->
        {
            final long sig = 256;
            final MemorySegment small = MemorySegment.ofArray(new long[] {pe.me()});
            final int rounds = 200;
            for (int s = 1; s <= 2 * rounds; s += 2)
            {
                pe.transport().putSignal(pe.ctx(), pe.right(), 0, null, sig, s, SignalOp.SET, true);
                pe.transport().putSignal(pe.ctx(), pe.right(), 512, small, sig, s + 1, SignalOp.SET, true);
            }
            pe.sync();
            assertEquals(2L * rounds, pe.heap().get(ValueLayout.JAVA_LONG_UNALIGNED, sig), "the last signal wins");
        });
    }
}
