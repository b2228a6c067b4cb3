package io.jshmem.team;

import io.jshmem.ReduceOp;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-type arithmetic of reductions against Java's own arithmetic in each element type: integer
 * SUM and PROD wrap as the type does, MIN and MAX compare chars unsigned and the others signed, floats
 * round once to float, MIN and MAX follow {@link Math#min}/{@link Math#max} (NaN wins, -0.0 is below
 * 0.0), bitwise ops are refused on floating types, and only {@code count} elements are touched.
 */
class ElementMathTest
{
    private static final long SEED = Long.getLong("jshmem.test.seed", System.nanoTime());

    private static final ReduceOp[] ARITHMETIC = {ReduceOp.MAX, ReduceOp.MIN, ReduceOp.SUM, ReduceOp.PROD};

    @Test
    void everyCarrierHasItsSizeAndNameAndOneSharedInstance()
    {
        final ValueLayout[][] layouts = {
            {ValueLayout.JAVA_BYTE},
            {ValueLayout.JAVA_SHORT, ValueLayout.JAVA_SHORT_UNALIGNED},
            {ValueLayout.JAVA_CHAR, ValueLayout.JAVA_CHAR_UNALIGNED},
            {ValueLayout.JAVA_INT, ValueLayout.JAVA_INT_UNALIGNED},
            {ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG_UNALIGNED},
            {ValueLayout.JAVA_FLOAT, ValueLayout.JAVA_FLOAT_UNALIGNED},
            {ValueLayout.JAVA_DOUBLE, ValueLayout.JAVA_DOUBLE_UNALIGNED},
        };
        final String[] names = {"byte", "short", "char", "int", "long", "float", "double"};
        final int[] bytes = {1, 2, 2, 4, 8, 4, 8};
        for (int t = 0; t < layouts.length; t++)
        {
            final ElementMath m = ElementMath.of(layouts[t][0]);
            assertEquals(names[t], m.typeName);
            assertEquals(bytes[t], m.bytes, names[t]);
            for (final ValueLayout l : layouts[t])
            {
                assertSame(m, ElementMath.of(l), l + " shares the instance of its carrier");
                assertSame(m, ElementMath.of(l.withOrder(java.nio.ByteOrder.BIG_ENDIAN)), l + " in another byte order");
            }
        }
        assertNotSame(ElementMath.of(ValueLayout.JAVA_SHORT), ElementMath.of(ValueLayout.JAVA_CHAR), "short and char differ");
    }

