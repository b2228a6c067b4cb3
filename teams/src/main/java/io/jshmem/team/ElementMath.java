package io.jshmem.team;

import io.jshmem.ReduceOp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The per-element-type arithmetic of reductions and scans, written once per lane kind instead of once
 * per type: integer types compute in {@code long} lanes (loads sign- or, for char, zero-extend; stores
 * truncate, which gives Java's wrap-around for SUM and PROD and exact results for the rest), floating
 * types in {@code double} lanes (a float sum or product of two floats computed in double and rounded
 * once is the float result, so no precision is gained or lost). A subclass only says how to load and
 * store one element.
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

    static ElementMath of(final ValueLayout layout)
    {
        final Class<?> c = layout.carrier();
        if (c == byte.class)
        {
            return new Integral(1, "byte")
            {
                long get(final MemorySegment s, final long o)
                {
                    return s.get(ValueLayout.JAVA_BYTE, o);
                }

                void set(final MemorySegment s, final long o, final long v)
                {
                    s.set(ValueLayout.JAVA_BYTE, o, (byte)v);
                }
            };
        }
        if (c == short.class)
        {
            return new Integral(2, "short")
            {
                long get(final MemorySegment s, final long o)
                {
                    return s.get(ValueLayout.JAVA_SHORT_UNALIGNED, o);
                }

                void set(final MemorySegment s, final long o, final long v)
                {
                    s.set(ValueLayout.JAVA_SHORT_UNALIGNED, o, (short)v);
                }
            };
        }
        if (c == char.class)
        {
            return new Integral(2, "char")
            {
                long get(final MemorySegment s, final long o)
                {
                    return s.get(ValueLayout.JAVA_CHAR_UNALIGNED, o);
                }

                void set(final MemorySegment s, final long o, final long v)
                {
                    s.set(ValueLayout.JAVA_CHAR_UNALIGNED, o, (char)v);
                }
            };
        }
        if (c == int.class)
        {
            return new Integral(4, "int")
            {
                long get(final MemorySegment s, final long o)
                {
                    return s.get(ValueLayout.JAVA_INT_UNALIGNED, o);
                }

                void set(final MemorySegment s, final long o, final long v)
                {
                    s.set(ValueLayout.JAVA_INT_UNALIGNED, o, (int)v);
                }
            };
        }
        if (c == long.class)
        {
            return new Integral(8, "long")
            {
                long get(final MemorySegment s, final long o)
                {
                    return s.get(ValueLayout.JAVA_LONG_UNALIGNED, o);
                }

                void set(final MemorySegment s, final long o, final long v)
                {
                    s.set(ValueLayout.JAVA_LONG_UNALIGNED, o, v);
                }
            };
        }
        if (c == float.class)
        {
            return new Floating(4, "float")
            {
                double get(final MemorySegment s, final long o)
                {
                    return s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, o);
                }

                void set(final MemorySegment s, final long o, final double v)
                {
                    s.set(ValueLayout.JAVA_FLOAT_UNALIGNED, o, (float)v);
                }
            };
        }
        if (c == double.class)
        {
            return new Floating(8, "double")
            {
                double get(final MemorySegment s, final long o)
                {
                    return s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, o);
                }

                void set(final MemorySegment s, final long o, final double v)
                {
                    s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, o, v);
                }
            };
        }
        throw new IllegalArgumentException("no reduction arithmetic for elements of " + layout);
    }

    /** @return whether op applies to this type (bitwise ops need an integer type). */
    abstract boolean supports(ReduceOp op);

    /** {@code acc[i] = acc[i] op in[i]} for {@code count} elements; both segments start at element 0. */
    abstract void combine(ReduceOp op, MemorySegment acc, MemorySegment in, long count);

    private abstract static class Integral extends ElementMath
    {
        Integral(final int bytes, final String typeName)
        {
            super(bytes, typeName);
        }

        abstract long get(MemorySegment s, long offset);

        abstract void set(MemorySegment s, long offset, long value);

        @Override
        boolean supports(final ReduceOp op)
        {
            return true;
        }

        @Override
        void combine(final ReduceOp op, final MemorySegment acc, final MemorySegment in, final long count)
        {
            final long end = count * bytes;
            for (long o = 0; o < end; o += bytes)
            {
                final long a = get(acc, o);
                final long b = get(in, o);
                set(acc, o, switch (op)
                {
                    case AND -> a & b;
                    case OR -> a | b;
                    case XOR -> a ^ b;
                    case MAX -> Math.max(a, b);
                    case MIN -> Math.min(a, b);
                    case SUM -> a + b;
                    case PROD -> a * b;
                });
            }
        }
    }

    private abstract static class Floating extends ElementMath
    {
        Floating(final int bytes, final String typeName)
        {
            super(bytes, typeName);
        }

        abstract double get(MemorySegment s, long offset);

        abstract void set(MemorySegment s, long offset, double value);

        @Override
        boolean supports(final ReduceOp op)
        {
            return !op.isBitwise();
        }

        @Override
        void combine(final ReduceOp op, final MemorySegment acc, final MemorySegment in, final long count)
        {
            final long end = count * bytes;
            for (long o = 0; o < end; o += bytes)
            {
                final double a = get(acc, o);
                final double b = get(in, o);
                set(acc, o, switch (op)
                {
                    case MAX -> Math.max(a, b);
                    case MIN -> Math.min(a, b);
                    case SUM -> a + b;
                    case PROD -> a * b;
                    default -> throw new IllegalArgumentException(op + " on " + typeName);
                });
            }
        }
    }
}
