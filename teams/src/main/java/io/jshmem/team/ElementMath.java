package io.jshmem.team;

import io.jshmem.ReduceOp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The per-element-type arithmetic of reductions and scans, written once per lane kind instead of once
 * per type: integer types compute in {@code long} lanes (loads sign- or, for char, zero-extend; stores
 * truncate, which gives Java's wrap-around for SUM and PROD and exact results for the rest), floating
 * types in {@code double} lanes (a float sum or product of two floats computed in double and rounded
 * once is the float result, so no precision is gained or lost).
 */
abstract class ElementMath
{
    final int bytes;
    final String typeName;

    private ElementMath(final int bytes, final String typeName)
    {
        this.bytes = bytes;
        this.typeName = typeName;
    }

    private static final ElementMath BYTES = new Integral(1, "byte", false);
    private static final ElementMath SHORTS = new Integral(2, "short", false);
    private static final ElementMath CHARS = new Integral(2, "char", true);
    private static final ElementMath INTS = new Integral(4, "int", false);
    private static final ElementMath LONGS = new Integral(8, "long", false);
    private static final ElementMath FLOATS = new Floating(4, "float");
    private static final ElementMath DOUBLES = new Floating(8, "double");

    /** @return the arithmetic of the layout's element type (one shared instance per type: no allocation per call). */
    static ElementMath of(final ValueLayout layout)
    {
        final Class<?> c = layout.carrier();
        if (c == long.class)
        {
            return LONGS;
        }
        if (c == double.class)
        {
            return DOUBLES;
        }
        if (c == int.class)
        {
            return INTS;
        }
        if (c == float.class)
        {
            return FLOATS;
        }
        if (c == byte.class)
        {
            return BYTES;
        }
        if (c == short.class)
        {
            return SHORTS;
        }
        if (c == char.class)
        {
            return CHARS;
        }
        throw new IllegalArgumentException("no reduction arithmetic for elements of " + layout);
    }

    /** @return whether op applies to this type (bitwise ops need an integer type). */
    abstract boolean supports(ReduceOp op);

    /** {@code acc[i] = acc[i] op in[i]} for {@code count} elements; both segments start at element 0. */
    final void combine(final ReduceOp op, final MemorySegment acc, final MemorySegment in, final long count)
    {
        combine(op, acc, 0, in, 0, count);
    }

    /**
     * {@code acc[accOff + i] = acc[accOff + i] op in[inOff + i]} for {@code count} elements, offsets in bytes: the
     * allocation-free form (no slices) of the reductions' hot paths.
     */
    abstract void combine(ReduceOp op, MemorySegment acc, long accOff, MemorySegment in, long inOff, long count);

    /** Integer lanes: 1, 2, 4 or 8 byte elements in a long; chars zero-extend, the others sign-extend. */
    private static final class Integral extends ElementMath
    {
        private final boolean unsigned;

        Integral(final int bytes, final String typeName, final boolean unsigned)
        {
            super(bytes, typeName);
            this.unsigned = unsigned;
        }

        private long get(final MemorySegment s, final long o)
        {
            return switch (bytes)
            {
                case 1 -> s.get(ValueLayout.JAVA_BYTE, o);
                case 2 -> unsigned ? s.get(ValueLayout.JAVA_CHAR_UNALIGNED, o) : s.get(ValueLayout.JAVA_SHORT_UNALIGNED, o);
                case 4 -> s.get(ValueLayout.JAVA_INT_UNALIGNED, o);
                default -> s.get(ValueLayout.JAVA_LONG_UNALIGNED, o);
            };
        }

        /** Stores the low bytes (a char and a short of the same bits are the same two bytes). */
        private void set(final MemorySegment s, final long o, final long v)
        {
            switch (bytes)
            {
                case 1 -> s.set(ValueLayout.JAVA_BYTE, o, (byte)v);
                case 2 -> s.set(ValueLayout.JAVA_SHORT_UNALIGNED, o, (short)v);
                case 4 -> s.set(ValueLayout.JAVA_INT_UNALIGNED, o, (int)v);
                default -> s.set(ValueLayout.JAVA_LONG_UNALIGNED, o, v);
            }
        }

        @Override
        boolean supports(final ReduceOp op)
        {
            return true;
        }

        @Override
        void combine(final ReduceOp op, final MemorySegment acc, final long accOff, final MemorySegment in, final long inOff,
            final long count)
        {
            final long end = count * bytes;
            for (long o = 0; o < end; o += bytes)
            {
                set(acc, accOff + o, apply(op, get(acc, accOff + o), get(in, inOff + o)));
            }
        }

        private static long apply(final ReduceOp op, final long a, final long b)
        {
            return switch (op)
            {
                case AND -> a & b;
                case OR -> a | b;
                case XOR -> a ^ b;
                case MAX -> Math.max(a, b);
                case MIN -> Math.min(a, b);
                case SUM -> a + b;
                case PROD -> a * b;
            };
        }
    }

    /** Floating lanes: floats and doubles in a double. */
    private static final class Floating extends ElementMath
    {
        Floating(final int bytes, final String typeName)
        {
            super(bytes, typeName);
        }

        private double get(final MemorySegment s, final long o)
        {
            return bytes == 4 ? s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, o) : s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, o);
        }

        private void set(final MemorySegment s, final long o, final double v)
        {
            if (bytes == 4)
            {
                s.set(ValueLayout.JAVA_FLOAT_UNALIGNED, o, (float)v);
            }
            else
            {
                s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, o, v);
            }
        }

        @Override
        boolean supports(final ReduceOp op)
        {
            return !op.isBitwise();
        }

        @Override
        void combine(final ReduceOp op, final MemorySegment acc, final long accOff, final MemorySegment in, final long inOff,
            final long count)
        {
            final long end = count * bytes;
            for (long o = 0; o < end; o += bytes)
            {
                set(acc, accOff + o, apply(op, get(acc, accOff + o), get(in, inOff + o)));
            }
        }

        private double apply(final ReduceOp op, final double a, final double b)
        {
            return switch (op)
            {
                case MAX -> Math.max(a, b);
                case MIN -> Math.min(a, b);
                case SUM -> a + b;
                case PROD -> a * b;
                default -> throw new IllegalArgumentException(op + " on " + typeName);
            };
        }
    }
}