    @Test
    void layoutsWithoutArithmeticAreRefusedNamingTheLayout()
    {
        for (final ValueLayout bad : new ValueLayout[] {ValueLayout.ADDRESS, ValueLayout.JAVA_BOOLEAN})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> ElementMath.of(bad));
            assertTrue(ex.getMessage().contains(bad.toString()), ex.getMessage());
        }
    }

    @Test
    void bitwiseOpsOnlyOnIntegerTypes()
    {
        for (final ValueLayout l : new ValueLayout[] {ValueLayout.JAVA_BYTE, ValueLayout.JAVA_SHORT, ValueLayout.JAVA_CHAR,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG})
        {
            for (final ReduceOp op : ReduceOp.values())
            {
                assertTrue(ElementMath.of(l).supports(op), l + " " + op);
            }
        }
        for (final ValueLayout l : new ValueLayout[] {ValueLayout.JAVA_FLOAT, ValueLayout.JAVA_DOUBLE})
        {
            final ElementMath m = ElementMath.of(l);
            for (final ReduceOp op : ReduceOp.values())
            {
                assertEquals(!op.isBitwise(), m.supports(op), l + " " + op);
                if (op.isBitwise())
                {
                    final MemorySegment acc = MemorySegment.ofArray(new double[] {1});
                    final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                        () -> m.combine(op, acc, MemorySegment.ofArray(new double[] {2}), 1));
                    assertTrue(ex.getMessage().contains(op.toString()) && ex.getMessage().contains(m.typeName), ex.getMessage());
                }
            }
        }
    }

    // ------------------------------------------------------------------ integers: edge values, then random values

    /**
     * The op in Java's int arithmetic (byte, short and char operands promoted, as their own arithmetic does): the
     * long result's low 32 bits, which is what int wrap-around, comparison and bitwise ops give.
     */
    private static int intOp(final ReduceOp op, final int a, final int b)
    {
        return (int)longOp(op, a, b);
    }

    private static long longOp(final ReduceOp op, final long a, final long b)
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

    @Test
    void integerSumAndProductWrapAsTheTypeDoes()
    {
        assertArrayCombines(ReduceOp.SUM, new byte[] {Byte.MAX_VALUE, Byte.MIN_VALUE, -1}, new byte[] {1, -1, -1},
            new byte[] {Byte.MIN_VALUE, Byte.MAX_VALUE, -2});
        assertArrayCombines(ReduceOp.PROD, new byte[] {64, -128, 16}, new byte[] {2, -1, 16}, new byte[] {-128, -128, 0});
        assertArrayCombines(ReduceOp.SUM, new short[] {Short.MAX_VALUE, Short.MIN_VALUE}, new short[] {1, -1},
            new short[] {Short.MIN_VALUE, Short.MAX_VALUE});
        assertArrayCombines(ReduceOp.PROD, new short[] {256, 181}, new short[] {256, 181}, new short[] {0, (short)32761});
        assertArrayCombines(ReduceOp.SUM, new char[] {Character.MAX_VALUE, 1}, new char[] {1, Character.MAX_VALUE},
            new char[] {0, 0});
        assertArrayCombines(ReduceOp.PROD, new char[] {0x8000, 0xffff}, new char[] {2, 0xffff}, new char[] {0, 1});
        assertArrayCombines(ReduceOp.SUM, new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE}, new int[] {1, -1},
            new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE});
        assertArrayCombines(ReduceOp.PROD, new int[] {1 << 16, 1 << 30}, new int[] {1 << 16, 4}, new int[] {0, 0});
        assertArrayCombines(ReduceOp.SUM, new long[] {Long.MAX_VALUE, Long.MIN_VALUE}, new long[] {1, -1},
            new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
        assertArrayCombines(ReduceOp.PROD, new long[] {Long.MAX_VALUE, 1L << 32, Long.MIN_VALUE}, new long[] {2, 1L << 32, -1},
            new long[] {-2, 0, Long.MIN_VALUE});
    }

    @Test
    void charsCompareUnsignedAndTheOtherIntegersSigned()
    {
        // -1 as a byte, short, int or long is below 1; the char of the same bits (0xffff) is above it
        assertArrayCombines(ReduceOp.MAX, new byte[] {-1, Byte.MIN_VALUE}, new byte[] {1, Byte.MAX_VALUE}, new byte[] {1, Byte.MAX_VALUE});
        assertArrayCombines(ReduceOp.MIN, new byte[] {-1, Byte.MIN_VALUE}, new byte[] {1, Byte.MAX_VALUE},
            new byte[] {-1, Byte.MIN_VALUE});
        assertArrayCombines(ReduceOp.MAX, new short[] {-1, Short.MIN_VALUE}, new short[] {1, 0}, new short[] {1, 0});
        assertArrayCombines(ReduceOp.MIN, new short[] {-1, Short.MIN_VALUE}, new short[] {1, 0}, new short[] {-1, Short.MIN_VALUE});
        assertArrayCombines(ReduceOp.MAX, new char[] {0xffff, 0x8000}, new char[] {1, 0x7fff}, new char[] {0xffff, 0x8000});
        assertArrayCombines(ReduceOp.MIN, new char[] {0xffff, 0x8000}, new char[] {1, 0x7fff}, new char[] {1, 0x7fff});
        assertArrayCombines(ReduceOp.MAX, new int[] {-1, Integer.MIN_VALUE}, new int[] {1, Integer.MAX_VALUE},
            new int[] {1, Integer.MAX_VALUE});
        assertArrayCombines(ReduceOp.MIN, new long[] {-1, Long.MIN_VALUE}, new long[] {1, Long.MAX_VALUE},
            new long[] {-1, Long.MIN_VALUE});
    }

    @Test
    void bitwiseOpsKeepEveryBitOfNegativeValues()
    {
        assertArrayCombines(ReduceOp.AND, new byte[] {(byte)0xf0, -1}, new byte[] {(byte)0x3c, (byte)0x81}, new byte[] {0x30, (byte)0x81});
        assertArrayCombines(ReduceOp.OR, new short[] {(short)0x8000, 0x00f0}, new short[] {0x0001, 0x0f00},
            new short[] {(short)0x8001, 0x0ff0});
        assertArrayCombines(ReduceOp.XOR, new char[] {0xffff, 0x1234}, new char[] {0x8001, 0x1234}, new char[] {0x7ffe, 0});
        assertArrayCombines(ReduceOp.XOR, new int[] {-1, 0x55555555}, new int[] {Integer.MIN_VALUE, 0xaaaaaaaa},
            new int[] {Integer.MAX_VALUE, -1});
        assertArrayCombines(ReduceOp.AND, new long[] {-1L, 0xff00ff00ff00ff00L}, new long[] {Long.MIN_VALUE, 0x0ff00ff00ff00ff0L},
            new long[] {Long.MIN_VALUE, 0x0f000f000f000f00L});
    }

    @Test
    void randomIntegersCombineAsJavaArithmeticInTheirType()
    {
        System.out.println("ElementMathTest seed=" + SEED);
        final Random random = new Random(SEED);
        final int count = 257;
        for (final ReduceOp op : ReduceOp.values())
        {
            final byte[] ba = new byte[count];
            final byte[] bb = new byte[count];
            final short[] sa = new short[count];
            final short[] sb = new short[count];
            final char[] ca = new char[count];
            final char[] cb = new char[count];
            final int[] ia = new int[count];
            final int[] ib = new int[count];
            final long[] la = new long[count];
            final long[] lb = new long[count];
            final byte[] be = new byte[count];
            final short[] se = new short[count];
            final char[] ce = new char[count];
            final int[] ie = new int[count];
            final long[] le = new long[count];
            for (int i = 0; i < count; i++)
            {
                final long x = edgy(random);
                final long y = edgy(random);
                ba[i] = (byte)x;
                bb[i] = (byte)y;
                be[i] = (byte)intOp(op, ba[i], bb[i]);
                sa[i] = (short)x;
                sb[i] = (short)y;
                se[i] = (short)intOp(op, sa[i], sb[i]);
                ca[i] = (char)x;
                cb[i] = (char)y;
                ce[i] = (char)intOp(op, ca[i], cb[i]);
                ia[i] = (int)x;
                ib[i] = (int)y;
                ie[i] = intOp(op, ia[i], ib[i]);
                la[i] = x;
                lb[i] = y;
                le[i] = longOp(op, x, y);
            }
            assertArrayCombines(op, ba, bb, be);
            assertArrayCombines(op, sa, sb, se);
            assertArrayCombines(op, ca, cb, ce);
            assertArrayCombines(op, ia, ib, ie);
            assertArrayCombines(op, la, lb, le);
        }
    }

    /** Random longs, often near a type's edges (0, +-1, the extremes of every integer width). */
    private static long edgy(final Random random)
    {
        final long[] edges = {0, 1, -1, Byte.MAX_VALUE, Byte.MIN_VALUE, 0xff, Short.MAX_VALUE, Short.MIN_VALUE, 0xffff,
            Integer.MAX_VALUE, Integer.MIN_VALUE, 0xffffffffL, Long.MAX_VALUE, Long.MIN_VALUE};
        return switch (random.nextInt(3))
        {
            case 0 -> edges[random.nextInt(edges.length)] + random.nextInt(3) - 1;
            case 1 -> random.nextInt(512) - 256;
            default -> random.nextLong();
        };
    }

    // ------------------------------------------------------------------ floating point

    @Test
    void floatResultsAreRoundedOnceToFloatAsFloatArithmeticIs()
    {
        final Random random = new Random(SEED + 1);
        final int count = 1000;
        for (final ReduceOp op : ARITHMETIC)
        {
            final float[] a = new float[count];
            final float[] b = new float[count];
            final float[] e = new float[count];
            for (int i = 0; i < count; i++)
            {
                a[i] = randomFloat(random);
                b[i] = randomFloat(random);
                e[i] = switch (op)
                {
                    case MAX -> Math.max(a[i], b[i]);
                    case MIN -> Math.min(a[i], b[i]);
                    case SUM -> a[i] + b[i];
                    default -> a[i] * b[i];
                };
            }
            assertArrayCombines(op, a, b, e);
        }
    }

    @Test
    void doubleResultsAreDoubleArithmetic()
    {
        final Random random = new Random(SEED + 2);
        final int count = 1000;
        for (final ReduceOp op : ARITHMETIC)
        {
            final double[] a = new double[count];
            final double[] b = new double[count];
            final double[] e = new double[count];
            for (int i = 0; i < count; i++)
            {
                a[i] = Double.longBitsToDouble(random.nextLong());
                b[i] = random.nextBoolean() ? Double.longBitsToDouble(random.nextLong()) : random.nextGaussian();
                e[i] = switch (op)
                {
                    case MAX -> Math.max(a[i], b[i]);
                    case MIN -> Math.min(a[i], b[i]);
                    case SUM -> a[i] + b[i];
                    default -> a[i] * b[i];
                };
            }
            assertArrayCombines(op, a, b, e);
        }
    }

    /** Any float bit pattern half the time (NaNs, infinities, subnormals), else an ordinary value. */
    private static float randomFloat(final Random random)
    {
        return random.nextBoolean() ? Float.intBitsToFloat(random.nextInt()) : (float)(random.nextGaussian() * 1e3);
    }

    @Test
    void floatingEdgeCasesFollowIeeeAndMathMinMax()
    {
        final float nanF = Float.NaN;
        assertArrayCombines(ReduceOp.MAX, new float[] {nanF, 1, -0.0f, 0.0f}, new float[] {1, nanF, 0.0f, -0.0f},
            new float[] {nanF, nanF, 0.0f, 0.0f});
        assertArrayCombines(ReduceOp.MIN, new float[] {nanF, 1, -0.0f, 0.0f}, new float[] {1, nanF, 0.0f, -0.0f},
            new float[] {nanF, nanF, -0.0f, -0.0f});
        // overflow to infinity in float although the double lane does not overflow; the smallest subnormal halves to 0
        assertArrayCombines(ReduceOp.PROD, new float[] {Float.MAX_VALUE, Float.MIN_VALUE, -Float.MAX_VALUE},
            new float[] {2, 0.5f, 2}, new float[] {Float.POSITIVE_INFINITY, 0, Float.NEGATIVE_INFINITY});
        assertArrayCombines(ReduceOp.SUM, new float[] {Float.POSITIVE_INFINITY, 16777216f, 1e-8f},
            new float[] {Float.NEGATIVE_INFINITY, 1, 1}, new float[] {nanF, 16777216f, 1});
        assertArrayCombines(ReduceOp.MAX, new double[] {Double.NaN, Double.NEGATIVE_INFINITY, -0.0},
            new double[] {Double.POSITIVE_INFINITY, Double.MIN_VALUE, 0.0}, new double[] {Double.NaN, Double.MIN_VALUE, 0.0});
        assertArrayCombines(ReduceOp.MIN, new double[] {3, Double.NEGATIVE_INFINITY, 0.0},
            new double[] {Double.NaN, Double.MIN_VALUE, -0.0}, new double[] {Double.NaN, Double.NEGATIVE_INFINITY, -0.0});
        assertArrayCombines(ReduceOp.SUM, new double[] {Double.MAX_VALUE, 0.1, 1e16},
            new double[] {Double.MAX_VALUE, 0.2, 1}, new double[] {Double.POSITIVE_INFINITY, 0.1 + 0.2, 1e16});
        assertArrayCombines(ReduceOp.PROD, new double[] {0.0, -0.0, Double.POSITIVE_INFINITY},
            new double[] {-1, -1, 0}, new double[] {-0.0, 0.0, Double.NaN});
    }

    // ------------------------------------------------------------------ which bytes are read and written

    @Test
    void onlyCountElementsChangeAndTheInputIsLeftAlone()
    {
        for (final ValueLayout l : new ValueLayout[] {ValueLayout.JAVA_BYTE, ValueLayout.JAVA_SHORT, ValueLayout.JAVA_CHAR,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_FLOAT, ValueLayout.JAVA_DOUBLE})
        {
            final ElementMath m = ElementMath.of(l);
            final int n = 9;
            final MemorySegment acc = MemorySegment.ofArray(new long[n]).fill((byte)0x11);
            final MemorySegment in = MemorySegment.ofArray(new long[n]).fill((byte)0x22);
            final MemorySegment inBefore = MemorySegment.ofArray(new long[n]).copyFrom(in);
            final MemorySegment accBefore = MemorySegment.ofArray(new long[n]).copyFrom(acc);
            final int count = 5;
            m.combine(ReduceOp.MAX, acc, in, count);
            assertEquals(-1, in.mismatch(inBefore), l + ": the input is not written");
            final long end = (long)count * m.bytes;
            assertEquals(-1, acc.asSlice(0, end).mismatch(in.asSlice(0, end)), l + ": max(0x11.., 0x22..) is the input's bytes");
            assertEquals(-1, acc.asSlice(end).mismatch(accBefore.asSlice(end)), l + ": bytes past count are untouched");
            m.combine(ReduceOp.SUM, acc, in, 0);
            assertEquals(-1, acc.asSlice(end).mismatch(accBefore.asSlice(end)), l + ": count 0 touches nothing");
        }
    }

    @Test
    void unalignedAndOffHeapSegmentsWork()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment acc = arena.allocate(8 * 4 + 1, 8).asSlice(1);
            final MemorySegment in = MemorySegment.ofArray(new byte[8 * 4 + 3]).asSlice(3);
            for (int i = 0; i < 4; i++)
            {
                acc.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i, -i);
                in.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i, 10L * i);
            }
            ElementMath.of(ValueLayout.JAVA_LONG).combine(ReduceOp.SUM, acc, in, 4);
            for (int i = 0; i < 4; i++)
            {
                assertEquals(9L * i, acc.get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i), "element " + i);
            }
        }
    }

    @Test
    void aCountPastTheInputFailsAtTheFirstMissingElement()
    {
        final MemorySegment acc = MemorySegment.ofArray(new int[] {1, 2, 3});
        final MemorySegment in = MemorySegment.ofArray(new int[] {1, 1});
        assertThrows(IndexOutOfBoundsException.class, () -> ElementMath.of(ValueLayout.JAVA_INT).combine(ReduceOp.SUM, acc, in, 3));
        assertEquals(2, acc.getAtIndex(ValueLayout.JAVA_INT, 0));
        assertEquals(3, acc.getAtIndex(ValueLayout.JAVA_INT, 1));
        assertEquals(3, acc.getAtIndex(ValueLayout.JAVA_INT, 2), "the element without input is left as it was");
    }

    // ------------------------------------------------------------------ helpers: combine over heap segments of arrays

    private static void assertArrayCombines(final ReduceOp op, final Object acc, final Object in, final Object expected)
    {
        final MemorySegment a = segmentOf(acc);
        final MemorySegment b = segmentOf(in);
        final MemorySegment bBefore = segmentOf(copy(in));
        final MemorySegment aBefore = segmentOf(copy(acc));
        final ValueLayout layout = layoutOf(acc);
        final ElementMath m = ElementMath.of(layout);
        final long count = a.byteSize() / m.bytes;
        m.combine(op, a, b, count);
        assertEquals(-1, b.mismatch(bBefore), m.typeName + " " + op + ": input unchanged");
        final MemorySegment e = segmentOf(expected);
        for (long i = 0; i < count; i++)
        {
            final long o = i * m.bytes;
            final long got = bits(a, o, layout);
            final long want = bits(e, o, layout);
            assertEquals(want, got, () -> m.typeName + " " + op + " element " + (o / m.bytes) + " of acc " +
                Long.toHexString(bits(aBefore, o, layout)) + " and in " + Long.toHexString(bits(b, o, layout)) + ": expected bits " +
                Long.toHexString(want) + " got " + Long.toHexString(got));
        }
    }

    /** The element's bits; floating values through floatToIntBits/doubleToLongBits, so every NaN is one NaN and -0.0 is not 0.0. */
    private static long bits(final MemorySegment s, final long o, final ValueLayout layout)
    {
        if (layout.carrier() == float.class)
        {
            return Float.floatToIntBits(s.get(ValueLayout.JAVA_FLOAT, o));
        }
        if (layout.carrier() == double.class)
        {
            return Double.doubleToLongBits(s.get(ValueLayout.JAVA_DOUBLE, o));
        }
        return switch ((int)layout.byteSize())
        {
            case 1 -> s.get(ValueLayout.JAVA_BYTE, o);
            case 2 -> s.get(ValueLayout.JAVA_SHORT, o);
            case 4 -> s.get(ValueLayout.JAVA_INT, o);
            default -> s.get(ValueLayout.JAVA_LONG, o);
        };
    }

    private static MemorySegment segmentOf(final Object array)
    {
        return switch (array)
        {
            case byte[] x -> MemorySegment.ofArray(x);
            case short[] x -> MemorySegment.ofArray(x);
            case char[] x -> MemorySegment.ofArray(x);
            case int[] x -> MemorySegment.ofArray(x);
            case long[] x -> MemorySegment.ofArray(x);
            case float[] x -> MemorySegment.ofArray(x);
            case double[] x -> MemorySegment.ofArray(x);
            default -> throw new IllegalArgumentException(array.getClass().toString());
        };
    }

    private static ValueLayout layoutOf(final Object array)
    {
        return switch (array)
        {
            case byte[] x -> ValueLayout.JAVA_BYTE;
            case short[] x -> ValueLayout.JAVA_SHORT;
            case char[] x -> ValueLayout.JAVA_CHAR;
            case int[] x -> ValueLayout.JAVA_INT;
            case long[] x -> ValueLayout.JAVA_LONG;
            case float[] x -> ValueLayout.JAVA_FLOAT;
            case double[] x -> ValueLayout.JAVA_DOUBLE;
            default -> throw new IllegalArgumentException(array.getClass().toString());
        };
    }

    private static Object copy(final Object array)
    {
        return switch (array)
        {
            case byte[] x -> x.clone();
            case short[] x -> x.clone();
            case char[] x -> x.clone();
            case int[] x -> x.clone();
            case long[] x -> x.clone();
            case float[] x -> x.clone();
            case double[] x -> x.clone();
            default -> throw new IllegalArgumentException(array.getClass().toString());
        };
    }
}
