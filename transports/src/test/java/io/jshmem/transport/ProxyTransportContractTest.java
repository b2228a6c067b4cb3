package io.jshmem.transport;

import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;
import io.jshmem.transport.proxy.ProxyTransport;


import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.IntUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The transport contract on the proxy transport: every pair over loopback TCP through the proxy
 * threads, with a 1 MiB command ring and a 1 MiB window so flow control and ring wrap-around are hit.
 */
class ProxyTransportContractTest extends TransportContractTest
{
    private volatile boolean strangers;

    @Override
    Transport make(final Bootstrap bootstrap, final HeapFile heap, final IntUnaryOperator idle)
    {
        final ProxyTransport t = new ProxyTransport(bootstrap, heap.dataSegment(), settings(), idle);
        if (strangers)
        {
            // a stranger connects to the proxy port before the peers do and speaks nonsense
            final String ep = new String(t.endpoint(), java.nio.charset.StandardCharsets.US_ASCII);
            try (java.net.Socket s = new java.net.Socket(ep.substring(0, ep.lastIndexOf(':')), Integer.parseInt(ep.substring(ep.lastIndexOf(':') + 1))))
            {
                s.getOutputStream().write(new byte[64]);
                s.getOutputStream().flush();
            }
            catch (final java.io.IOException ex)
            {
                throw new java.io.UncheckedIOException(ex);
            }
        }
        return t;
    }

    @Test
    void aStrangerOnTheProxyPortChangesNothing() throws Exception
    {
        strangers = true;
        run(pe ->
        {
            final long[] v = {pe.me() + 100};
            pe.transport().put(pe.ctx(), pe.right(), 0, MemorySegment.ofArray(v), false);
            pe.sync();
            assertEquals(pe.left() + 100, pe.heap().get(ValueLayout.JAVA_LONG, 0));
            // every PE's listener stays open for the job's life and drops the stranger (its nonsense is no HELLO);
            // the agent may still be reading it when the put is through
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (((ProxyTransport)pe.transport()).droppedConnections() < 1 && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertEquals(1, ((ProxyTransport)pe.transport()).droppedConnections(), "strangers dropped");
        });
    }

    @Test
    void aLostPeerFailsEveryWaitNamingItWithinSeconds() throws Exception
    {
        lostPeerFailsEveryWaitNamingIt();
    }

    static ProxyTransport.Settings settings()
    {
        return new ProxyTransport.Settings(1 << 20, 1 << 20, 100, 100, 10_000_000_000L, 30_000_000_000L, System.err::println);
    }

    @Override
    byte peerId()
    {
        return ReachabilityMap.PROXY;
    }
}
