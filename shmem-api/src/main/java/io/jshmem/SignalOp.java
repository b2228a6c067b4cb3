package io.jshmem;

/** How a signal updates its 64-bit signal word ({@code SHMEM_SIGNAL_SET}, {@code SHMEM_SIGNAL_ADD}). */
public enum SignalOp
{
    SET, ADD
}
