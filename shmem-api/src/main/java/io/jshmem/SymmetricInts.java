package io.jshmem;

import io.jshmem.spi.Allocation;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/** A symmetric array of Java {@code int}s (C int, int32_t): RMA, atomics and point-to-point sync. */
public final class SymmetricInts extends SymmetricWords<int[]>
{
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle(); // aligned: acquire loads need it

    /**
     * Runtime use: a handle on part of an allocation.
     *
     * @param allocation the allocation.
     * @param offset     byte offset of element 0 in the heap.
     * @param length     number of elements.
     */
    public SymmetricInts(final Allocation allocation, final long offset, final long length)
    {
        super(allocation, offset, length);
    }

    @Override
    public ValueLayout elementLayout()
    {
        return ValueLayout.JAVA_INT_UNALIGNED;
    }

    @Override
    public SymmetricInts slice(final long from, final long count)
    {
        return new SymmetricInts(allocation, checkSliceArgs(from, count), count);
    }

    @Override
    long laWord(final long index)
    {
        return (int)INT.getAcquire(local, index << 2);
    }

    /**
     * {@return this PE's element {@code index} (plain load)}
     *
     * @param index element index in the object.
     */
    public int getLocal(final long index)
    {
        return local.get(ValueLayout.JAVA_INT_UNALIGNED, checkRange(index, 1) - offset);
    }

    /**
     * Stores into this PE's element {@code index} (plain store).
     *
     * @param index element index in the object.
     * @param value the value to store.
     */
    public void setLocal(final long index, final int value)
    {
        local.set(ValueLayout.JAVA_INT_UNALIGNED, checkRange(index, 1) - offset, value);
    }
}
