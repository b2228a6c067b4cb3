package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricBytes;
import io.jshmem.SymmetricChars;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricFloats;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;
import io.jshmem.SymmetricShorts;

import java.util.List;

/**
 * One Java element type of the collective ports, standing for the C types a C11-generic or typed
 * test loops over. Values travel as {@code long}: stores convert to the element type, loads convert
 * back (chars unsigned; floats and doubles must hold whole numbers, which the ports keep small enough
 * to be exact, and a value that is not whole reads as {@link #NOT_WHOLE}).
 *
 * @param <A> the Java array type.
 */
public abstract class Num<A>
{
    /** What a float or double element that is not a whole number reads as. */
    public static final long NOT_WHOLE = Long.MIN_VALUE + 12345;

    private final String name;
    private final boolean integral;

    Num(final String name, final boolean integral)
    {
        this.name = name;
        this.integral = integral;
    }

    /** @return the type's name, e.g. {@code ints}. */
    public final String name()
    {
        return name;
    }

    /** @return true for the integer types (the bitwise reductions apply). */
    public final boolean integral()
    {
        return integral;
    }

    /** @return n elements on every PE (collective). */
    public abstract SymmetricArray<A> alloc(Shmem shmem, long n);

    /** Stores {@code v}, converted to the element type, into this PE's element i. */
    public abstract void set(SymmetricArray<A> h, long i, long v);

    /** @return this PE's element i as a long. */
    public abstract long get(SymmetricArray<A> h, long i);

    /** @return {@code v} as the element type would hold it. */
    public abstract long norm(long v);

    /** Fills this PE's elements [0, n) with {@code value}. */
    public final void fill(final SymmetricArray<A> h, final long n, final long value)
    {
        for (long i = 0; i < n; i++)
        {
            set(h, i, value);
        }
    }

    /** @return {@code a op b} in the element type (integer arithmetic wraps; MAX/MIN compare the stored values). */
    public final long combine(final ReduceOp op, final long a, final long b)
    {
        final long x = norm(a);
        final long y = norm(b);
        return norm(switch (op)
        {
            case AND -> x & y;
            case OR -> x | y;
            case XOR -> x ^ y;
            case MAX -> Math.max(x, y);
            case MIN -> Math.min(x, y);
            case SUM -> x + y;
            case PROD -> x * y;
        });
    }

    /** @return true if op applies to this type. */
    public final boolean supports(final ReduceOp op)
    {
        return integral || !op.isBitwise();
    }

    @Override
    public String toString()
    {
        return name;
    }

    private static long whole(final double d)
    {
        return d == Math.rint(d) && Math.abs(d) < 0x1p62 ? (long)d : NOT_WHOLE;
    }

    /** Bytes (C char, signed char, int8_t). */
    public static final Num<byte[]> BYTES = new Num<>("bytes", true)
    {
        @Override public SymmetricArray<byte[]> alloc(final Shmem s, final long n) { return s.allocateBytes(n); }
        @Override public void set(final SymmetricArray<byte[]> h, final long i, final long v) { ((SymmetricBytes)h).setLocal(i, (byte)v); }
        @Override public long get(final SymmetricArray<byte[]> h, final long i) { return ((SymmetricBytes)h).getLocal(i); }
        @Override public long norm(final long v) { return (byte)v; }
    };

    /** Shorts (C short, int16_t). */
    public static final Num<short[]> SHORTS = new Num<>("shorts", true)
    {
        @Override public SymmetricArray<short[]> alloc(final Shmem s, final long n) { return s.allocateShorts(n); }
        @Override public void set(final SymmetricArray<short[]> h, final long i, final long v) { ((SymmetricShorts)h).setLocal(i, (short)v); }
        @Override public long get(final SymmetricArray<short[]> h, final long i) { return ((SymmetricShorts)h).getLocal(i); }
        @Override public long norm(final long v) { return (short)v; }
    };

