package io.jshmem.bootstrap;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The key-value map behind a store (in the root, or in a singleton PE) and its waiters. Counters
 * ({@link #add}) are stored as decimal ASCII text, as PyTorch's TCPStore does, so {@code get} of a
 * counter reads {@code "3"}. Thread-safe; waiter callbacks run outside the lock.
 */
final class StoreCore
{
    private record Waiter(List<String> keys, Runnable ready, Object owner)
    {
    }

    private final Map<String, byte[]> map = new HashMap<>();
    private final List<Waiter> waiters = new ArrayList<>();

    void set(final String key, final byte[] value)
    {
        final List<Runnable> ready;
        synchronized (this)
        {
            map.put(key, value.clone());
            ready = collectReady();
        }
        ready.forEach(Runnable::run);
    }

    synchronized byte[] get(final String key)
    {
        final byte[] v = map.get(key);
        return v == null ? null : v.clone();
    }

    /** @throws IllegalStateException if the key holds something that is not a counter. */
    long add(final String key, final long delta)
    {
        final List<Runnable> ready;
        final long sum;
        synchronized (this)
        {
            final byte[] old = map.get(key);
            long base = 0;
            if (old != null)
            {
                try
                {
                    base = Long.parseLong(new String(old, StandardCharsets.US_ASCII));
                }
                catch (final NumberFormatException ex)
                {
                    throw new IllegalStateException("key '" + key + "' holds " + old.length + " bytes that are not a counter");
                }
            }
            sum = base + delta;
            map.put(key, Long.toString(sum).getBytes(StandardCharsets.US_ASCII));
            ready = collectReady();
        }
        ready.forEach(Runnable::run);
        return sum;
    }

    synchronized boolean delete(final String key)
    {
        return map.remove(key) != null;
    }

    synchronized boolean contains(final String key)
    {
        return map.containsKey(key);
    }

    synchronized List<String> missing(final List<String> keys)
    {
        final List<String> out = new ArrayList<>();
        for (final String k : keys)
        {
            if (!map.containsKey(k))
            {
                out.add(k);
            }
        }
        return out;
    }

    /**
     * @return true if every key is present now; otherwise {@code ready} runs once they all are (unless
     *         cancelled by owner).
     */
    boolean await(final List<String> keys, final Runnable ready, final Object owner)
    {
        synchronized (this)
        {
            if (missing(keys).isEmpty())
            {
                return true;
            }
            waiters.add(new Waiter(List.copyOf(keys), ready, owner));
            return false;
        }
    }

    /** Forgets every key and waiter: a new generation of the job starts with an empty store. */
    synchronized void clear()
    {
        map.clear();
        waiters.clear();
    }

    /** Forgets every waiter registered by {@code owner}. */
    synchronized void cancel(final Object owner)
    {
        waiters.removeIf(w -> w.owner() == owner);
    }

    private List<Runnable> collectReady()
    {
        final List<Runnable> ready = new ArrayList<>();
        for (final Iterator<Waiter> it = waiters.iterator(); it.hasNext(); )
        {
            final Waiter w = it.next();
            if (missing(w.keys()).isEmpty())
            {
                it.remove();
                ready.add(w.ready());
            }
        }
        return ready;
    }
}
