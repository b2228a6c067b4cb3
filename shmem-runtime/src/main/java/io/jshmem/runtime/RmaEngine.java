package io.jshmem.runtime;

import io.jshmem.AtomicOp;
import io.jshmem.ShmemException;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricLongs;
import io.jshmem.spi.SymmetricSpace;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Array;

/**
 * The one implementation of every one-sided operation on the p2p path: argument checks, then copies
 * and atomics on the target PE's mapped heap. Every context of a PE shares its engine. Safe from any
 * thread: it holds no mutable state (completion is immediate on this path, so fence and quiet are
 * memory fences).
 * <p>
 * Ordering: puts are plain stores into the peer mapping; a put-with-signal issues a full fence between
 * the data and the signal, so a PE that observes the signal with an acquire load (signalWaitUntil,
 * waitUntil) observes the data; {@link #fence()} and {@link #quiet()} are full fences, which also order
 * any non-temporal stores the JDK's copy routines may use.
 */
final class RmaEngine
{
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final SymmetricSpace owner;
    private final MemorySegment[] heaps;
    private final int nPes;

    RmaEngine(final SymmetricSpace owner, final MemorySegment[] heaps)
    {
        this.owner = owner;
        this.heaps = heaps;
        this.nPes = heaps.length;
    }

    // ------------------------------------------------------------------ checks

    MemorySegment target(final int pe)
    {
        if (pe < 0 || pe >= nPes)
        {
            throw new IndexOutOfBoundsException(owner.prefix() + "pe=" + pe + " out of range [0, " + nPes + ")");
        }
        final MemorySegment heap = heaps[pe];
        if (heap == null)
        {
            throw new ShmemException(owner.prefix() + "pe=" + pe + " is not reachable: it is on another node and no inter-node transport is configured");
        }
        return heap;
    }

    void checkOwner(final SymmetricArray<?> handle, final String what)
    {
        if (handle == null)
        {
            throw new NullPointerException(owner.prefix() + what + " handle is null");
        }
        if (handle.allocation().space() != owner)
        {
            throw new IllegalArgumentException(owner.prefix() + what + " " + handle + " was not allocated by this PE's job (a foreign handle)");
        }
    }

    private long checkHandle(final SymmetricArray<?> handle, final long index, final long count, final String what)
    {
        checkOwner(handle, what);
        return handle.checkRange(index, count);
    }

    /** Checks a Java array range; a null array is allowed with count 0 (the spec's zero-length transfer with NULL). */
    private void checkArray(final Object array, final int offset, final int count, final String what)
    {
        if (array == null && count == 0 && offset == 0)
        {
            return;
        }
        if (array == null)
        {
            throw new NullPointerException(owner.prefix() + what + " array is null");
        }
        final int length = Array.getLength(array);
        if (offset < 0 || count < 0 || offset > length - count)
        {
            throw new IndexOutOfBoundsException(owner.prefix() + what + " offset=" + offset + " count=" + count +
                " array.length=" + length);
        }
    }

    private long checkAtomic(final SymmetricArray<?> handle, final long index)
    {
        final long off = checkHandle(handle, index, 1, "atomic target");
        final int size = handle.elementBytes();
        if (size != 4 && size != 8)
        {
            throw new IllegalArgumentException(owner.prefix() + "atomics need 4- or 8-byte elements, not " + handle);
        }
        if ((off & (size - 1)) != 0)
        {
            throw new IllegalArgumentException(owner.prefix() + "misaligned atomic: heap offset=" + off +
                " is not a multiple of " + size + " (index=" + index + " of " + handle + ")");
        }
        return off;
    }

    // ------------------------------------------------------------------ contiguous

    void put(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset, final int count, final int pe)
    {
        final long off = checkHandle(dest, destIndex, count, "dest");
        checkArray(src, srcOffset, count, "source");
        final MemorySegment t = target(pe);
        if (count > 0)
        {
            MemorySegment.copy(src, srcOffset, t, dest.elementLayout(), off, count);
        }
    }

    void get(final Object dest, final int destOffset, final SymmetricArray<?> src, final long srcIndex, final int count, final int pe)
    {
        final long off = checkHandle(src, srcIndex, count, "source");
        checkArray(dest, destOffset, count, "dest");
        final MemorySegment t = target(pe);
        if (count > 0)
        {
            MemorySegment.copy(t, src.elementLayout(), off, dest, destOffset, count);
        }
    }

