package io.jshmem;

import java.lang.foreign.MemorySegment;

/**
 * A communication context: the one-sided operations of OpenSHMEM (RMA, atomics, signals) and their
 * ordering ({@link #fence()}, {@link #quiet()}). {@link Shmem} is the default context. PE numbers are
 * relative to the context's team (WORLD for the default context).
 * <p>
 * Every typed call becomes one internal operation on (element layout, byte offset, count), as OSHMPI's
 * typed templates do. Sources and destinations are Java arrays with offset and count, or
 * {@link MemorySegment}s. Blocking puts return when the source may be reused; {@code *Nbi} calls keep
 * the caller's array or segment in use until {@link #quiet()}.
 * <p>
 * Every argument is checked: a PE out of range, an index or count past the object, a misaligned
 * atomic, a freed or foreign handle each fail with an exception naming the operands and the PE. Index,
 * stride and size arithmetic cannot overflow into a range that passes: a strided shape or an index
 * beyond the object is an exception however large it is. A zero-length transfer (count, nelems or
 * nblocks 0, an empty or null segment) with a null handle and null arrays is a no-op, as the spec's
 * zero-length transfers with NULL buffers are.
 * <p>
 * {@link #INVALID} is {@code SHMEM_CTX_INVALID}: a placeholder for "no context", whose {@link #team()}
 * is {@link Team#INVALID} and whose {@link #close()} does nothing; any operation on it fails.
 * <p>
 * The typed atomics ({@code atomicFetchAdd(SymmetricLongs, index, value, pe)} and the rest, for ints and
 * longs, fetch/set/swap for floats and doubles, and the fetching nbi forms) are generated at build time
 * into the superclass {@link AtomicSurface} (see {@code src/build/GenerateTypedApi.java}).
 * <p>
 * Threads: under {@link ThreadLevel#MULTIPLE} any thread may call; otherwise as the thread level says.
 */
public abstract class ShmemContext extends AtomicSurface implements AutoCloseable
{
    /** {@code SHMEM_CTX_INVALID}: team() gives {@link Team#INVALID}, close() is a no-op, every operation throws. */
    public static final ShmemContext INVALID = new Invalid();

    /** Subclassed by the runtime only. */
    protected ShmemContext()
    {
    }

    // ------------------------------------------------------------------ internal operations

    /**
     * Contiguous put of {@code count} elements from a Java array.
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destIndex index in {@code dest} of the first element written.
     * @param src the source Java array ({@code long[]} for {@link SymmetricLongs}, ...); null only with a zero count.
     * @param srcOffset index in {@code src} of the first element read.
     * @param count number of elements.
     * @param pe the target PE, numbered in this context's team.
     * @param nbi true for the non-blocking form.
     */
    protected abstract void rmaPut(SymmetricArray<?> dest, long destIndex, Object src, int srcOffset, int count, int pe, boolean nbi);

    /**
     * Contiguous get of {@code count} elements into a Java array.
     *
     * @param dest the destination Java array ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param destOffset index in {@code dest} of the first element written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param srcIndex index in {@code src} of the first element read.
     * @param count number of elements.
     * @param pe the target PE, numbered in this context's team.
     * @param nbi true for the non-blocking form.
     */
    protected abstract void rmaGet(Object dest, int destOffset, SymmetricArray<?> src, long srcIndex, int count, int pe, boolean nbi);

    /**
     * Put of a whole segment to {@code destByteOffset} bytes into {@code dest}.
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destByteOffset byte offset into {@code dest}.
     * @param src the source segment, sent whole (null or empty: nothing).
     * @param pe the target PE, numbered in this context's team.
     * @param nbi true for the non-blocking form.
     */
    protected abstract void rmaPutSegment(SymmetricArray<?> dest, long destByteOffset, MemorySegment src, int pe, boolean nbi);

    /**
     * Get into a whole segment from {@code srcByteOffset} bytes into {@code src}.
     *
     * @param dest the destination segment, filled whole (null or empty: nothing).
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param srcByteOffset byte offset into {@code src}.
     * @param pe the target PE, numbered in this context's team.
     * @param nbi true for the non-blocking form.
     */
    protected abstract void rmaGetSegment(MemorySegment dest, SymmetricArray<?> src, long srcByteOffset, int pe, boolean nbi);

