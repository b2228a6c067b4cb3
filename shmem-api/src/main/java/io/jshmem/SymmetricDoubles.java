package io.jshmem;

import io.jshmem.spi.Allocation;

import java.lang.foreign.ValueLayout;

/** A symmetric array of Java {@code double}s (C double). */
public final class SymmetricDoubles extends SymmetricArray<double[]>
{
    /**
     * Runtime use: a handle on part of an allocation.
     *
     * @param allocation the allocation.
     * @param offset     byte offset of element 0 in the heap.
     * @param length     number of elements.
     */
    public SymmetricDoubles(final Allocation allocation, final long offset, final long length)
    {
        super(allocation, offset, length);
    }

    @Override
    public ValueLayout elementLayout()
    {
        return ValueLayout.JAVA_DOUBLE_UNALIGNED;
    }

    @Override
    public SymmetricDoubles slice(final long from, final long count)
    {
        return new SymmetricDoubles(allocation, checkSliceArgs(from, count), count);
    }

    /** @return this PE's element {@code index} (plain load). */
    public double getLocal(final long index)
    {
        return local.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, checkRange(index, 1) - offset);
    }

    /** Stores into this PE's element {@code index} (plain store). */
    public void setLocal(final long index, final double value)
    {
        local.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, checkRange(index, 1) - offset, value);
    }
}
