package io.jshmem.bootstrap;

import java.util.List;

/** A namespace of another store: every key gets {@code prefix + "/"} in front (as PyTorch's PrefixStore). */
final class PrefixStore implements KeyValueStore
{
    private final KeyValueStore inner;
    private final String prefix;

    PrefixStore(final KeyValueStore inner, final String prefix)
    {
        if (prefix == null || prefix.isEmpty())
        {
            throw new IllegalArgumentException("empty store prefix");
        }
        this.inner = inner;
        this.prefix = prefix + "/";
    }

    private String k(final String key)
    {
        return prefix + key;
    }

    private List<String> k(final List<String> keys)
    {
        return keys.stream().map(this::k).toList();
    }

    @Override
    public void set(final String key, final byte[] value)
    {
        inner.set(k(key), value);
    }

    @Override
    public byte[] get(final String key)
    {
        return inner.get(k(key));
    }

    @Override
    public byte[] tryGet(final String key)
    {
        return inner.tryGet(k(key));
    }

    @Override
    public long add(final String key, final long delta)
    {
        return inner.add(k(key), delta);
    }

    @Override
    public void waitFor(final List<String> keys)
    {
        inner.waitFor(k(keys));
    }

    @Override
    public void waitFor(final List<String> keys, final long timeoutNs)
    {
        inner.waitFor(k(keys), timeoutNs);
    }

    @Override
    public boolean contains(final String key)
    {
        return inner.contains(k(key));
    }

    @Override
    public boolean delete(final String key)
    {
        return inner.delete(k(key));
    }

    @Override
    public KeyValueStore prefixed(final String prefix)
    {
        return new PrefixStore(this, prefix);
    }
}