    /**
     * Block-strided put: {@code nblocks} blocks of {@code bsize} elements, strides in elements.
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destIndex index in {@code dest} of the first element written.
     * @param dst distance, in elements, between consecutive elements (blocks) in {@code dest}.
     * @param src the source Java array ({@code long[]} for {@link SymmetricLongs}, ...); null only with a zero count.
     * @param srcOffset index in {@code src} of the first element read.
     * @param sst distance, in elements, between consecutive elements (blocks) in {@code src}.
     * @param bsize elements per block.
     * @param nblocks number of blocks.
     * @param pe the target PE, numbered in this context's team.
     */
    protected abstract void rmaPutStrided(SymmetricArray<?> dest, long destIndex, long dst, Object src, int srcOffset, long sst,
        long bsize, long nblocks, int pe);

    /**
     * Block-strided get: {@code nblocks} blocks of {@code bsize} elements, strides in elements.
     *
     * @param dest the destination Java array ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param destOffset index in {@code dest} of the first element written.
     * @param dst distance, in elements, between consecutive elements (blocks) in {@code dest}.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param srcIndex index in {@code src} of the first element read.
     * @param sst distance, in elements, between consecutive elements (blocks) in {@code src}.
     * @param bsize elements per block.
     * @param nblocks number of blocks.
     * @param pe the target PE, numbered in this context's team.
     */
    protected abstract void rmaGetStrided(Object dest, int destOffset, long dst, SymmetricArray<?> src, long srcIndex, long sst,
        long bsize, long nblocks, int pe);

    /**
     * Scalar put of the element's raw bits (low {@code elementBytes} bytes of {@code bits}).
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param index element index in the object.
     * @param bits the element's raw bits in the low bytes.
     * @param pe the target PE, numbered in this context's team.
     */
    protected abstract void rmaP(SymmetricArray<?> dest, long index, long bits, int pe);

    /**
     * Scalar get of the element's raw bits (sign-extended for 1, 2 and 4 byte elements).
     *
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param index element index in the object.
     * @param pe the target PE, numbered in this context's team.
     * @return the element's raw bits.
     */
    protected abstract long rmaG(SymmetricArray<?> src, long index, int pe);

    /**
     * Put then signal; with a null/empty source only the signal.
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destIndex index in {@code dest} of the first element written.
     * @param src the source Java array ({@code long[]} for {@link SymmetricLongs}, ...); null only with a zero count.
     * @param srcOffset index in {@code src} of the first element read.
     * @param count number of elements.
     * @param sig the signal words.
     * @param sigIndex index of the signal word in {@code sig}.
     * @param signal the signal operand.
     * @param op how the signal word is updated ({@link SignalOp#SET} or {@link SignalOp#ADD}).
     * @param pe the target PE, numbered in this context's team.
     * @param nbi true for the non-blocking form.
     */
    protected abstract void rmaPutSignal(SymmetricArray<?> dest, long destIndex, Object src, int srcOffset, int count,
        SymmetricLongs sig, long sigIndex, long signal, SignalOp op, int pe, boolean nbi);

    // ------------------------------------------------------------------ RMA

    /** A null segment is the spec's NULL buffer: zero bytes. */
    private static MemorySegment orEmpty(final MemorySegment segment)
    {
        return segment == null ? MemorySegment.NULL : segment;
    }

    private static <H extends SymmetricArray<?>> H requireHandle(final H handle, final String what)
    {
        if (handle == null)
        {
            throw new NullPointerException(what + " handle is null with a non-empty segment");
        }
        return handle;
    }

