package io.jshmem.bootstrap;

import io.jshmem.ShmemTimeoutException;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The store of a singleton job: the same semantics as the root's, in this process. */
final class LocalStore implements KeyValueStore
{
    private final StoreCore core = new StoreCore();
    private final long timeoutNs;
    private final Supplier<String> prefix;

    LocalStore(final long timeoutNs, final Supplier<String> prefix)
    {
        this.timeoutNs = timeoutNs;
        this.prefix = prefix;
    }

    @Override
    public void set(final String key, final byte[] value)
    {
        core.set(key, value);
    }

    @Override
    public byte[] get(final String key)
    {
        waitFor(List.of(key));
        return core.get(key);
    }

    @Override
    public byte[] tryGet(final String key)
    {
        return core.get(key);
    }

    @Override
    public long add(final String key, final long delta)
    {
        return core.add(key, delta);
    }

    @Override
    public void waitFor(final List<String> keys)
    {
        waitFor(keys, timeoutNs);
    }

    @Override
    public void waitFor(final List<String> keys, final long timeoutNs)
    {
        final CountDownLatch latch = new CountDownLatch(1);
        final Object owner = new Object();
        if (core.await(keys, latch::countDown, owner))
        {
            return;
        }
        try
        {
            if (!latch.await(timeoutNs, TimeUnit.NANOSECONDS))
            {
                core.cancel(owner);
                throw new ShmemTimeoutException(prefix.get() + "store wait timed out after " + timeoutNs / 1_000_000
                    + " ms; keys never set: " + core.missing(keys), new int[0]);
            }
        }
        catch (final InterruptedException ex)
        {
            core.cancel(owner);
            Thread.currentThread().interrupt();
            throw new ShmemTimeoutException(prefix.get() + "store wait interrupted; keys not set: " + core.missing(keys), new int[0]);
        }
    }

    @Override
    public boolean contains(final String key)
    {
        return core.contains(key);
    }

    @Override
    public boolean delete(final String key)
    {
        return core.delete(key);
    }

    @Override
    public KeyValueStore prefixed(final String prefix)
    {
        return new PrefixStore(this, prefix);
    }
}
