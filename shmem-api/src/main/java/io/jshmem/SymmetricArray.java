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

    /** {@return the layout of one element as it is copied (unaligned; atomics check alignment themselves)} */
    public abstract ValueLayout elementLayout();

    /** {@return bytes per element} */
    public final int elementBytes()
    {
        return (int)elementLayout().byteSize();
    }

    /** {@return the byte offset of element 0 in the symmetric heap (the same on every PE)} */
    public final long offset()
    {
        return offset;
    }

    /** {@return the number of elements} */
    public final long length()
    {
        return length;
    }

    /** {@return the size in bytes} */
    public final long byteSize()
    {
        return length * elementBytes();
    }

    /** {@return the allocation this handle belongs to (runtime use)} */
    public final Allocation allocation()
    {
        return allocation;
    }

    /**
     * This PE's copy of the object as a segment, for plain local loads and stores (bounds checked by
     * the segment). Do not use it after {@link Shmem#free}.
     *
     * @return the local segment.
     * @throws IllegalArgumentException if the object was freed.
     */
    public final MemorySegment segment()
    {
        checkLive();
        return local;
    }

    /**
     * The Java form of C's {@code &x[from]}: a handle on part of this object.
     *
     * @param from  first element of the sub-range.
     * @param count number of elements.
     * @return the handle of elements {@code [from, from + count)}.
     */
    public abstract SymmetricArray<A> slice(long from, long count);

    /** {@return true until the object is freed} */
    public final boolean isLive()
    {
        return allocation.isLive();
    }

    /**
     * Throws if the handle's object was freed: {@link IllegalStateException} when its PE has finalized
     * (every object died with the heap), else {@link IllegalArgumentException}.
     */
    public final void checkLive()
    {
        if (!allocation.isLive())
        {
            if (allocation.space().isFinalized())
            {
                throw new IllegalStateException(allocation.space().prefix() + "use of " + this + " after this PE's close() "
                    + "(shmem_finalize): its heap, contexts and teams are gone; use the PE a later Shmem.init() returns");
            }
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

    /**
     * Checks that every block of a block-strided access lies inside this object and that it is live:
     * block i is {@code [index + i*stride, index + i*stride + bsize)}. The span arithmetic saturates, so
     * no stride or count can wrap around into a range that passes. The shape itself ({@code nblocks >= 0},
     * {@code bsize >= 1}, {@code stride >= bsize}) is checked by {@link io.jshmem.spi.Checks#checkStrides}.
     *
     * @param index   first element of block 0.
     * @param stride  distance between block starts, in elements.
     * @param bsize   elements per block.
     * @param nblocks number of blocks.
     * @return the byte offset of {@code index} in the heap; block i starts {@code i * stride * elementBytes()}
     *         bytes after it (a product that fits, since the blocks lie inside the object).
     * @throws IndexOutOfBoundsException naming the shape, the capacity and the PE.
     */
    public final long checkStridedRange(final long index, final long stride, final long bsize, final long nblocks)
    {
        final long span = io.jshmem.spi.Checks.stridedSpan(stride, bsize, nblocks);
        if (index < 0 || nblocks < 0 || bsize < 0 || stride < 0 || index > length - span)
        {
            throw new IndexOutOfBoundsException(allocation.space().prefix() + "index=" + index + " stride=" + stride + " bsize=" +
                bsize + " nblocks=" + nblocks + " spans " + (span == Long.MAX_VALUE ? "more than 2^63-1" : Long.toString(span)) +
                " elements; capacity=" + length + " of " + this);
        }
        if (!allocation.isLive())
        {
            checkLive();
        }
        return offset + index * elementBytes();
    }

    /**
     * Checks that element {@code index} starts inside this object or at its end (a position for a
     * transfer of {@code bytes} bytes) and that {@code bytes} more bytes from there fit, as the
     * {@link java.lang.foreign.MemorySegment} forms of put and get need.
     *
     * @param index first element.
     * @param bytes bytes to transfer from there (a multiple of {@link #elementBytes()}).
     * @return the byte offset of {@code index} relative to element 0 (not the heap offset).
     * @throws IndexOutOfBoundsException if the index or the bytes leave the object.
     * @throws IllegalArgumentException  if {@code bytes} is not a whole number of elements.
     */
    public final long checkSegmentRange(final long index, final long bytes)
    {
        final int eb = elementBytes();
        if (bytes % eb != 0)
        {
            throw new IllegalArgumentException(allocation.space().prefix() + "segment of " + bytes + " bytes is not a whole number of " +
                eb + "-byte elements of " + this);
        }
        if (index < 0 || bytes < 0 || index > length - bytes / eb)
        {
            throw new IndexOutOfBoundsException(allocation.space().prefix() + "index=" + index + " length=" + bytes / eb +
                " (segment of " + bytes + " bytes) capacity=" + length + " of " + this);
        }
        if (!allocation.isLive())
        {
            checkLive();
        }
        return index * eb;
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