    /**
     * {@code shmem_put}: copies {@code src[srcOffset .. srcOffset+count)} to {@code dest[destIndex ..]} on pe.
     * Returns when {@code src} may be reused; delivery is complete after {@link #quiet()}.
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destIndex index in {@code dest} of the first element written.
     * @param src the source Java array ({@code long[]} for {@link SymmetricLongs}, ...); null only with a zero count.
     * @param srcOffset index in {@code src} of the first element read.
     * @param count number of elements.
     * @param pe the target PE, numbered in this context's team.
     * @param <A> the element array type.
     */
    public final <A> void put(final SymmetricArray<A> dest, final long destIndex, final A src, final int srcOffset,
        final int count, final int pe)
    {
        if (dest == null && count == 0)
        {
            return; // a zero-length transfer with a null handle is a no-op (the spec's NULL, 0)
        }
        rmaPut(dest, destIndex, src, srcOffset, count, pe, false);
    }

    /**
     * {@code shmem_get}: copies {@code count} elements of {@code src[srcIndex ..]} on pe into {@code dest[destOffset ..]}.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the destination Java array ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param destOffset index in {@code dest} of the first element written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param srcIndex index in {@code src} of the first element read.
     * @param count number of elements.
     * @param pe the target PE, numbered in this context's team.
     */
    public final <A> void get(final A dest, final int destOffset, final SymmetricArray<A> src, final long srcIndex,
        final int count, final int pe)
    {
        if (src == null && count == 0)
        {
            return;
        }
        rmaGet(dest, destOffset, src, srcIndex, count, pe, false);
    }

    /**
     * {@code shmem_put_nbi}: as {@link #put} but {@code src} stays in use until {@link #quiet()}.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destIndex index in {@code dest} of the first element written.
     * @param src the source Java array ({@code long[]} for {@link SymmetricLongs}, ...); null only with a zero count.
     * @param srcOffset index in {@code src} of the first element read.
     * @param count number of elements.
     * @param pe the target PE, numbered in this context's team.
     */
    public final <A> void putNbi(final SymmetricArray<A> dest, final long destIndex, final A src, final int srcOffset,
        final int count, final int pe)
    {
        if (dest == null && count == 0)
        {
            return; // a zero-length transfer with a null handle is a no-op (the spec's NULL, 0)
        }
        rmaPut(dest, destIndex, src, srcOffset, count, pe, true);
    }

    /**
     * {@code shmem_get_nbi}: as {@link #get} but {@code dest} is complete only after {@link #quiet()}.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the destination Java array ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param destOffset index in {@code dest} of the first element written.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param srcIndex index in {@code src} of the first element read.
     * @param count number of elements.
     * @param pe the target PE, numbered in this context's team.
     */
    public final <A> void getNbi(final A dest, final int destOffset, final SymmetricArray<A> src, final long srcIndex,
        final int count, final int pe)
    {
        if (src == null && count == 0)
        {
            return;
        }
        rmaGet(dest, destOffset, src, srcIndex, count, pe, true);
    }

    /**
     * Puts a whole segment into {@code dest} starting at element {@code destIndex} (its size a multiple of the element size).
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destIndex index in {@code dest} of the first element written.
     * @param src the source segment, sent whole (null or empty: nothing).
     * @param pe the target PE, numbered in this context's team.
     */
    public final void put(final SymmetricArray<?> dest, final long destIndex, final MemorySegment src, final int pe)
    {
        final MemorySegment s = orEmpty(src);
        if (dest == null && s.byteSize() == 0)
        {
            return;
        }
        rmaPutSegment(dest, requireHandle(dest, "dest").checkSegmentRange(destIndex, s.byteSize()), s, pe, false);
    }

    /**
     * Fills a whole segment from {@code src} starting at element {@code srcIndex}.
     *
     * @param dest the destination segment, filled whole (null or empty: nothing).
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param srcIndex index in {@code src} of the first element read.
     * @param pe the target PE, numbered in this context's team.
     */
    public final void get(final MemorySegment dest, final SymmetricArray<?> src, final long srcIndex, final int pe)
    {
        final MemorySegment d = orEmpty(dest);
        if (src == null && d.byteSize() == 0)
        {
            return;
        }
        rmaGetSegment(d, src, requireHandle(src, "source").checkSegmentRange(srcIndex, d.byteSize()), pe, false);
    }

