package io.jshmem.transport;

import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;

import java.util.function.IntUnaryOperator;

/** The transport contract on the p2p transport (the PEs share a node, so every heap is mapped). */
class P2pTransportContractTest extends TransportContractTest
{
    @Override
    Transport make(final Bootstrap bootstrap, final HeapFile heap, final IntUnaryOperator idle)
    {
        return new P2pTransport(bootstrap, heap, HeapFile.DEFAULT_DIRECTORY, true);
    }

    @Override
    byte peerId()
    {
        return ReachabilityMap.P2P;
    }
}
