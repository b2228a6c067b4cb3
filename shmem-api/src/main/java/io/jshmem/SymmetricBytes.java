package io.jshmem;

import io.jshmem.spi.Allocation;

import java.lang.foreign.ValueLayout;

/** A symmetric array of Java {@code byte}s (C char, int8_t, uint8_t). */
public final class SymmetricBytes extends SymmetricArray<byte[]>
{
    /**
     * Runtime use: a handle on part of an allocation.
     *
     * @param allocation the allocation.
     * @param offset     byte offset of element 0 in the heap.
     * @param length     number of elements.
     */
    public SymmetricBytes(final Allocation allocation, final long offset, final long length)
    {
        super(allocation, offset, length);
    }

    @Override
    public ValueLayout elementLayout()
    {
        return ValueLayout.JAVA_BYTE;
    }

    @Override
    public SymmetricBytes slice(final long from, final long count)
    {
        return new SymmetricBytes(allocation, checkSliceArgs(from, count), count);
    }

    /** @return this PE's element {@code index} (plain load). */
    public byte getLocal(final long index)
    {
        return local.get(ValueLayout.JAVA_BYTE, checkRange(index, 1) - offset);
    }

    /** Stores into this PE's element {@code index} (plain store). */
    public void setLocal(final long index, final byte value)
    {
        local.set(ValueLayout.JAVA_BYTE, checkRange(index, 1) - offset, value);
    }
}