    /**
     * {@code shmem_putmem}: bytes of a segment to {@code destByteOffset} bytes into any symmetric object.
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destByteOffset byte offset into {@code dest}.
     * @param src the source segment, sent whole (null or empty: nothing).
     * @param pe the target PE, numbered in this context's team.
     */
    public final void putmem(final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src, final int pe)
    {
        final MemorySegment s = orEmpty(src);
        if (dest == null && s.byteSize() == 0)
        {
            return;
        }
        rmaPutSegment(dest, destByteOffset, s, pe, false);
    }

    /**
     * {@code shmem_getmem}: bytes from {@code srcByteOffset} bytes into any symmetric object into a segment.
     *
     * @param dest the destination segment, filled whole (null or empty: nothing).
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param srcByteOffset byte offset into {@code src}.
     * @param pe the target PE, numbered in this context's team.
     */
    public final void getmem(final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset, final int pe)
    {
        final MemorySegment d = orEmpty(dest);
        if (src == null && d.byteSize() == 0)
        {
            return;
        }
        rmaGetSegment(d, src, srcByteOffset, pe, false);
    }

    /**
     * {@code shmem_putmem_nbi}.
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destByteOffset byte offset into {@code dest}.
     * @param src the source segment, sent whole (null or empty: nothing).
     * @param pe the target PE, numbered in this context's team.
     */
    public final void putmemNbi(final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src, final int pe)
    {
        final MemorySegment s = orEmpty(src);
        if (dest == null && s.byteSize() == 0)
        {
            return;
        }
        rmaPutSegment(dest, destByteOffset, s, pe, true);
    }

    /**
     * {@code shmem_getmem_nbi}.
     *
     * @param dest the destination segment, filled whole (null or empty: nothing).
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param srcByteOffset byte offset into {@code src}.
     * @param pe the target PE, numbered in this context's team.
     */
    public final void getmemNbi(final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset, final int pe)
    {
        final MemorySegment d = orEmpty(dest);
        if (src == null && d.byteSize() == 0)
        {
            return;
        }
        rmaGetSegment(d, src, srcByteOffset, pe, true);
    }

    /**
     * {@code shmem_iput}: {@code nelems} elements, {@code src[srcOffset + i*sst]} to {@code dest[destIndex + i*dst]}.
     * Strides are in elements and at least 1.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destIndex index in {@code dest} of the first element written.
     * @param dst distance, in elements, between consecutive elements (blocks) in {@code dest}.
     * @param src the source Java array ({@code long[]} for {@link SymmetricLongs}, ...); null only with a zero count.
     * @param srcOffset index in {@code src} of the first element read.
     * @param sst distance, in elements, between consecutive elements (blocks) in {@code src}.
     * @param nelems number of elements.
     * @param pe the target PE, numbered in this context's team.
     */
    public final <A> void iput(final SymmetricArray<A> dest, final long destIndex, final long dst, final A src,
        final int srcOffset, final long sst, final long nelems, final int pe)
    {
        if (dest == null && nelems == 0)
        {
            return;
        }
        rmaPutStrided(dest, destIndex, dst, src, srcOffset, sst, 1, nelems, pe);
    }

    /**
     * {@code shmem_iget}: {@code nelems} elements, {@code src[srcIndex + i*sst]} on pe to {@code dest[destOffset + i*dst]}.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the destination Java array ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param destOffset index in {@code dest} of the first element written.
     * @param dst distance, in elements, between consecutive elements (blocks) in {@code dest}.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param srcIndex index in {@code src} of the first element read.
     * @param sst distance, in elements, between consecutive elements (blocks) in {@code src}.
     * @param nelems number of elements.
     * @param pe the target PE, numbered in this context's team.
     */
    public final <A> void iget(final A dest, final int destOffset, final long dst, final SymmetricArray<A> src,
        final long srcIndex, final long sst, final long nelems, final int pe)
    {
        if (src == null && nelems == 0)
        {
            return;
        }
        rmaGetStrided(dest, destOffset, dst, src, srcIndex, sst, 1, nelems, pe);
    }

