package io.jshmem.transport;

import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;
import io.jshmem.transport.proxy.ProxyTransport;

import java.util.function.IntUnaryOperator;

/**
 * {@link ProxyWaitPollContractTest} where PEs outnumber the cores ({@code SHMEM_PROXY_WAIT_POLL} on by auto on a machine
 * of many cores): polling waits send the ACKs of what they read at once, and waits for the PE's own round trips spin
 * a while before the wait strategy takes over. The whole contract and the hand-overs again.
 */
class ProxyWaitPollSharedCoresContractTest extends ProxyWaitPollContractTest
{
    @Override
    Transport make(final Bootstrap bootstrap, final HeapFile heap, final IntUnaryOperator idle)
    {
        return new ProxyTransport(bootstrap, heap.dataSegment(),
            ProxyTransportContractTest.settings().withWaitPolls(true).withSharedCores(true), idle);
    }
}
