package io.jshmem.spi;

import io.jshmem.JobFailedException;

import java.lang.foreign.MemorySegment;

/**
 * What a symmetric handle needs from the PE that allocated it: the local heap, the PE's identity for
 * messages, and the idle step of wait loops (which also notices a failed job). Implemented by the
 * runtime, one per PE; not for applications.
 */
public interface SymmetricSpace
{
    /** {@return this PE's number in WORLD} */
    int myPe();

    /** {@return the number of PEs in WORLD} */
    int nPes();

    /** {@return this PE's whole symmetric heap (data region)} */
    MemorySegment localHeap();

    /**
     * One step of a wait loop that has not been satisfied yet: spins briefly, then yields, then parks
     * for short periods, so that a waiter never starves the PE it waits for when PEs outnumber cores.
     *
     * @param idleCount how many unsatisfied polls this wait has made so far.
     * @return the next idle count.
     * @throws JobFailedException if the job failed (a PE was lost, the job is exiting).
     */
    int idle(int idleCount);

    /** {@return true once the PE has finalized: its objects are gone with its heap (handles say so when used)} */
    default boolean isFinalized()
    {
        return false;
    }

    /** {@return this PE's {@code SHMEM_STATS} counters, or null when the option is off (the default)} */
    default PeStats stats()
    {
        return null;
    }

    /** {@return the message prefix naming this PE, {@code "[pe 3/8] "}} */
    default String prefix()
    {
        return io.jshmem.ShmemException.pePrefix(myPe(), nPes());
    }
}