    /**
     * {@code shmem_ibput} (1.6): {@code nblocks} blocks of {@code bsize} elements; block i goes from
     * {@code src[srcOffset + i*sst]} to {@code dest[destIndex + i*dst]}; strides at least {@code bsize}.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destIndex index in {@code dest} of the first element written.
     * @param dst distance, in elements, between consecutive elements (blocks) in {@code dest}.
     * @param src the source Java array ({@code long[]} for {@link SymmetricLongs}, ...); null only with a zero count.
     * @param srcOffset index in {@code src} of the first element read.
     * @param sst distance, in elements, between consecutive elements (blocks) in {@code src}.
     * @param bsize elements per block.
     * @param nblocks number of blocks.
     * @param pe the target PE, numbered in this context's team.
     */
    public final <A> void ibput(final SymmetricArray<A> dest, final long destIndex, final long dst, final A src,
        final int srcOffset, final long sst, final long bsize, final long nblocks, final int pe)
    {
        if (dest == null && nblocks == 0)
        {
            return;
        }
        rmaPutStrided(dest, destIndex, dst, src, srcOffset, sst, bsize, nblocks, pe);
    }

    /**
     * {@code shmem_ibget} (1.6): the get form of {@link #ibput}.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the destination Java array ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param destOffset index in {@code dest} of the first element written.
     * @param dst distance, in elements, between consecutive elements (blocks) in {@code dest}.
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param srcIndex index in {@code src} of the first element read.
     * @param sst distance, in elements, between consecutive elements (blocks) in {@code src}.
     * @param bsize elements per block.
     * @param nblocks number of blocks.
     * @param pe the target PE, numbered in this context's team.
     */
    public final <A> void ibget(final A dest, final int destOffset, final long dst, final SymmetricArray<A> src,
        final long srcIndex, final long sst, final long bsize, final long nblocks, final int pe)
    {
        if (src == null && nblocks == 0)
        {
            return;
        }
        rmaGetStrided(dest, destOffset, dst, src, srcIndex, sst, bsize, nblocks, pe);
    }

    // ------------------------------------------------------------------ scalar p / g

