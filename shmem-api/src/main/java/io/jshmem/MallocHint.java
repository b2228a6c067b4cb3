package io.jshmem;

/** Hints of {@code shmem_malloc_with_hints}; they never change semantics. */
public enum MallocHint
{
    /** The object is mostly used by remote atomics. */
    ATOMICS_REMOTE,
    /** The object is used as signal words of put-with-signal. */
    SIGNAL_REMOTE
}
