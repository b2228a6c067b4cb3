package io.jshmem.bootstrap;

import java.util.List;

/**
 * A small job-wide key-value store on the bootstrap's control channel, as PyTorch's
 * TCPStore/PrefixStore: job-level metadata that is not on the symmetric heap. Safe from any thread.
 * Every blocking call has the bootstrap's deadline and fails when the job does.
 */
public interface KeyValueStore
{
    /** Sets a key (overwrites). */
    void set(String key, byte[] value);

    /**
     * @return the value, waiting until the key is set (up to the deadline).
     */
    byte[] get(String key);

    /**
     * @return the value if set, or null without waiting.
     */
    byte[] tryGet(String key);

    /**
     * Atomically adds to a key's 64-bit counter (an absent key counts as 0).
     *
     * @return the new value.
     */
    long add(String key, long delta);

    /** Waits until every key is set (up to the deadline, then a timeout naming the missing keys). */
    void waitFor(List<String> keys);

    /** Waits until every key is set, with an explicit deadline in nanoseconds. */
    void waitFor(List<String> keys, long timeoutNs);

    /** @return true if the key is set. */
    boolean contains(String key);

    /** @return true if the key existed and was removed. */
    boolean delete(String key);

    /** @return a view whose keys are all prefixed by {@code prefix + "/"} (nesting allowed). */
    KeyValueStore prefixed(String prefix);
}
