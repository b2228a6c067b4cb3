package io.jshmem;

import io.jshmem.spi.Allocation;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A handle on a symmetric object: the same byte offset and element count on every PE. "Object X on
 * PE p" is always (handle, index, p); the handle itself is small and immutable. {@link #slice} gives
 * the handle of a sub-range (C's {@code &x[from]}).
 * <p>
 * {@code A} is the Java array type that holds the elements ({@code long[]} for {@link SymmetricLongs}),
 * which lets one generic put/get cover every element type.
 * <p>
 * A freed handle, a handle from another PE or job, or an index out of range fails with an exception
 * naming every operand and the PE, never a JVM crash or a silent write elsewhere. Handles are safe to
 * share between threads.
 *
 * @param <A> the Java array type of the elements.
 */
public abstract sealed class SymmetricArray<A>
    permits SymmetricBytes, SymmetricShorts, SymmetricChars, SymmetricFloats, SymmetricDoubles, SymmetricMemory,
    SymmetricWords
{
    final Allocation allocation;
    final long offset;
    final long length;
    final MemorySegment local;

    SymmetricArray(final Allocation allocation, final long offset, final long length)
    {
        this.allocation = allocation;
        this.offset = offset;
        this.length = length;
        final long bytes = length * elementBytes();
        if (offset < allocation.offset() || offset + bytes > allocation.offset() + allocation.byteSize())
        {
            throw new IllegalArgumentException("handle outside its " + allocation + ": offset=" + offset + " bytes=" + bytes);
        }
        this.local = allocation.space().localHeap().asSlice(offset, bytes);
    }

    /** @return the layout of one element as it is copied (unaligned; atomics check alignment themselves). */
    public abstract ValueLayout elementLayout();

    /** @return bytes per element. */
    public final int elementBytes()
    {
        return (int)elementLayout().byteSize();
    }

    /** @return the byte offset of element 0 in the symmetric heap (the same on every PE). */
    public final long offset()
    {
        return offset;
    }

    /** @return the number of elements. */
    public final long length()
    {
        return length;
    }

    /** @return the size in bytes. */
    public final long byteSize()
    {
        return length * elementBytes();
    }

    /** @return the allocation this handle belongs to (runtime use). */
    public final Allocation allocation()
    {
        return allocation;
    }

    /**
     * @return this PE's copy of the object as a segment, for plain local loads and stores (bounds
     *         checked by the segment). Do not use it after {@link Shmem#free}.
     */
    public final MemorySegment segment()
    {
        checkLive();
        return local;
    }

    /**
     * @param from  first element of the sub-range.
     * @param count number of elements.
     * @return the handle of elements {@code [from, from + count)}.
     */
    public abstract SymmetricArray<A> slice(long from, long count);

    /** @return true until the object is freed. */
    public final boolean isLive()
    {
        return allocation.isLive();
    }

    /** Throws if the handle's object was freed. */
    public final void checkLive()
    {
        if (!allocation.isLive())
        {
            throw new IllegalArgumentException(allocation.space().prefix() + "use of a freed symmetric object: " + this);
        }
    }

    /**
     * Checks that {@code [index, index + count)} lies inside this object and that it is live.
     *
     * @param index first element.
     * @param count number of elements.
     * @return the byte offset of {@code index} in the heap.
     */
    public final long checkRange(final long index, final long count)
    {
        if (index < 0 || count < 0 || index > length - count)
        {
            throw new IndexOutOfBoundsException(allocation.space().prefix() + "index=" + index + " length=" + count +
                " capacity=" + length + " of " + this);
        }
        if (!allocation.isLive())
        {
            checkLive();
        }
        return offset + index * elementBytes();
    }

    final long checkSliceArgs(final long from, final long count)
    {
        checkRange(from, count);
        return offset + from * elementBytes();
    }

    @Override
    public String toString()
    {
        return getClass().getSimpleName() + "[offset=" + offset + " length=" + length + (allocation.isLive() ? "" : " FREED") + "]";
    }

    @Override
    public final boolean equals(final Object o)
    {
        return o instanceof SymmetricArray<?> that && that.getClass() == getClass() &&
            that.allocation == allocation && that.offset == offset && that.length == length;
    }

    @Override
    public final int hashCode()
    {
        return Long.hashCode(offset) * 31 + Long.hashCode(length);
    }
}
