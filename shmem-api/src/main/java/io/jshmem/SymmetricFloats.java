package io.jshmem;

import io.jshmem.spi.Allocation;

import java.lang.foreign.ValueLayout;

/** A symmetric array of Java {@code float}s (C float). */
public final class SymmetricFloats extends SymmetricArray<float[]>
{
    /**
     * Runtime use: a handle on part of an allocation.
     *
     * @param allocation the allocation.
     * @param offset     byte offset of element 0 in the heap.
     * @param length     number of elements.
     */
    public SymmetricFloats(final Allocation allocation, final long offset, final long length)
    {
        super(allocation, offset, length);
    }

    @Override
    public ValueLayout elementLayout()
    {
        return ValueLayout.JAVA_FLOAT_UNALIGNED;
    }

    @Override
    public SymmetricFloats slice(final long from, final long count)
    {
        return new SymmetricFloats(allocation, checkSliceArgs(from, count), count);
    }

    /** @return this PE's element {@code index} (plain load). */
    public float getLocal(final long index)
    {
        return local.get(ValueLayout.JAVA_FLOAT_UNALIGNED, checkRange(index, 1) - offset);
    }

    /** Stores into this PE's element {@code index} (plain store). */
    public void setLocal(final long index, final float value)
    {
        local.set(ValueLayout.JAVA_FLOAT_UNALIGNED, checkRange(index, 1) - offset, value);
    }
}
