package io.jshmem;

import io.jshmem.spi.Allocation;

import java.lang.foreign.ValueLayout;

/** A symmetric array of Java {@code short}s (C short, int16_t). */
public final class SymmetricShorts extends SymmetricArray<short[]>
{
    /**
     * Runtime use: a handle on part of an allocation.
     *
     * @param allocation the allocation.
     * @param offset     byte offset of element 0 in the heap.
     * @param length     number of elements.
     */
    public SymmetricShorts(final Allocation allocation, final long offset, final long length)
    {
        super(allocation, offset, length);
    }

    @Override
    public ValueLayout elementLayout()
    {
        return ValueLayout.JAVA_SHORT_UNALIGNED;
    }

    @Override
    public SymmetricShorts slice(final long from, final long count)
    {
        return new SymmetricShorts(allocation, checkSliceArgs(from, count), count);
    }

    /** @return this PE's element {@code index} (plain load). */
    public short getLocal(final long index)
    {
        return local.get(ValueLayout.JAVA_SHORT_UNALIGNED, checkRange(index, 1) - offset);
    }

    /** Stores into this PE's element {@code index} (plain store). */
    public void setLocal(final long index, final short value)
    {
        local.set(ValueLayout.JAVA_SHORT_UNALIGNED, checkRange(index, 1) - offset, value);
    }
}