    /**
     * {@code shmem_char_p}: writes one element of pe's copy of {@code dest}. Returns at once; the value
     * is delivered by {@link #quiet()} (on the p2p path it is already stored).
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param index index of the element in {@code dest}.
     * @param value the value to write.
     * @param pe    the target PE, numbered in this context's team.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final void p(final SymmetricBytes dest, final long index, final byte value, final int pe)
    {
        rmaP(dest, index, value, pe);
    }

    /**
     * {@code shmem_short_p}: writes one element of pe's copy of {@code dest}. Returns at once; the value
     * is delivered by {@link #quiet()} (on the p2p path it is already stored).
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param index index of the element in {@code dest}.
     * @param value the value to write.
     * @param pe    the target PE, numbered in this context's team.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final void p(final SymmetricShorts dest, final long index, final short value, final int pe)
    {
        rmaP(dest, index, value, pe);
    }

    /**
     * {@code shmem_uint16_p}: writes one element of pe's copy of {@code dest}. Returns at once; the value
     * is delivered by {@link #quiet()} (on the p2p path it is already stored).
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param index index of the element in {@code dest}.
     * @param value the value to write.
     * @param pe    the target PE, numbered in this context's team.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final void p(final SymmetricChars dest, final long index, final char value, final int pe)
    {
        rmaP(dest, index, value, pe);
    }

    /**
     * {@code shmem_int_p}: writes one element of pe's copy of {@code dest}. Returns at once; the value
     * is delivered by {@link #quiet()} (on the p2p path it is already stored).
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param index index of the element in {@code dest}.
     * @param value the value to write.
     * @param pe    the target PE, numbered in this context's team.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final void p(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        rmaP(dest, index, value, pe);
    }

    /**
     * {@code shmem_long_p}: writes one element of pe's copy of {@code dest}. Returns at once; the value
     * is delivered by {@link #quiet()} (on the p2p path it is already stored).
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param index index of the element in {@code dest}.
     * @param value the value to write.
     * @param pe    the target PE, numbered in this context's team.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final void p(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        rmaP(dest, index, value, pe);
    }

    /**
     * {@code shmem_float_p}: writes one element of pe's copy of {@code dest}. Returns at once; the value
     * is delivered by {@link #quiet()} (on the p2p path it is already stored).
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param index index of the element in {@code dest}.
     * @param value the value to write.
     * @param pe    the target PE, numbered in this context's team.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final void p(final SymmetricFloats dest, final long index, final float value, final int pe)
    {
        rmaP(dest, index, Float.floatToRawIntBits(value), pe);
    }

    /**
     * {@code shmem_double_p}: writes one element of pe's copy of {@code dest}. Returns at once; the value
     * is delivered by {@link #quiet()} (on the p2p path it is already stored).
     *
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param index index of the element in {@code dest}.
     * @param value the value to write.
     * @param pe    the target PE, numbered in this context's team.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final void p(final SymmetricDoubles dest, final long index, final double value, final int pe)
    {
        rmaP(dest, index, Double.doubleToRawLongBits(value), pe);
    }

    /**
     * {@code shmem_char_g}: reads one element of pe's copy of {@code src}.
     *
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param index index of the element in {@code src}.
     * @param pe    the source PE, numbered in this context's team.
     * @return the element's value on pe.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final byte g(final SymmetricBytes src, final long index, final int pe)
    {
        return (byte)rmaG(src, index, pe);
    }

    /**
     * {@code shmem_short_g}: reads one element of pe's copy of {@code src}.
     *
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param index index of the element in {@code src}.
     * @param pe    the source PE, numbered in this context's team.
     * @return the element's value on pe.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final short g(final SymmetricShorts src, final long index, final int pe)
    {
        return (short)rmaG(src, index, pe);
    }

    /**
     * {@code shmem_uint16_g}: reads one element of pe's copy of {@code src}.
     *
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param index index of the element in {@code src}.
     * @param pe    the source PE, numbered in this context's team.
     * @return the element's value on pe.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final char g(final SymmetricChars src, final long index, final int pe)
    {
        return (char)rmaG(src, index, pe);
    }

    /**
     * {@code shmem_int_g}: reads one element of pe's copy of {@code src}.
     *
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param index index of the element in {@code src}.
     * @param pe    the source PE, numbered in this context's team.
     * @return the element's value on pe.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final int g(final SymmetricInts src, final long index, final int pe)
    {
        return (int)rmaG(src, index, pe);
    }

    /**
     * {@code shmem_long_g}: reads one element of pe's copy of {@code src}.
     *
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param index index of the element in {@code src}.
     * @param pe    the source PE, numbered in this context's team.
     * @return the element's value on pe.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final long g(final SymmetricLongs src, final long index, final int pe)
    {
        return rmaG(src, index, pe);
    }

    /**
     * {@code shmem_float_g}: reads one element of pe's copy of {@code src}.
     *
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param index index of the element in {@code src}.
     * @param pe    the source PE, numbered in this context's team.
     * @return the element's value on pe.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final float g(final SymmetricFloats src, final long index, final int pe)
    {
        return Float.intBitsToFloat((int)rmaG(src, index, pe));
    }

    /**
     * {@code shmem_double_g}: reads one element of pe's copy of {@code src}.
     *
     * @param src the symmetric source object; its copy on {@code pe} is read.
     * @param index index of the element in {@code src}.
     * @param pe    the source PE, numbered in this context's team.
     * @return the element's value on pe.
     * @throws IndexOutOfBoundsException if {@code index} or {@code pe} is out of range (the message names them and this PE).
     */
    public final double g(final SymmetricDoubles src, final long index, final int pe)
    {
        return Double.longBitsToDouble(rmaG(src, index, pe));
    }

    // ------------------------------------------------------------------ signals

