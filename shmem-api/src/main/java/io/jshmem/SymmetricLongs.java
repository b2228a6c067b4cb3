package io.jshmem;

import io.jshmem.jfr.Jfr;
import io.jshmem.jfr.WaitEvent;
import io.jshmem.spi.Allocation;
import io.jshmem.spi.SymmetricSpace;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A symmetric array of Java {@code long}s (C long, int64_t, and the {@code uint64_t} signal words of
 * put-with-signal): RMA, atomics, point-to-point sync and signals.
 */
public final class SymmetricLongs extends SymmetricWords<long[]>
{
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle(); // aligned: acquire loads need it

    /**
     * Runtime use: a handle on part of an allocation.
     *
     * @param allocation the allocation.
     * @param offset     byte offset of element 0 in the heap.
     * @param length     number of elements.
     */
    public SymmetricLongs(final Allocation allocation, final long offset, final long length)
    {
        super(allocation, offset, length);
    }

    @Override
    public ValueLayout elementLayout()
    {
        return ValueLayout.JAVA_LONG_UNALIGNED;
    }

    @Override
    public SymmetricLongs slice(final long from, final long count)
    {
        return new SymmetricLongs(allocation, checkSliceArgs(from, count), count);
    }

    @Override
    long laWord(final long index)
    {
        return (long)LONG.getAcquire(local, index << 3);
    }

    /**
     * {@return this PE's element {@code index} (plain load)}
     *
     * @param index element index in the object.
     */
    public long getLocal(final long index)
    {
        return local.get(ValueLayout.JAVA_LONG_UNALIGNED, checkRange(index, 1) - offset);
    }

    /**
     * Stores into this PE's element {@code index} (plain store).
     *
     * @param index element index in the object.
     * @param value the value to store.
     */
    public void setLocal(final long index, final long value)
    {
        local.set(ValueLayout.JAVA_LONG_UNALIGNED, checkRange(index, 1) - offset, value);
    }

    /**
     * {@code shmem_signal_fetch}: atomic (acquire) read of this PE's signal word {@code index}.
     *
     * @param index the signal word.
     * @return its value (an unsigned 64-bit quantity).
     */
    public long signalFetch(final long index)
    {
        checkRange(index, 1);
        checkAligned();
        return laWord(index);
    }

    /**
     * {@code shmem_signal_wait_until}: blocks until this PE's signal word satisfies the comparison,
     * compared as unsigned 64-bit values, and returns the value that satisfied it.
     *
     * @param index the signal word.
     * @param cmp   comparison (unsigned).
     * @param value comparison value.
     * @return the signal's value when the comparison held.
     */
    public long signalWaitUntil(final long index, final Cmp cmp, final long value)
    {
        checkRange(index, 1);
        checkAligned();
        long v = laWord(index);
        if (cmp.testUnsigned(v, value))
        {
            return v;
        }
        final SymmetricSpace space = allocation.space();
        final WaitEvent event = Jfr.waitBegun(); // only a wait that blocks gets here
        final long startNs = System.nanoTime();
        int idle = 0;
        while (!cmp.testUnsigned(v = laWord(index), value))
        {
            idle = space.idle(idle);
        }
        waited(event, startNs, "signal_wait_until", index);
        return v;
    }
}