    void putSegment(final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src, final int pe)
    {
        checkOwner(dest, "dest");
        final long bytes = src.byteSize();
        checkBytes(dest, destByteOffset, bytes);
        MemorySegment.copy(src, 0, target(pe), dest.offset() + destByteOffset, bytes);
    }

    void getSegment(final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset, final int pe)
    {
        checkOwner(src, "source");
        final long bytes = dest.byteSize();
        checkBytes(src, srcByteOffset, bytes);
        MemorySegment.copy(target(pe), src.offset() + srcByteOffset, dest, 0, bytes);
    }

    private void checkBytes(final SymmetricArray<?> handle, final long byteOffset, final long bytes)
    {
        if (byteOffset < 0 || byteOffset > handle.byteSize() - bytes)
        {
            throw new IndexOutOfBoundsException(owner.prefix() + "byteOffset=" + byteOffset + " bytes=" + bytes +
                " capacityBytes=" + handle.byteSize() + " of " + handle);
        }
        handle.checkLive();
    }

    // ------------------------------------------------------------------ strided

    private void checkStrides(final long dst, final long sst, final long bsize, final long nblocks)
    {
        if (nblocks < 0 || bsize < 1 || dst < bsize || sst < bsize)
        {
            throw new IllegalArgumentException(owner.prefix() + "strided transfer needs nblocks >= 0, bsize >= 1 and " +
                "strides >= bsize: dst=" + dst + " sst=" + sst + " bsize=" + bsize + " nblocks=" + nblocks);
        }
    }

    private static int span(final long stride, final long bsize, final long nblocks)
    {
        return (int)Math.min(Integer.MAX_VALUE, nblocks == 0 ? 0 : (nblocks - 1) * stride + bsize);
    }

    void putStrided(final SymmetricArray<?> dest, final long destIndex, final long dst, final Object src, final int srcOffset,
        final long sst, final long bsize, final long nblocks, final int pe)
    {
        checkStrides(dst, sst, bsize, nblocks);
        long off = checkHandle(dest, destIndex, nblocks == 0 ? 0 : (nblocks - 1) * dst + bsize, "dest");
        checkArray(src, srcOffset, span(sst, bsize, nblocks), "source");
        final MemorySegment t = target(pe);
        final ValueLayout layout = dest.elementLayout();
        final long step = dst * dest.elementBytes();
        int s = srcOffset;
        for (long b = 0; b < nblocks; b++, off += step, s += (int)sst)
        {
            MemorySegment.copy(src, s, t, layout, off, (int)bsize);
        }
    }

    void getStrided(final Object dest, final int destOffset, final long dst, final SymmetricArray<?> src, final long srcIndex,
        final long sst, final long bsize, final long nblocks, final int pe)
    {
        checkStrides(dst, sst, bsize, nblocks);
        long off = checkHandle(src, srcIndex, nblocks == 0 ? 0 : (nblocks - 1) * sst + bsize, "source");
        checkArray(dest, destOffset, span(dst, bsize, nblocks), "dest");
        final MemorySegment t = target(pe);
        final ValueLayout layout = src.elementLayout();
        final long step = sst * src.elementBytes();
        int d = destOffset;
        for (long b = 0; b < nblocks; b++, off += step, d += (int)dst)
        {
            MemorySegment.copy(t, layout, off, dest, d, (int)bsize);
        }
    }

    // ------------------------------------------------------------------ scalar

    void p(final SymmetricArray<?> dest, final long index, final long bits, final int pe)
    {
        final long off = checkHandle(dest, index, 1, "dest");
        final MemorySegment t = target(pe);
        switch (dest.elementBytes())
        {
            case 1 -> t.set(ValueLayout.JAVA_BYTE, off, (byte)bits);
            case 2 -> t.set(ValueLayout.JAVA_SHORT_UNALIGNED, off, (short)bits);
            case 4 -> t.set(ValueLayout.JAVA_INT_UNALIGNED, off, (int)bits);
            default -> t.set(ValueLayout.JAVA_LONG_UNALIGNED, off, bits);
        }
    }

