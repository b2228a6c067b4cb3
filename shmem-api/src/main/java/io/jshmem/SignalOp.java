package io.jshmem;

/** How a signal updates its 64-bit signal word ({@code SHMEM_SIGNAL_SET}, {@code SHMEM_SIGNAL_ADD}). */
public enum SignalOp
{
    /** {@code SHMEM_SIGNAL_SET}: the signal word takes the signal value. */
    SET,
    /** {@code SHMEM_SIGNAL_ADD}: the signal value is added to the signal word (atomically). */
    ADD
}