    /** Chars (C unsigned short, uint16_t). */
    public static final Num<char[]> CHARS = new Num<>("chars", true)
    {
        @Override public SymmetricArray<char[]> alloc(final Shmem s, final long n) { return s.allocateChars(n); }
        @Override public void set(final SymmetricArray<char[]> h, final long i, final long v) { ((SymmetricChars)h).setLocal(i, (char)v); }
        @Override public long get(final SymmetricArray<char[]> h, final long i) { return ((SymmetricChars)h).getLocal(i); }
        @Override public long norm(final long v) { return (char)v; }
    };

    /** Ints (C int, int32_t). */
    public static final Num<int[]> INTS = new Num<>("ints", true)
    {
        @Override public SymmetricArray<int[]> alloc(final Shmem s, final long n) { return s.allocateInts(n); }
        @Override public void set(final SymmetricArray<int[]> h, final long i, final long v) { ((SymmetricInts)h).setLocal(i, (int)v); }
        @Override public long get(final SymmetricArray<int[]> h, final long i) { return ((SymmetricInts)h).getLocal(i); }
        @Override public long norm(final long v) { return (int)v; }
    };

    /** Longs (C long, long long, int64_t, size_t, ptrdiff_t). */
    public static final Num<long[]> LONGS = new Num<>("longs", true)
    {
        @Override public SymmetricArray<long[]> alloc(final Shmem s, final long n) { return s.allocateLongs(n); }
        @Override public void set(final SymmetricArray<long[]> h, final long i, final long v) { ((SymmetricLongs)h).setLocal(i, v); }
        @Override public long get(final SymmetricArray<long[]> h, final long i) { return ((SymmetricLongs)h).getLocal(i); }
        @Override public long norm(final long v) { return v; }
    };

    /** Floats (C float). */
    public static final Num<float[]> FLOATS = new Num<>("floats", false)
    {
        @Override public SymmetricArray<float[]> alloc(final Shmem s, final long n) { return s.allocateFloats(n); }
        @Override public void set(final SymmetricArray<float[]> h, final long i, final long v) { ((SymmetricFloats)h).setLocal(i, (float)v); }
        @Override public long get(final SymmetricArray<float[]> h, final long i) { return whole(((SymmetricFloats)h).getLocal(i)); }
        @Override public long norm(final long v) { return v; }
    };

    /** Doubles (C double; also stands for long double, which Java lacks). */
    public static final Num<double[]> DOUBLES = new Num<>("doubles", false)
    {
        @Override public SymmetricArray<double[]> alloc(final Shmem s, final long n) { return s.allocateDoubles(n); }
        @Override public void set(final SymmetricArray<double[]> h, final long i, final long v) { ((SymmetricDoubles)h).setLocal(i, (double)v); }
        @Override public long get(final SymmetricArray<double[]> h, final long i) { return whole(((SymmetricDoubles)h).getLocal(i)); }
        @Override public long norm(final long v) { return v; }
    };

    /** Raw symmetric memory from malloc, reduced and moved as bytes (shmem_*mem collectives). */
    public static final Num<byte[]> MEMORY = new Num<>("memory", true)
    {
        @Override public SymmetricArray<byte[]> alloc(final Shmem s, final long n) { return s.malloc(n); }
        @Override public void set(final SymmetricArray<byte[]> h, final long i, final long v) { ((SymmetricMemory)h).asBytes().setLocal(i, (byte)v); }
        @Override public long get(final SymmetricArray<byte[]> h, final long i) { return ((SymmetricMemory)h).asBytes().getLocal(i); }
        @Override public long norm(final long v) { return (byte)v; }
    };

    /** The element types of the typed collectives, in C's order. */
    public static final List<Num<?>> ALL = List.of(BYTES, SHORTS, CHARS, INTS, LONGS, FLOATS, DOUBLES);

    /** The integer types. */
    public static final List<Num<?>> INTEGRAL = List.of(BYTES, SHORTS, CHARS, INTS, LONGS);
}
