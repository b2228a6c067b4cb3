package io.jshmem.transport;

import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;
import io.jshmem.transport.proxy.ProxyTransport;

import java.util.function.IntUnaryOperator;

/**
 * The transport contract on the proxy transport: every pair over loopback TCP through the proxy
 * threads, with a 1 MiB command ring and a 1 MiB window so flow control and ring wrap-around are hit.
 */
class ProxyTransportContractTest extends TransportContractTest
{
    @Override
    Transport make(final Bootstrap bootstrap, final HeapFile heap, final IntUnaryOperator idle)
    {
        return new ProxyTransport(bootstrap, heap.dataSegment(), settings(), idle);
    }

    static ProxyTransport.Settings settings()
    {
        return new ProxyTransport.Settings(1 << 20, 1 << 20, 100, 100, 1_000_000_000L, 10_000_000_000L, 30_000_000_000L, System.err::println);
    }

    @Override
    byte peerId()
    {
        return ReachabilityMap.PROXY;
    }
}
