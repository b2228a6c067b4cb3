package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricBytes;
import io.jshmem.SymmetricChars;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricFloats;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;
import io.jshmem.SymmetricShorts;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.util.List;

/**
 * One element type of the RMA tests, so that one test body covers every handle type: allocation,
 * Java arrays, the scalar p/g overloads, and local reads that do not go through the routines under
 * test (a plain copy out of this PE's own segment). Values are made from a {@code long} pattern and
 * compared as raw bits, so floats and doubles compare exactly.
 *
 * @param <A> the Java array type.
 */
public abstract class Kind<A>
{
    private final String name;

    Kind(final String name)
    {
        this.name = name;
    }

    /** @return the type name printed in failures ({@code ints}, {@code memory}, ...). */
    public final String name()
    {
        return name;
    }

    @Override
    public final String toString()
    {
        return name;
    }

    /** Collective: allocates n elements. */
    public abstract SymmetricArray<A> allocate(Shmem shmem, long n);

    /** @return a new Java array of n elements. */
    public abstract A newArray(int n);

    /** Stores the element made from pattern value {@code v} at {@code a[i]}. */
    public abstract void set(A a, int i, long v);

    /** @return the raw bits of {@code a[i]} (sign-extended for integer types, char zero-extended). */
    public abstract long bits(A a, int i);

    /** {@code p}: writes the element made from {@code v} to {@code h[i]} on pe. */
    public abstract void p(ShmemContext ctx, SymmetricArray<A> h, long i, long v, int pe);

    /** {@code g}: @return the raw bits of {@code h[i]} on pe. */
    public abstract long g(ShmemContext ctx, SymmetricArray<A> h, long i, int pe);

    /** @return the raw bits of the element made from pattern value {@code v}. */
    public final long conv(final long v)
    {
        final A a = newArray(1);
        set(a, 0, v);
        return bits(a, 0);
    }

    /** @return an array of n elements, element i made from {@code base + i * step}. */
    public final A pattern(final int n, final long base, final long step)
    {
        final A a = newArray(n);
        for (int i = 0; i < n; i++)
        {
            set(a, i, base + i * step);
        }
        return a;
    }

    /** @return a copy of this PE's elements of {@code h}, read with plain loads. */
    public final A readLocal(final SymmetricArray<A> h)
    {
        final int n = (int)h.length();
        final A a = newArray(n);
        MemorySegment.copy(h.segment(), h.elementLayout(), 0, a, 0, n);
        return a;
    }

    /** Stores {@code a} into this PE's elements of {@code h} with plain stores. */
    public final void writeLocal(final SymmetricArray<A> h, final A a)
    {
        MemorySegment.copy(a, 0, h.segment(), h.elementLayout(), 0, (int)h.length());
    }

    /** @return the element as text. */
    public final String show(final A a, final int i)
    {
        return String.valueOf(Array.get(a, i));
    }

    /** @return the length of a Java array of this kind. */
    public final int length(final A a)
    {
        return Array.getLength(a);
    }

    /** Bytes (C char/int8). */
    public static final Kind<byte[]> BYTES = new Kind<>("bytes")
    {
        @Override public SymmetricArray<byte[]> allocate(final Shmem s, final long n) { return s.allocateBytes(n); }
        @Override public byte[] newArray(final int n) { return new byte[n]; }
        @Override public void set(final byte[] a, final int i, final long v) { a[i] = (byte)(v * 31); }
        @Override public long bits(final byte[] a, final int i) { return a[i]; }
        @Override public void p(final ShmemContext c, final SymmetricArray<byte[]> h, final long i, final long v, final int pe)
        {
            c.p((SymmetricBytes)h, i, (byte)conv(v), pe);
        }
        @Override public long g(final ShmemContext c, final SymmetricArray<byte[]> h, final long i, final int pe)
        {
            return c.g((SymmetricBytes)h, i, pe);
        }
    };

    /** Shorts. */
    public static final Kind<short[]> SHORTS = new Kind<>("shorts")
    {
        @Override public SymmetricArray<short[]> allocate(final Shmem s, final long n) { return s.allocateShorts(n); }
        @Override public short[] newArray(final int n) { return new short[n]; }
        @Override public void set(final short[] a, final int i, final long v) { a[i] = (short)(v * 4099); }
        @Override public long bits(final short[] a, final int i) { return a[i]; }
        @Override public void p(final ShmemContext c, final SymmetricArray<short[]> h, final long i, final long v, final int pe)
        {
            c.p((SymmetricShorts)h, i, (short)conv(v), pe);
        }
        @Override public long g(final ShmemContext c, final SymmetricArray<short[]> h, final long i, final int pe)
        {
            return c.g((SymmetricShorts)h, i, pe);
        }
    };

    /** Chars (unsigned 16 bits: values above 0x7FFF must not sign-extend). */
    public static final Kind<char[]> CHARS = new Kind<>("chars")
    {
        @Override public SymmetricArray<char[]> allocate(final Shmem s, final long n) { return s.allocateChars(n); }
        @Override public char[] newArray(final int n) { return new char[n]; }
        @Override public void set(final char[] a, final int i, final long v) { a[i] = (char)(0x8000 + v * 4099); }
        @Override public long bits(final char[] a, final int i) { return a[i]; }
        @Override public void p(final ShmemContext c, final SymmetricArray<char[]> h, final long i, final long v, final int pe)
        {
            c.p((SymmetricChars)h, i, (char)conv(v), pe);
        }
        @Override public long g(final ShmemContext c, final SymmetricArray<char[]> h, final long i, final int pe)
        {
            return c.g((SymmetricChars)h, i, pe);
        }
    };