    long g(final SymmetricArray<?> src, final long index, final int pe)
    {
        final long off = checkHandle(src, index, 1, "source");
        final MemorySegment t = target(pe);
        return switch (src.elementBytes())
        {
            case 1 -> t.get(ValueLayout.JAVA_BYTE, off);
            case 2 -> t.get(ValueLayout.JAVA_SHORT_UNALIGNED, off);
            case 4 -> t.get(ValueLayout.JAVA_INT_UNALIGNED, off);
            default -> t.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
        };
    }

    // ------------------------------------------------------------------ atomics

    long amo(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond, final int pe)
    {
        final long off = checkAtomic(dest, index);
        final MemorySegment t = target(pe);
        if (dest.elementBytes() == 8)
        {
            return switch (op)
            {
                case FETCH -> (long)LONG.getVolatile(t, off);
                case SET ->
                {
                    LONG.setVolatile(t, off, value);
                    yield 0L;
                }
                case SWAP -> (long)LONG.getAndSet(t, off, value);
                case COMPARE_SWAP -> (long)LONG.compareAndExchange(t, off, cond, value);
                case FETCH_INC, INC, FETCH_ADD, ADD -> (long)LONG.getAndAdd(t, off, value);
                case FETCH_AND, AND -> (long)LONG.getAndBitwiseAnd(t, off, value);
                case FETCH_OR, OR -> (long)LONG.getAndBitwiseOr(t, off, value);
                case FETCH_XOR, XOR -> (long)LONG.getAndBitwiseXor(t, off, value);
            };
        }
        final int v = (int)value;
        return switch (op)
        {
            case FETCH -> (int)INT.getVolatile(t, off);
            case SET ->
            {
                INT.setVolatile(t, off, v);
                yield 0L;
            }
            case SWAP -> (int)INT.getAndSet(t, off, v);
            case COMPARE_SWAP -> (int)INT.compareAndExchange(t, off, (int)cond, v);
            case FETCH_INC, INC, FETCH_ADD, ADD -> (int)INT.getAndAdd(t, off, v);
            case FETCH_AND, AND -> (int)INT.getAndBitwiseAnd(t, off, v);
            case FETCH_OR, OR -> (int)INT.getAndBitwiseOr(t, off, v);
            case FETCH_XOR, XOR -> (int)INT.getAndBitwiseXor(t, off, v);
        };
    }

    void amoNbi(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond,
        final int pe, final Object fetch, final int fetchIndex)
    {
        checkArray(fetch, fetchIndex, 1, "fetch");
        final long old = amo(op, dest, index, value, cond, pe);
        switch (fetch)
        {
            case long[] a -> a[fetchIndex] = old;
            case int[] a -> a[fetchIndex] = (int)old;
            case float[] a -> a[fetchIndex] = Float.intBitsToFloat((int)old);
            case double[] a -> a[fetchIndex] = Double.longBitsToDouble(old);
            default -> throw new IllegalArgumentException(owner.prefix() + "fetch must be an int[], long[], float[] or double[]: " +
                fetch.getClass().getSimpleName());
        }
    }

    // ------------------------------------------------------------------ signals

    void putSignal(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset, final int count,
        final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int pe)
    {
        final long sigOff = checkAtomic(sig, sigIndex);
        if (op == null)
        {
            throw new NullPointerException(owner.prefix() + "signal op is null");
        }
        if (dest != null)
        {
            put(dest, destIndex, src, srcOffset, count, pe);
            VarHandle.fullFence(); // the data is delivered before the signal that announces it (pairs with the waiter's acquire load)
        }
        final MemorySegment t = target(pe);
        if (op == SignalOp.SET)
        {
            LONG.setVolatile(t, sigOff, signal);
        }
        else
        {
            LONG.getAndAdd(t, sigOff, signal);
        }
    }

    // ------------------------------------------------------------------ ordering

    void fence()
    {
        VarHandle.fullFence();
    }

    void quiet()
    {
        VarHandle.fullFence();
    }

    void peQuiet(final int[] pes)
    {
        for (final int pe : pes)
        {
            target(pe);
        }
        if (pes.length > 0)
        {
            VarHandle.fullFence();
        }
    }
}
