package io.jshmem.transport;

import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;
import io.jshmem.transport.proxy.ProxyTransport;

import java.util.function.IntUnaryOperator;

/**
 * The transport contract on the proxy where the PE's waits alone serve it: waits that poll ({@code SHMEM_PROXY_WAIT_POLL}
 * on), a core per PE, on a machine of many cores (forced here: {@code ProxyTransport.Settings.withManyCores}). A signal
 * without data is then sent by the thread that posts it, and the proxy thread runs a cycle of its own only once per
 * millisecond while a wait polls. The whole contract runs again this way.
 */
class ProxyWaitsAloneContractTest extends TransportContractTest
{
    @Override
    Transport make(final Bootstrap bootstrap, final HeapFile heap, final IntUnaryOperator idle)
    {
        return new ProxyTransport(bootstrap, heap.dataSegment(), ProxyTransportContractTest.settings().withWaitPolls(true).withManyCores(true),
            idle);
    }

    @Override
    byte peerId()
    {
        return ReachabilityMap.PROXY;
    }
}