    /**
     * {@code shmem_put_signal}: puts the data, then updates {@code sig[sigIndex]} on pe with {@code op}.
     * A PE that observes the signal also observes this call's data (only this call's: order earlier
     * puts with {@link #fence()}). Returns when {@code src} may be reused.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destIndex index in {@code dest} of the first element written.
     * @param src the source Java array ({@code long[]} for {@link SymmetricLongs}, ...); null only with a zero count.
     * @param srcOffset index in {@code src} of the first element read.
     * @param count number of elements.
     * @param sig the signal words.
     * @param sigIndex index of the signal word in {@code sig}.
     * @param signal the signal operand.
     * @param op how the signal word is updated ({@link SignalOp#SET} or {@link SignalOp#ADD}).
     * @param pe the target PE, numbered in this context's team.
     */
    public final <A> void putSignal(final SymmetricArray<A> dest, final long destIndex, final A src, final int srcOffset,
        final int count, final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int pe)
    {
        rmaPutSignal(dest, destIndex, src, srcOffset, count, sig, sigIndex, signal, op, pe, false);
    }

    /**
     * {@code shmem_put_signal_nbi}: as {@link #putSignal}, complete at {@link #quiet()}.
     *
     * @param <A> the element array type ({@code long[]} for {@link SymmetricLongs}, ...).
     * @param dest the symmetric destination object; its copy on {@code pe} is written.
     * @param destIndex index in {@code dest} of the first element written.
     * @param src the source Java array ({@code long[]} for {@link SymmetricLongs}, ...); null only with a zero count.
     * @param srcOffset index in {@code src} of the first element read.
     * @param count number of elements.
     * @param sig the signal words.
     * @param sigIndex index of the signal word in {@code sig}.
     * @param signal the signal operand.
     * @param op how the signal word is updated ({@link SignalOp#SET} or {@link SignalOp#ADD}).
     * @param pe the target PE, numbered in this context's team.
     */
    public final <A> void putSignalNbi(final SymmetricArray<A> dest, final long destIndex, final A src, final int srcOffset,
        final int count, final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int pe)
    {
        rmaPutSignal(dest, destIndex, src, srcOffset, count, sig, sigIndex, signal, op, pe, true);
    }

    /**
     * {@code shmem_signal_add} (1.6): atomically adds to a signal word on pe.
     *
     * @param sig the signal words.
     * @param sigIndex index of the signal word in {@code sig}.
     * @param value the value added to the signal word.
     * @param pe the target PE, numbered in this context's team.
     */
    public final void signalAdd(final SymmetricLongs sig, final long sigIndex, final long value, final int pe)
    {
        rmaPutSignal(null, 0, null, 0, 0, sig, sigIndex, value, SignalOp.ADD, pe, false);
    }

    /**
     * {@code shmem_signal_set} (1.6): atomically sets a signal word on pe.
     *
     * @param sig the signal words.
     * @param sigIndex index of the signal word in {@code sig}.
     * @param value the value the signal word takes.
     * @param pe the target PE, numbered in this context's team.
     */
    public final void signalSet(final SymmetricLongs sig, final long sigIndex, final long value, final int pe)
    {
        rmaPutSignal(null, 0, null, 0, 0, sig, sigIndex, value, SignalOp.SET, pe, false);
    }

    // ------------------------------------------------------------------ team and lifetime

    /** {@return false only for {@link #INVALID}} */
    public boolean isValid()
    {
        return true;
    }

    /**
     * {@code shmem_ctx_get_team}.
     *
     * @return the team whose PE numbers this context uses (WORLD for the default context, {@link Team#INVALID}
     *         for {@link #INVALID}).
     * @throws IllegalStateException if the context was closed (destroyed).
     */
    public abstract Team team();

    /**
     * {@code shmem_ctx_destroy}: completes the context's pending operations and releases it; later calls
     * on it fail. (For {@link Shmem}, the default context, close finalizes the PE.)
     */
    @Override
    public abstract void close();

    // ------------------------------------------------------------------ sessions (1.6)

    /**
     * {@code shmem_ctx_session_start} (1.6): the program says it is about to issue a burst of operations
     * on this context. Sessions are hints only: completion and ordering are unchanged, so, as the
     * specification allows, jshmem checks the arguments and otherwise ignores them (its p2p path already
     * completes every operation as it is issued).
     *
     * @param config  the session's configuration ({@link SessionConfig#NONE} for none).
     * @param options session options (none, or {@link SessionOption#BATCH}).
     */
    public final void sessionStart(final SessionConfig config, final SessionOption... options)
    {
        java.util.Objects.requireNonNull(config, "session config (use SessionConfig.NONE)");
        for (final SessionOption o : options)
        {
            java.util.Objects.requireNonNull(o, "session option");
        }
    }

