package io.jshmem.spi;

import java.lang.reflect.Array;

/**
 * Overflow-proof argument arithmetic shared by the API and the runtime: the element span of a
 * (block-)strided transfer and the bounds of a Java array range. Every method is exact or saturates
 * at {@link Long#MAX_VALUE}, so a huge stride or count can only make a range check fail, never wrap
 * around into a range that passes. Not for applications.
 */
public final class Checks
{
    private Checks()
    {
    }

    /**

     * Multiplies without overflow.

     *
     * @param a a non-negative number.
     * @param b a non-negative number.
     * @return {@code a * b}, or {@link Long#MAX_VALUE} if the product does not fit a long.
     */
    public static long saturatedMultiply(final long a, final long b)
    {
        final long hi = Math.multiplyHigh(a, b);
        final long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }

    /**
     * Adds without overflow.
     *
     * @param a a non-negative number.
     * @param b a non-negative number.
     * @return {@code a + b}, or {@link Long#MAX_VALUE} if the sum does not fit a long.
     */
    public static long saturatedAdd(final long a, final long b)
    {
        final long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /**
     * The elements a block-strided transfer touches on one side: {@code (nblocks - 1) * stride + bsize},
     * 0 for no blocks. Arguments must have passed {@link #checkStrides}.
     *
     * @param stride  distance between block starts, in elements (at least bsize).
     * @param bsize   elements per block (at least 1).
     * @param nblocks number of blocks (at least 0).
     * @return the span in elements, or {@link Long#MAX_VALUE} if it does not fit a long.
     */
    public static long stridedSpan(final long stride, final long bsize, final long nblocks)
    {
        if (nblocks == 0)
        {
            return 0;
        }
        return saturatedAdd(saturatedMultiply(nblocks - 1, stride), bsize);
    }

    /**
     * Checks the shape of {@code shmem_iput/iget} (bsize 1) and {@code shmem_ibput/ibget}.
     *
     * @param prefix  the message prefix naming the PE ({@code "[pe 3/8] "}).
     * @param dst     destination stride in elements.
     * @param sst     source stride in elements.
     * @param bsize   elements per block.
     * @param nblocks number of blocks.
     * @throws IllegalArgumentException unless nblocks >= 0, bsize >= 1 and both strides >= bsize.
     */
    public static void checkStrides(final String prefix, final long dst, final long sst, final long bsize, final long nblocks)
    {
        if (nblocks < 0 || bsize < 1 || dst < bsize || sst < bsize)
        {
            throw new IllegalArgumentException(prefix + "strided transfer needs nblocks >= 0, bsize >= 1 and " +
                "strides >= bsize: dst=" + dst + " sst=" + sst + " bsize=" + bsize + " nblocks=" + nblocks);
        }
    }

    /**
     * Checks that {@code array[offset .. offset + count)} exists. A null array is accepted with
     * {@code offset == 0 && count == 0}: the spec's zero-length transfer with a NULL buffer.
     *
     * @param prefix the message prefix naming the PE.
     * @param what   the array's role ("source", "dest", "fetch").
     * @param array  a Java array of primitives, or null.
     * @param offset first element.
     * @param count  number of elements.
     * @throws NullPointerException      for a null array with a non-empty range.
     * @throws IndexOutOfBoundsException if the range is not inside the array.
     */
    public static void checkArray(final String prefix, final String what, final Object array, final int offset, final long count)
    {
        if (array == null)
        {
            if (count == 0 && offset == 0)
            {
                return;
            }
            throw new NullPointerException(prefix + what + " array is null (offset=" + offset + " count=" + count + ")");
        }
        final int length = Array.getLength(array);
        if (offset < 0 || count < 0 || offset > length - count)
        {
            throw new IndexOutOfBoundsException(prefix + what + " offset=" + offset + " count=" + count + " array.length=" + length);
        }
    }

    /**
     * Checks the Java-array side of a block-strided transfer: block i is
     * {@code array[offset + i*stride .. + bsize)}. Arguments must have passed {@link #checkStrides}.
     *
     * @param prefix  the message prefix naming the PE.
     * @param what    the array's role.
     * @param array   a Java array of primitives, or null (only with nblocks 0 and offset 0).
     * @param offset  first element of block 0.
     * @param stride  distance between block starts, in elements.
     * @param bsize   elements per block.
     * @param nblocks number of blocks.
     * @return the span in elements, which fits an int (offset + span &lt;= array.length).
     * @throws IndexOutOfBoundsException if a block is outside the array (naming the shape).
     */
    public static int checkArrayStrided(final String prefix, final String what, final Object array, final int offset,
        final long stride, final long bsize, final long nblocks)
    {
        final long span = stridedSpan(stride, bsize, nblocks);
        if (array == null)
        {
            checkArray(prefix, what, null, offset, span);
            return 0;
        }
        final int length = Array.getLength(array);
        if (offset < 0 || offset > length - span)
        {
            throw new IndexOutOfBoundsException(prefix + what + " offset=" + offset + " stride=" + stride + " bsize=" + bsize +
                " nblocks=" + nblocks + " spans " + (span == Long.MAX_VALUE ? "more than 2^63-1" : Long.toString(span)) +
                " elements; array.length=" + length);
        }
        return (int)span;
    }
}
