package io.jshmem.transport.proxy;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntUnaryOperator;

/**
 * Where replies land: a fixed table of slots that an API thread claims for a get or fetching atomic,
 * names in its request, and (when blocking) waits on; the agent fills the slot when the reply comes.
 * An nbi slot is freed by the agent after it wrote the destination; a blocking one by its waiter.
 */
final class Completions
{
    static final int FREE = 0;
    static final int BUSY = 1;
    static final int DONE = 2;

    static final class Slot
    {
        private static final VarHandle STATE;

        static
        {
            try
            {
                STATE = MethodHandles.lookup().findVarHandle(Slot.class, "state", int.class);
            }
            catch (final ReflectiveOperationException ex)
            {
                throw new ExceptionInInitializerError(ex);
            }
        }

        volatile int state;
        /** A blocking request's waiting thread, unparked when its reply is applied (it may be parked in its wait strategy). */
        volatile Thread waiter;
        MemorySegment dest;
        boolean nbi;
        long value;

        boolean tryClaim()
        {
            return state == FREE && STATE.compareAndSet(this, FREE, BUSY);
        }
    }

    private final Slot[] slots;
    private final int mask;
    private final AtomicLong next = new AtomicLong();

    Completions(final int size)
    {
        slots = new Slot[size];
        for (int i = 0; i < size; i++)
        {
            slots[i] = new Slot();
        }
        mask = size - 1;
    }

    /**
     * Claims a slot.
     *
     * @param dest where a get's data or a fetched value goes (null: the value stays in the slot).
     * @param nbi  true: the agent frees the slot after writing dest.
     * @param idle the caller's idle strategy while every slot is busy (throws when the job failed).
     * @return the slot index.
     */
    int claim(final MemorySegment dest, final boolean nbi, final IntUnaryOperator idle)
    {
        int idleCount = 0;
        while (true)
        {
            for (int tries = 0; tries < slots.length; tries++)
            {
                final int i = (int)(next.getAndIncrement() & mask);
                final Slot s = slots[i];
                if (s.tryClaim())
                {
                    s.dest = dest;
                    s.nbi = nbi;
                    return i;
                }
            }
            idleCount = idle.applyAsInt(idleCount);
        }
    }

    Slot slot(final int index)
    {
        return slots[index];
    }

    /** @return whether index names a slot that waits for a reply (a peer's reply is checked before use). */
    boolean isBusy(final int index)
    {
        return index >= 0 && index < slots.length && slots[index].state == BUSY;
    }

    /** Agent side: the reply has been written into the slot (and its destination). */
    void complete(final Slot s)
    {
        if (s.nbi)
        {
            s.dest = null;
            s.state = FREE;
        }
        else
        {
            s.state = DONE; // then the waiter: pairs with the waiter's store of itself before it reads the state
            final Thread t = s.waiter;
            if (t != null && t != Thread.currentThread())
            {
                LockSupport.unpark(t); // a parked waiter wakes now, not on its park's timer (tens of microseconds with timer slack)
            }
        }
    }

    /** Waiter side: releases a DONE slot. */
    void release(final int index)
    {
        final Slot s = slots[index];
        s.dest = null;
        s.waiter = null;
        s.state = FREE;
    }
}
