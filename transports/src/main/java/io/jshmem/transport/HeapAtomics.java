package io.jshmem.transport;

import io.jshmem.AtomicOp;
import io.jshmem.SignalOp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Every atomic on a heap word, as CPU atomics through var handles. The p2p path calls it on a peer's
 * mapped heap, the proxy's target side on its own heap, so that PEs reaching a word by load/store and
 * PEs reaching it through a proxy share one atomicity domain.
 */
public final class HeapAtomics
{
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private HeapAtomics()
    {
    }

    /**
     * @param heap   the heap segment.
     * @param op     the operation.
     * @param bytes  4 or 8.
     * @param offset an aligned byte offset.
     * @param value  the operand (new value for SET/SWAP/COMPARE_SWAP, addend, mask).
     * @param cond   the comparand of COMPARE_SWAP.
     * @return the old value (sign-extended from 4 bytes) for fetching operations, 0 for SET.
     */
    public static long apply(final MemorySegment heap, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond)
    {
        if (bytes == 8)
        {
            return switch (op)
            {
                case FETCH -> (long)LONG.getVolatile(heap, offset);
                case SET ->
                {
                    LONG.setVolatile(heap, offset, value);
                    yield 0L;
                }
                case SWAP -> (long)LONG.getAndSet(heap, offset, value);
                case COMPARE_SWAP -> (long)LONG.compareAndExchange(heap, offset, cond, value);
                case FETCH_INC, INC, FETCH_ADD, ADD -> (long)LONG.getAndAdd(heap, offset, value);
                case FETCH_AND, AND -> (long)LONG.getAndBitwiseAnd(heap, offset, value);
                case FETCH_OR, OR -> (long)LONG.getAndBitwiseOr(heap, offset, value);
                case FETCH_XOR, XOR -> (long)LONG.getAndBitwiseXor(heap, offset, value);
            };
        }
        final int v = (int)value;
        return switch (op)
        {
            case FETCH -> (int)INT.getVolatile(heap, offset);
            case SET ->
            {
                INT.setVolatile(heap, offset, v);
                yield 0L;
            }
            case SWAP -> (int)INT.getAndSet(heap, offset, v);
            case COMPARE_SWAP -> (int)INT.compareAndExchange(heap, offset, (int)cond, v);
            case FETCH_INC, INC, FETCH_ADD, ADD -> (int)INT.getAndAdd(heap, offset, v);
            case FETCH_AND, AND -> (int)INT.getAndBitwiseAnd(heap, offset, v);
            case FETCH_OR, OR -> (int)INT.getAndBitwiseOr(heap, offset, v);
            case FETCH_XOR, XOR -> (int)INT.getAndBitwiseXor(heap, offset, v);
        };
    }

    /** Updates a 64-bit signal word: a volatile store for SET, an atomic add for ADD. */
    public static void signal(final MemorySegment heap, final long offset, final long signal, final SignalOp op)
    {
        if (op == SignalOp.SET)
        {
            LONG.setVolatile(heap, offset, signal);
        }
        else
        {
            LONG.getAndAdd(heap, offset, signal);
        }
    }

    /** Writes a fetched value into a 4- or 8-byte destination. */
    public static void store(final MemorySegment fetch, final long old)
    {
        if (fetch.byteSize() == 8)
        {
            fetch.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, old);
        }
        else
        {
            fetch.set(ValueLayout.JAVA_INT_UNALIGNED, 0, (int)old);
        }
    }
}