    /** Ints. */
    public static final Kind<int[]> INTS = new Kind<>("ints")
    {
        @Override public SymmetricArray<int[]> allocate(final Shmem s, final long n) { return s.allocateInts(n); }
        @Override public int[] newArray(final int n) { return new int[n]; }
        @Override public void set(final int[] a, final int i, final long v) { a[i] = (int)(v * 0x9E3779B1L); }
        @Override public long bits(final int[] a, final int i) { return a[i]; }
        @Override public void p(final ShmemContext c, final SymmetricArray<int[]> h, final long i, final long v, final int pe)
        {
            c.p((SymmetricInts)h, i, (int)conv(v), pe);
        }
        @Override public long g(final ShmemContext c, final SymmetricArray<int[]> h, final long i, final int pe)
        {
            return c.g((SymmetricInts)h, i, pe);
        }
    };

    /** Longs. */
    public static final Kind<long[]> LONGS = new Kind<>("longs")
    {
        @Override public SymmetricArray<long[]> allocate(final Shmem s, final long n) { return s.allocateLongs(n); }
        @Override public long[] newArray(final int n) { return new long[n]; }
        @Override public void set(final long[] a, final int i, final long v) { a[i] = v * 0x9E3779B97F4A7C15L; }
        @Override public long bits(final long[] a, final int i) { return a[i]; }
        @Override public void p(final ShmemContext c, final SymmetricArray<long[]> h, final long i, final long v, final int pe)
        {
            c.p((SymmetricLongs)h, i, conv(v), pe);
        }
        @Override public long g(final ShmemContext c, final SymmetricArray<long[]> h, final long i, final int pe)
        {
            return c.g((SymmetricLongs)h, i, pe);
        }
    };

    /** Floats (compared as raw bits). */
    public static final Kind<float[]> FLOATS = new Kind<>("floats")
    {
        @Override public SymmetricArray<float[]> allocate(final Shmem s, final long n) { return s.allocateFloats(n); }
        @Override public float[] newArray(final int n) { return new float[n]; }
        @Override public void set(final float[] a, final int i, final long v) { a[i] = -0.25f * v - 1.5e-3f; }
        @Override public long bits(final float[] a, final int i) { return Float.floatToRawIntBits(a[i]); }
        @Override public void p(final ShmemContext c, final SymmetricArray<float[]> h, final long i, final long v, final int pe)
        {
            c.p((SymmetricFloats)h, i, Float.intBitsToFloat((int)conv(v)), pe);
        }
        @Override public long g(final ShmemContext c, final SymmetricArray<float[]> h, final long i, final int pe)
        {
            return Float.floatToRawIntBits(c.g((SymmetricFloats)h, i, pe));
        }
    };

    /** Doubles (compared as raw bits). */
    public static final Kind<double[]> DOUBLES = new Kind<>("doubles")
    {
        @Override public SymmetricArray<double[]> allocate(final Shmem s, final long n) { return s.allocateDoubles(n); }
        @Override public double[] newArray(final int n) { return new double[n]; }
        @Override public void set(final double[] a, final int i, final long v) { a[i] = 1.0e300 / (v + 0.5); }
        @Override public long bits(final double[] a, final int i) { return Double.doubleToRawLongBits(a[i]); }
        @Override public void p(final ShmemContext c, final SymmetricArray<double[]> h, final long i, final long v, final int pe)
        {
            c.p((SymmetricDoubles)h, i, Double.longBitsToDouble(conv(v)), pe);
        }
        @Override public long g(final ShmemContext c, final SymmetricArray<double[]> h, final long i, final int pe)
        {
            return Double.doubleToRawLongBits(c.g((SymmetricDoubles)h, i, pe));
        }
    };

    /** Raw symmetric memory from {@code malloc}, addressed in bytes (p/g through {@link SymmetricMemory#asBytes()}). */
    public static final Kind<byte[]> MEMORY = new Kind<>("memory")
    {
        @Override public SymmetricArray<byte[]> allocate(final Shmem s, final long n) { return s.malloc(n); }
        @Override public byte[] newArray(final int n) { return new byte[n]; }
        @Override public void set(final byte[] a, final int i, final long v) { a[i] = (byte)(v * 7 + 3); }
        @Override public long bits(final byte[] a, final int i) { return a[i]; }
        @Override public void p(final ShmemContext c, final SymmetricArray<byte[]> h, final long i, final long v, final int pe)
        {
            c.p(((SymmetricMemory)h).asBytes(), i, (byte)conv(v), pe);
        }
        @Override public long g(final ShmemContext c, final SymmetricArray<byte[]> h, final long i, final int pe)
        {
            return c.g(((SymmetricMemory)h).asBytes(), i, pe);
        }
    };

    /** Every kind, in the order the RMA program runs them. */
    public static final List<Kind<?>> ALL = List.of(BYTES, SHORTS, CHARS, INTS, LONGS, FLOATS, DOUBLES, MEMORY);
}
