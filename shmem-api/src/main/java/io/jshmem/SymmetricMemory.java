package io.jshmem;

import io.jshmem.spi.Allocation;

import java.lang.foreign.ValueLayout;

/**
 * Raw symmetric memory, addressed in bytes: the target of {@code putmem}/{@code getmem} and of
 * {@code shmem_malloc}. Typed views ({@link #asLongs()}, ...) name the same bytes as another element
 * type; atomics through a view require its offset to be aligned to the element size.
 */
public final class SymmetricMemory extends SymmetricArray<byte[]>
{
    /**
     * Runtime use: a handle on part of an allocation.
     *
     * @param allocation the allocation.
     * @param offset     byte offset in the heap.
     * @param length     number of bytes.
     */
    public SymmetricMemory(final Allocation allocation, final long offset, final long length)
    {
        super(allocation, offset, length);
    }

    @Override
    public ValueLayout elementLayout()
    {
        return ValueLayout.JAVA_BYTE;
    }

    @Override
    public SymmetricMemory slice(final long from, final long count)
    {
        return new SymmetricMemory(allocation, checkSliceArgs(from, count), count);
    }

    private long elements(final int size)
    {
        checkLive();
        return length / size;
    }

    /** {@return the bytes as bytes} */
    public SymmetricBytes asBytes()
    {
        return new SymmetricBytes(allocation, offset, elements(1));
    }

    /** {@return the bytes as shorts (a trailing partial element is dropped)} */
    public SymmetricShorts asShorts()
    {
        return new SymmetricShorts(allocation, offset, elements(2));
    }

    /** {@return the bytes as chars} */
    public SymmetricChars asChars()
    {
        return new SymmetricChars(allocation, offset, elements(2));
    }

    /** {@return the bytes as ints} */
    public SymmetricInts asInts()
    {
        return new SymmetricInts(allocation, offset, elements(4));
    }

    /** {@return the bytes as longs} */
    public SymmetricLongs asLongs()
    {
        return new SymmetricLongs(allocation, offset, elements(8));
    }

    /** {@return the bytes as floats} */
    public SymmetricFloats asFloats()
    {
        return new SymmetricFloats(allocation, offset, elements(4));
    }

    /** {@return the bytes as doubles} */
    public SymmetricDoubles asDoubles()
    {
        return new SymmetricDoubles(allocation, offset, elements(8));
    }
}
