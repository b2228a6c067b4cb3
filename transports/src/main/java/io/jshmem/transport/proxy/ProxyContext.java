package io.jshmem.transport.proxy;

import io.jshmem.transport.TransportContext;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A context's state in the proxy: per target, how many requests it issued (API threads) and how many
 * the target acknowledged as applied (the agent). quiet waits until they meet for every target.
 */
final class ProxyContext implements TransportContext
{
    final int id;
    final AtomicLongArray issued;
    final AtomicLongArray completed;
    /** Made for the library's collectives: barrier_all's quietAll(false) skips it. */
    final boolean collective;
    private final ProxyTransport owner;
    /** A thread in quiet or pe_quiet, the target it waits on now and the count it waits for: the agent unparks it on that ACK. */
    volatile Thread waiter;
    volatile int waitPe;
    volatile long waitFor;

    ProxyContext(final int id, final int nPes, final ProxyTransport owner, final boolean collective)
    {
        this.id = id;
        this.collective = collective;
        this.issued = new AtomicLongArray(nPes);
        this.completed = new AtomicLongArray(nPes);
        this.owner = owner;
    }

    @Override
    public void close()
    {
        owner.release(this);
    }
}