    /**
     * {@code shmem_ctx_session_stop} (1.6): ends the session; like the start, a hint that changes no
     * completion or ordering (use {@link #quiet()} to complete the session's operations).
     */
    public final void sessionStop()
    {
        // a hint: nothing to end on a path that completes operations as they are issued
    }

    // ------------------------------------------------------------------ ordering

    /**
     * {@code shmem_fence}: puts, atomics and signals to each PE issued on this context before the fence
     * are delivered before those issued after it, to the same PE. Does not order gets.
     */
    public abstract void fence();

    /** {@code shmem_quiet}: completes every operation this context issued, nbi gets and fetches included. */
    public abstract void quiet();

    /**
     * {@code shmem_pe_quiet} (1.6): completes this context's operations to the listed PEs.
     *
     * @param pes PEs relative to the context's team; an empty array is a no-op.
     */
    public abstract void peQuiet(int... pes);

    // ------------------------------------------------------------------ INVALID

    private static final class Invalid extends ShmemContext
    {
        private static IllegalStateException invalid(final String what)
        {
            return new IllegalStateException(what + " on ShmemContext.INVALID (no context: a context creation failed or none was made)");
        }

        @Override
        public boolean isValid()
        {
            return false;
        }

        @Override
        protected void rmaPut(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset, final int count,
            final int pe, final boolean nbi)
        {
            throw invalid("put");
        }

        @Override
        protected void rmaGet(final Object dest, final int destOffset, final SymmetricArray<?> src, final long srcIndex, final int count,
            final int pe, final boolean nbi)
        {
            throw invalid("get");
        }

        @Override
        protected void rmaPutSegment(final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src, final int pe,
            final boolean nbi)
        {
            throw invalid("put");
        }

        @Override
        protected void rmaGetSegment(final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset, final int pe,
            final boolean nbi)
        {
            throw invalid("get");
        }

        @Override
        protected void rmaPutStrided(final SymmetricArray<?> dest, final long destIndex, final long dst, final Object src,
            final int srcOffset, final long sst, final long bsize, final long nblocks, final int pe)
        {
            throw invalid("strided put");
        }

        @Override
        protected void rmaGetStrided(final Object dest, final int destOffset, final long dst, final SymmetricArray<?> src,
            final long srcIndex, final long sst, final long bsize, final long nblocks, final int pe)
        {
            throw invalid("strided get");
        }

        @Override
        protected void rmaP(final SymmetricArray<?> dest, final long index, final long bits, final int pe)
        {
            throw invalid("p");
        }

        @Override
        protected long rmaG(final SymmetricArray<?> src, final long index, final int pe)
        {
            throw invalid("g");
        }

        @Override
        protected void rmaPutSignal(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset,
            final int count, final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int pe,
            final boolean nbi)
        {
            throw invalid("put-with-signal");
        }

        @Override
        protected long amo(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond,
            final int pe)
        {
            throw invalid("atomic " + op);
        }

        @Override
        protected void amoNbi(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond,
            final int pe, final Object fetch, final int fetchIndex)
        {
            throw invalid("atomic " + op);
        }

        /** {@code shmem_ctx_get_team(SHMEM_CTX_INVALID)}: {@code SHMEM_TEAM_INVALID}. */
        @Override
        public Team team()
        {
            return Team.INVALID;
        }

        /** {@code shmem_ctx_destroy(SHMEM_CTX_INVALID)}: a no-op. */
        @Override
        public void close()
        {
        }

        @Override
        public void fence()
        {
            throw invalid("fence");
        }

        @Override
        public void quiet()
        {
            throw invalid("quiet");
        }

        @Override
        public void peQuiet(final int... pes)
        {
            throw invalid("peQuiet");
        }

        @Override
        public String toString()
        {
            return "ShmemContext.INVALID";
        }
    }
}
