package io.jshmem;

import io.jshmem.spi.Allocation;

import java.lang.foreign.ValueLayout;

/** A symmetric array of Java {@code char}s (UTF-16 code units, C uint16_t). */
public final class SymmetricChars extends SymmetricArray<char[]>
{
    /**
     * Runtime use: a handle on part of an allocation.
     *
     * @param allocation the allocation.
     * @param offset     byte offset of element 0 in the heap.
     * @param length     number of elements.
     */
    public SymmetricChars(final Allocation allocation, final long offset, final long length)
    {
        super(allocation, offset, length);
    }

    @Override
    public ValueLayout elementLayout()
    {
        return ValueLayout.JAVA_CHAR_UNALIGNED;
    }

    @Override
    public SymmetricChars slice(final long from, final long count)
    {
        return new SymmetricChars(allocation, checkSliceArgs(from, count), count);
    }

    /** @return this PE's element {@code index} (plain load). */
    public char getLocal(final long index)
    {
        return local.get(ValueLayout.JAVA_CHAR_UNALIGNED, checkRange(index, 1) - offset);
    }

    /** Stores into this PE's element {@code index} (plain store). */
    public void setLocal(final long index, final char value)
    {
        local.set(ValueLayout.JAVA_CHAR_UNALIGNED, checkRange(index, 1) - offset, value);
    }
}
