package io.jshmem;

/** Thread-safety levels of {@code shmem_init_thread}, in increasing order. */
public enum ThreadLevel
{
    /** Only one thread in the process. */
    SINGLE,
    /** Only the thread that called init makes jshmem calls. */
    FUNNELED,
    /** Any thread may call, but never two at once. */
    SERIALIZED,
    /** Any thread may call at any time. */
    MULTIPLE
}
