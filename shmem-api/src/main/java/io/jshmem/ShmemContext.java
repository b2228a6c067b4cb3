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
 * atomic, a freed or foreign handle each fail with an exception naming the operands and the PE.
 * <p>
 * Threads: under {@link ThreadLevel#MULTIPLE} any thread may call; otherwise as the thread level says.
 */
public abstract class ShmemContext implements AutoCloseable
{
    /** Subclassed by the runtime only. */
    protected ShmemContext()
    {
    }

    // ------------------------------------------------------------------ internal operations

    /** Contiguous put of {@code count} elements from a Java array. */
    protected abstract void rmaPut(SymmetricArray<?> dest, long destIndex, Object src, int srcOffset, int count, int pe, boolean nbi);

    /** Contiguous get of {@code count} elements into a Java array. */
    protected abstract void rmaGet(Object dest, int destOffset, SymmetricArray<?> src, long srcIndex, int count, int pe, boolean nbi);

    /** Put of a whole segment to {@code destByteOffset} bytes into {@code dest}. */
    protected abstract void rmaPutSegment(SymmetricArray<?> dest, long destByteOffset, MemorySegment src, int pe, boolean nbi);

    /** Get into a whole segment from {@code srcByteOffset} bytes into {@code src}. */
    protected abstract void rmaGetSegment(MemorySegment dest, SymmetricArray<?> src, long srcByteOffset, int pe, boolean nbi);

    /** Block-strided put: {@code nblocks} blocks of {@code bsize} elements, strides in elements. */
    protected abstract void rmaPutStrided(SymmetricArray<?> dest, long destIndex, long dst, Object src, int srcOffset, long sst,
        long bsize, long nblocks, int pe);

    /** Block-strided get: {@code nblocks} blocks of {@code bsize} elements, strides in elements. */
    protected abstract void rmaGetStrided(Object dest, int destOffset, long dst, SymmetricArray<?> src, long srcIndex, long sst,
        long bsize, long nblocks, int pe);

    /** Scalar put of the element's raw bits (low {@code elementBytes} bytes of {@code bits}). */
    protected abstract void rmaP(SymmetricArray<?> dest, long index, long bits, int pe);

    /** Scalar get of the element's raw bits (sign-extended for 1, 2 and 4 byte elements). */
    protected abstract long rmaG(SymmetricArray<?> src, long index, int pe);

    /** An atomic on a 4- or 8-byte element, values as raw bits; returns the old value where it fetches. */
    protected abstract long amo(AtomicOp op, SymmetricArray<?> dest, long index, long value, long cond, int pe);

    /** A fetching atomic whose old value is stored into {@code fetch[fetchIndex]} (an int[] or long[] ...) by quiet. */
    protected abstract void amoNbi(AtomicOp op, SymmetricArray<?> dest, long index, long value, long cond, int pe,
        Object fetch, int fetchIndex);

    /** Put then signal; with a null/empty source only the signal. */
    protected abstract void rmaPutSignal(SymmetricArray<?> dest, long destIndex, Object src, int srcOffset, int count,
        SymmetricLongs sig, long sigIndex, long signal, SignalOp op, int pe, boolean nbi);

    // ------------------------------------------------------------------ RMA

    /**
     * {@code shmem_put}: copies {@code src[srcOffset .. srcOffset+count)} to {@code dest[destIndex ..]} on pe.
     * Returns when {@code src} may be reused; delivery is complete after {@link #quiet()}.
     *
     * @param <A> the element array type.
     */
    public final <A> void put(final SymmetricArray<A> dest, final long destIndex, final A src, final int srcOffset,
        final int count, final int pe)
    {
        rmaPut(dest, destIndex, src, srcOffset, count, pe, false);
    }

    /** {@code shmem_get}: copies {@code count} elements of {@code src[srcIndex ..]} on pe into {@code dest[destOffset ..]}. */
    public final <A> void get(final A dest, final int destOffset, final SymmetricArray<A> src, final long srcIndex,
        final int count, final int pe)
    {
        rmaGet(dest, destOffset, src, srcIndex, count, pe, false);
    }

    /** {@code shmem_put_nbi}: as {@link #put} but {@code src} stays in use until {@link #quiet()}. */
    public final <A> void putNbi(final SymmetricArray<A> dest, final long destIndex, final A src, final int srcOffset,
        final int count, final int pe)
    {
        rmaPut(dest, destIndex, src, srcOffset, count, pe, true);
    }

    /** {@code shmem_get_nbi}: as {@link #get} but {@code dest} is complete only after {@link #quiet()}. */
    public final <A> void getNbi(final A dest, final int destOffset, final SymmetricArray<A> src, final long srcIndex,
        final int count, final int pe)
    {
        rmaGet(dest, destOffset, src, srcIndex, count, pe, true);
    }

    /** Puts a whole segment into {@code dest} starting at element {@code destIndex} (its size a multiple of the element size). */
    public final void put(final SymmetricArray<?> dest, final long destIndex, final MemorySegment src, final int pe)
    {
        rmaPutSegment(dest, destIndex * dest.elementBytes(), src, pe, false);
    }

    /** Fills a whole segment from {@code src} starting at element {@code srcIndex}. */
    public final void get(final MemorySegment dest, final SymmetricArray<?> src, final long srcIndex, final int pe)
    {
        rmaGetSegment(dest, src, srcIndex * src.elementBytes(), pe, false);
    }

    /** {@code shmem_putmem}: bytes of a segment to {@code destByteOffset} bytes into any symmetric object. */
    public final void putmem(final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src, final int pe)
    {
        rmaPutSegment(dest, destByteOffset, src, pe, false);
    }

    /** {@code shmem_getmem}: bytes from {@code srcByteOffset} bytes into any symmetric object into a segment. */
    public final void getmem(final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset, final int pe)
    {
        rmaGetSegment(dest, src, srcByteOffset, pe, false);
    }

    /** {@code shmem_putmem_nbi}. */
    public final void putmemNbi(final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src, final int pe)
    {
        rmaPutSegment(dest, destByteOffset, src, pe, true);
    }

    /** {@code shmem_getmem_nbi}. */
    public final void getmemNbi(final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset, final int pe)
    {
        rmaGetSegment(dest, src, srcByteOffset, pe, true);
    }

    /**
     * {@code shmem_iput}: {@code nelems} elements, {@code src[srcOffset + i*sst]} to {@code dest[destIndex + i*dst]}.
     * Strides are in elements and at least 1.
     */
    public final <A> void iput(final SymmetricArray<A> dest, final long destIndex, final long dst, final A src,
        final int srcOffset, final long sst, final long nelems, final int pe)
    {
        rmaPutStrided(dest, destIndex, dst, src, srcOffset, sst, 1, nelems, pe);
    }

    /** {@code shmem_iget}: {@code nelems} elements, {@code src[srcIndex + i*sst]} on pe to {@code dest[destOffset + i*dst]}. */
    public final <A> void iget(final A dest, final int destOffset, final long dst, final SymmetricArray<A> src,
        final long srcIndex, final long sst, final long nelems, final int pe)
    {
        rmaGetStrided(dest, destOffset, dst, src, srcIndex, sst, 1, nelems, pe);
    }

    /**
     * {@code shmem_ibput} (1.6): {@code nblocks} blocks of {@code bsize} elements; block i goes from
     * {@code src[srcOffset + i*sst]} to {@code dest[destIndex + i*dst]}; strides at least {@code bsize}.
     */
    public final <A> void ibput(final SymmetricArray<A> dest, final long destIndex, final long dst, final A src,
        final int srcOffset, final long sst, final long bsize, final long nblocks, final int pe)
    {
        rmaPutStrided(dest, destIndex, dst, src, srcOffset, sst, bsize, nblocks, pe);
    }

    /** {@code shmem_ibget} (1.6): the get form of {@link #ibput}. */
    public final <A> void ibget(final A dest, final int destOffset, final long dst, final SymmetricArray<A> src,
        final long srcIndex, final long sst, final long bsize, final long nblocks, final int pe)
    {
        rmaGetStrided(dest, destOffset, dst, src, srcIndex, sst, bsize, nblocks, pe);
    }

    // ------------------------------------------------------------------ scalar p / g

    public final void p(final SymmetricBytes dest, final long index, final byte value, final int pe)
    {
        rmaP(dest, index, value, pe);
    }

    public final void p(final SymmetricShorts dest, final long index, final short value, final int pe)
    {
        rmaP(dest, index, value, pe);
    }

    public final void p(final SymmetricChars dest, final long index, final char value, final int pe)
    {
        rmaP(dest, index, value, pe);
    }

    public final void p(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        rmaP(dest, index, value, pe);
    }

    /** {@code shmem_long_p}: writes one element on pe. */
    public final void p(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        rmaP(dest, index, value, pe);
    }

    public final void p(final SymmetricFloats dest, final long index, final float value, final int pe)
    {
        rmaP(dest, index, Float.floatToRawIntBits(value), pe);
    }

    public final void p(final SymmetricDoubles dest, final long index, final double value, final int pe)
    {
        rmaP(dest, index, Double.doubleToRawLongBits(value), pe);
    }

    public final byte g(final SymmetricBytes src, final long index, final int pe)
    {
        return (byte)rmaG(src, index, pe);
    }

    public final short g(final SymmetricShorts src, final long index, final int pe)
    {
        return (short)rmaG(src, index, pe);
    }

    public final char g(final SymmetricChars src, final long index, final int pe)
    {
        return (char)rmaG(src, index, pe);
    }

    public final int g(final SymmetricInts src, final long index, final int pe)
    {
        return (int)rmaG(src, index, pe);
    }

    /** {@code shmem_long_g}: reads one element on pe. */
    public final long g(final SymmetricLongs src, final long index, final int pe)
    {
        return rmaG(src, index, pe);
    }

    public final float g(final SymmetricFloats src, final long index, final int pe)
    {
        return Float.intBitsToFloat((int)rmaG(src, index, pe));
    }

    public final double g(final SymmetricDoubles src, final long index, final int pe)
    {
        return Double.longBitsToDouble(rmaG(src, index, pe));
    }

    // ------------------------------------------------------------------ signals

    /**
     * {@code shmem_put_signal}: puts the data, then updates {@code sig[sigIndex]} on pe with {@code op}.
     * A PE that observes the signal also observes this call's data (only this call's: order earlier
     * puts with {@link #fence()}). Returns when {@code src} may be reused.
     */
    public final <A> void putSignal(final SymmetricArray<A> dest, final long destIndex, final A src, final int srcOffset,
        final int count, final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int pe)
    {
        rmaPutSignal(dest, destIndex, src, srcOffset, count, sig, sigIndex, signal, op, pe, false);
    }

    /** {@code shmem_put_signal_nbi}: as {@link #putSignal}, complete at {@link #quiet()}. */
    public final <A> void putSignalNbi(final SymmetricArray<A> dest, final long destIndex, final A src, final int srcOffset,
        final int count, final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int pe)
    {
        rmaPutSignal(dest, destIndex, src, srcOffset, count, sig, sigIndex, signal, op, pe, true);
    }

    /** {@code shmem_signal_add} (1.6): atomically adds to a signal word on pe. */
    public final void signalAdd(final SymmetricLongs sig, final long sigIndex, final long value, final int pe)
    {
        rmaPutSignal(null, 0, null, 0, 0, sig, sigIndex, value, SignalOp.ADD, pe, false);
    }

    /** {@code shmem_signal_set} (1.6): atomically sets a signal word on pe. */
    public final void signalSet(final SymmetricLongs sig, final long sigIndex, final long value, final int pe)
    {
        rmaPutSignal(null, 0, null, 0, 0, sig, sigIndex, value, SignalOp.SET, pe, false);
    }

    // ------------------------------------------------------------------ team and lifetime

    /** {@code shmem_ctx_get_team}: @return the team whose PE numbers this context uses (WORLD for the default context). */
    public abstract Team team();

    /**
     * {@code shmem_ctx_destroy}: completes the context's pending operations and releases it; later calls
     * on it fail. (For {@link Shmem}, the default context, close finalizes the PE.)
     */
    @Override
    public abstract void close();

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


    // ------------------------------------------------------------ atomics on ints

    /** {@code shmem_atomic_fetch}: atomically reads dest[index] on pe. */
    public final int atomicFetch(final SymmetricInts dest, final long index, final int pe)
    {
        return (int)amo(AtomicOp.FETCH, dest, index, 0, 0, pe);
    }

    /** {@code shmem_atomic_set}: atomically writes dest[index] on pe. */
    public final void atomicSet(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        amo(AtomicOp.SET, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_swap}: writes value, returns the old value. */
    public final int atomicSwap(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        return (int)amo(AtomicOp.SWAP, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_compare_swap}: writes value if dest[index] == cond; returns the old value. */
    public final int atomicCompareSwap(final SymmetricInts dest, final long index, final int cond, final int value, final int pe)
    {
        return (int)amo(AtomicOp.COMPARE_SWAP, dest, index, value, cond, pe);
    }

    /** {@code shmem_atomic_fetch_inc}: adds 1, returns the old value. */
    public final int atomicFetchInc(final SymmetricInts dest, final long index, final int pe)
    {
        return (int)amo(AtomicOp.FETCH_INC, dest, index, 1, 0, pe);
    }

    /** {@code shmem_atomic_inc}: adds 1 (completes by quiet). */
    public final void atomicInc(final SymmetricInts dest, final long index, final int pe)
    {
        amo(AtomicOp.INC, dest, index, 1, 0, pe);
    }

    /** {@code shmem_atomic_fetch_add}: adds value, returns the old value. */
    public final int atomicFetchAdd(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        return (int)amo(AtomicOp.FETCH_ADD, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_add}: adds value (completes by quiet). */
    public final void atomicAdd(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        amo(AtomicOp.ADD, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_fetch_and}: bitwise and, returns the old value. */
    public final int atomicFetchAnd(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        return (int)amo(AtomicOp.FETCH_AND, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_and}: bitwise and (completes by quiet). */
    public final void atomicAnd(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        amo(AtomicOp.AND, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_fetch_or}: bitwise or, returns the old value. */
    public final int atomicFetchOr(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        return (int)amo(AtomicOp.FETCH_OR, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_or}: bitwise or (completes by quiet). */
    public final void atomicOr(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        amo(AtomicOp.OR, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_fetch_xor}: bitwise xor, returns the old value. */
    public final int atomicFetchXor(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        return (int)amo(AtomicOp.FETCH_XOR, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_xor}: bitwise xor (completes by quiet). */
    public final void atomicXor(final SymmetricInts dest, final long index, final int value, final int pe)
    {
        amo(AtomicOp.XOR, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_fetch_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchNbi(final int[] fetch, final int fetchIndex, final SymmetricInts dest, final long index, final int pe)
    {
        amoNbi(AtomicOp.FETCH, dest, index, 0, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_swap_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicSwapNbi(final int[] fetch, final int fetchIndex, final SymmetricInts dest, final long index, final int value, final int pe)
    {
        amoNbi(AtomicOp.SWAP, dest, index, value, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_compare_swap_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicCompareSwapNbi(final int[] fetch, final int fetchIndex, final SymmetricInts dest, final long index, final int cond, final int value, final int pe)
    {
        amoNbi(AtomicOp.COMPARE_SWAP, dest, index, value, cond, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_fetch_inc_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchIncNbi(final int[] fetch, final int fetchIndex, final SymmetricInts dest, final long index, final int pe)
    {
        amoNbi(AtomicOp.FETCH_INC, dest, index, 1, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_fetch_add_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchAddNbi(final int[] fetch, final int fetchIndex, final SymmetricInts dest, final long index, final int value, final int pe)
    {
        amoNbi(AtomicOp.FETCH_ADD, dest, index, value, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_fetch_and_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchAndNbi(final int[] fetch, final int fetchIndex, final SymmetricInts dest, final long index, final int value, final int pe)
    {
        amoNbi(AtomicOp.FETCH_AND, dest, index, value, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_fetch_or_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchOrNbi(final int[] fetch, final int fetchIndex, final SymmetricInts dest, final long index, final int value, final int pe)
    {
        amoNbi(AtomicOp.FETCH_OR, dest, index, value, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_fetch_xor_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchXorNbi(final int[] fetch, final int fetchIndex, final SymmetricInts dest, final long index, final int value, final int pe)
    {
        amoNbi(AtomicOp.FETCH_XOR, dest, index, value, 0, pe, fetch, fetchIndex);
    }

    // ------------------------------------------------------------ atomics on longs

    /** {@code shmem_atomic_fetch}: atomically reads dest[index] on pe. */
    public final long atomicFetch(final SymmetricLongs dest, final long index, final int pe)
    {
        return amo(AtomicOp.FETCH, dest, index, 0, 0, pe);
    }

    /** {@code shmem_atomic_set}: atomically writes dest[index] on pe. */
    public final void atomicSet(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        amo(AtomicOp.SET, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_swap}: writes value, returns the old value. */
    public final long atomicSwap(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        return amo(AtomicOp.SWAP, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_compare_swap}: writes value if dest[index] == cond; returns the old value. */
    public final long atomicCompareSwap(final SymmetricLongs dest, final long index, final long cond, final long value, final int pe)
    {
        return amo(AtomicOp.COMPARE_SWAP, dest, index, value, cond, pe);
    }

    /** {@code shmem_atomic_fetch_inc}: adds 1, returns the old value. */
    public final long atomicFetchInc(final SymmetricLongs dest, final long index, final int pe)
    {
        return amo(AtomicOp.FETCH_INC, dest, index, 1, 0, pe);
    }

    /** {@code shmem_atomic_inc}: adds 1 (completes by quiet). */
    public final void atomicInc(final SymmetricLongs dest, final long index, final int pe)
    {
        amo(AtomicOp.INC, dest, index, 1, 0, pe);
    }

    /** {@code shmem_atomic_fetch_add}: adds value, returns the old value. */
    public final long atomicFetchAdd(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        return amo(AtomicOp.FETCH_ADD, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_add}: adds value (completes by quiet). */
    public final void atomicAdd(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        amo(AtomicOp.ADD, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_fetch_and}: bitwise and, returns the old value. */
    public final long atomicFetchAnd(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        return amo(AtomicOp.FETCH_AND, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_and}: bitwise and (completes by quiet). */
    public final void atomicAnd(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        amo(AtomicOp.AND, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_fetch_or}: bitwise or, returns the old value. */
    public final long atomicFetchOr(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        return amo(AtomicOp.FETCH_OR, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_or}: bitwise or (completes by quiet). */
    public final void atomicOr(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        amo(AtomicOp.OR, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_fetch_xor}: bitwise xor, returns the old value. */
    public final long atomicFetchXor(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        return amo(AtomicOp.FETCH_XOR, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_xor}: bitwise xor (completes by quiet). */
    public final void atomicXor(final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        amo(AtomicOp.XOR, dest, index, value, 0, pe);
    }

    /** {@code shmem_atomic_fetch_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchNbi(final long[] fetch, final int fetchIndex, final SymmetricLongs dest, final long index, final int pe)
    {
        amoNbi(AtomicOp.FETCH, dest, index, 0, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_swap_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicSwapNbi(final long[] fetch, final int fetchIndex, final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        amoNbi(AtomicOp.SWAP, dest, index, value, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_compare_swap_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicCompareSwapNbi(final long[] fetch, final int fetchIndex, final SymmetricLongs dest, final long index, final long cond, final long value, final int pe)
    {
        amoNbi(AtomicOp.COMPARE_SWAP, dest, index, value, cond, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_fetch_inc_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchIncNbi(final long[] fetch, final int fetchIndex, final SymmetricLongs dest, final long index, final int pe)
    {
        amoNbi(AtomicOp.FETCH_INC, dest, index, 1, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_fetch_add_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchAddNbi(final long[] fetch, final int fetchIndex, final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        amoNbi(AtomicOp.FETCH_ADD, dest, index, value, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_fetch_and_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchAndNbi(final long[] fetch, final int fetchIndex, final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        amoNbi(AtomicOp.FETCH_AND, dest, index, value, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_fetch_or_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchOrNbi(final long[] fetch, final int fetchIndex, final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        amoNbi(AtomicOp.FETCH_OR, dest, index, value, 0, pe, fetch, fetchIndex);
    }

    /** {@code shmem_atomic_fetch_xor_nbi}. The old value lands in {@code fetch[fetchIndex]} by the next quiet. */
    public final void atomicFetchXorNbi(final long[] fetch, final int fetchIndex, final SymmetricLongs dest, final long index, final long value, final int pe)
    {
        amoNbi(AtomicOp.FETCH_XOR, dest, index, value, 0, pe, fetch, fetchIndex);
    }

    // ------------------------------------------------------------ extended atomics on floats

    /** {@code shmem_atomic_fetch}: atomically reads dest[index] on pe. */
    public final float atomicFetch(final SymmetricFloats dest, final long index, final int pe)
    {
        return Float.intBitsToFloat((int)amo(AtomicOp.FETCH, dest, index, 0, 0, pe));
    }

    /** {@code shmem_atomic_set}: atomically writes dest[index] on pe. */
    public final void atomicSet(final SymmetricFloats dest, final long index, final float value, final int pe)
    {
        amo(AtomicOp.SET, dest, index, Float.floatToRawIntBits(value), 0, pe);
    }

    /** {@code shmem_atomic_swap}: writes value, returns the old value. */
    public final float atomicSwap(final SymmetricFloats dest, final long index, final float value, final int pe)
    {
        return Float.intBitsToFloat((int)amo(AtomicOp.SWAP, dest, index, Float.floatToRawIntBits(value), 0, pe));
    }

    // ------------------------------------------------------------ extended atomics on doubles

    /** {@code shmem_atomic_fetch}: atomically reads dest[index] on pe. */
    public final double atomicFetch(final SymmetricDoubles dest, final long index, final int pe)
    {
        return Double.longBitsToDouble(amo(AtomicOp.FETCH, dest, index, 0, 0, pe));
    }

    /** {@code shmem_atomic_set}: atomically writes dest[index] on pe. */
    public final void atomicSet(final SymmetricDoubles dest, final long index, final double value, final int pe)
    {
        amo(AtomicOp.SET, dest, index, Double.doubleToRawLongBits(value), 0, pe);
    }

    /** {@code shmem_atomic_swap}: writes value, returns the old value. */
    public final double atomicSwap(final SymmetricDoubles dest, final long index, final double value, final int pe)
    {
        return Double.longBitsToDouble(amo(AtomicOp.SWAP, dest, index, Double.doubleToRawLongBits(value), 0, pe));
    }
}
