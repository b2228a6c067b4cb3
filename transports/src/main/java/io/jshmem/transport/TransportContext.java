package io.jshmem.transport;

/**
 * A transport's per-context state: what {@link Transport#quiet} and {@link Transport#fence} act on.
 * Made by {@link Transport#createContext()}, released by {@link #close()} after a final quiet.
 */
public interface TransportContext extends AutoCloseable
{
    /** Releases the context (the caller quiets it first). Idempotent. */
    @Override
    void close();
}
