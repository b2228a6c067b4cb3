package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;

import java.util.List;

/**
 * An integer type the atomic and point-to-point routines take (ints or longs), so that one port body
 * covers the C11-generic type list: values travel as {@code long} and are narrowed to the type's width.
 * C's unsigned and fixed-width types map onto these two by bit pattern.
 */
abstract class Word
{
    private final String name;

    Word(final String name)
    {
        this.name = name;
    }

    /** @return the type name printed in failures. */
    final String name()
    {
        return name;
    }

    @Override
    public final String toString()
    {
        return name;
    }

    /** Collective: allocates n elements. */
    abstract SymmetricArray<?> allocate(Shmem shmem, long n);

    /** @return {@code v} narrowed to the type and widened back (sign-extended). */
    abstract long norm(long v);

    /** @return this PE's element i (acquire load). */
    abstract long local(SymmetricArray<?> h, long i);

    /** Stores v into this PE's element i. */
    abstract void setLocal(SymmetricArray<?> h, long i, long v);

    /** {@code wait_until}. */
    abstract void waitUntil(SymmetricArray<?> h, long i, Cmp cmp, long v);

    /** {@code test}. */
    abstract boolean test(SymmetricArray<?> h, long i, Cmp cmp, long v);

    /**
     * Runs a blocking atomic.
     *
     * @return the fetched value (narrowed and sign-extended), 0 for non-fetching ops.
     */
    abstract long atomic(ShmemContext ctx, AtomicOp op, SymmetricArray<?> h, long i, long value, long cond, int pe);

    /** Issues a fetching nbi atomic whose result lands in {@code out[0]} once completed by {@link #collect}. */
    abstract Object atomicNbi(ShmemContext ctx, AtomicOp op, SymmetricArray<?> h, long i, long value, long cond, int pe);

    /** @return the value a completed nbi atomic fetched (the object {@link #atomicNbi} returned). */
    abstract long collect(Object buffer);

    static final Word INTS = new Word("ints")
    {
        @Override SymmetricArray<?> allocate(final Shmem s, final long n) { return s.allocateInts(n); }
        @Override long norm(final long v) { return (int)v; }
        @Override long local(final SymmetricArray<?> h, final long i) { return ((SymmetricInts)h).getLocal(i); }
        @Override void setLocal(final SymmetricArray<?> h, final long i, final long v) { ((SymmetricInts)h).setLocal(i, (int)v); }
        @Override void waitUntil(final SymmetricArray<?> h, final long i, final Cmp c, final long v) { ((SymmetricInts)h).waitUntil(i, c, (int)v); }
        @Override boolean test(final SymmetricArray<?> h, final long i, final Cmp c, final long v) { return ((SymmetricInts)h).test(i, c, (int)v); }

        @Override
        long atomic(final ShmemContext c, final AtomicOp op, final SymmetricArray<?> a, final long i, final long value, final long cond, final int pe)
        {
            final SymmetricInts h = (SymmetricInts)a;
            final int v = (int)value;
            return switch (op)
            {
                case FETCH -> c.atomicFetch(h, i, pe);
                case SET -> { c.atomicSet(h, i, v, pe); yield 0; }
                case SWAP -> c.atomicSwap(h, i, v, pe);
                case COMPARE_SWAP -> c.atomicCompareSwap(h, i, (int)cond, v, pe);
                case FETCH_INC -> c.atomicFetchInc(h, i, pe);
                case INC -> { c.atomicInc(h, i, pe); yield 0; }
                case FETCH_ADD -> c.atomicFetchAdd(h, i, v, pe);
                case ADD -> { c.atomicAdd(h, i, v, pe); yield 0; }
                case FETCH_AND -> c.atomicFetchAnd(h, i, v, pe);
                case AND -> { c.atomicAnd(h, i, v, pe); yield 0; }
                case FETCH_OR -> c.atomicFetchOr(h, i, v, pe);
                case OR -> { c.atomicOr(h, i, v, pe); yield 0; }
                case FETCH_XOR -> c.atomicFetchXor(h, i, v, pe);
                case XOR -> { c.atomicXor(h, i, v, pe); yield 0; }
            };
        }

        @Override
        Object atomicNbi(final ShmemContext c, final AtomicOp op, final SymmetricArray<?> a, final long i, final long value, final long cond, final int pe)
        {
            final SymmetricInts h = (SymmetricInts)a;
            final int v = (int)value;
            final int[] out = {0x5A5A5A5A};
            switch (op)
            {
                case FETCH -> c.atomicFetchNbi(out, 0, h, i, pe);
                case SWAP -> c.atomicSwapNbi(out, 0, h, i, v, pe);
                case COMPARE_SWAP -> c.atomicCompareSwapNbi(out, 0, h, i, (int)cond, v, pe);
                case FETCH_INC -> c.atomicFetchIncNbi(out, 0, h, i, pe);
                case FETCH_ADD -> c.atomicFetchAddNbi(out, 0, h, i, v, pe);
                case FETCH_AND -> c.atomicFetchAndNbi(out, 0, h, i, v, pe);
                case FETCH_OR -> c.atomicFetchOrNbi(out, 0, h, i, v, pe);
                case FETCH_XOR -> c.atomicFetchXorNbi(out, 0, h, i, v, pe);
                default -> throw new IllegalArgumentException(op + " has no nbi form");
            }
            return out;
        }

        @Override long collect(final Object buffer) { return ((int[])buffer)[0]; }
    };

    static final Word LONGS = new Word("longs")
    {
        @Override SymmetricArray<?> allocate(final Shmem s, final long n) { return s.allocateLongs(n); }
        @Override long norm(final long v) { return v; }
        @Override long local(final SymmetricArray<?> h, final long i) { return ((SymmetricLongs)h).getLocal(i); }
        @Override void setLocal(final SymmetricArray<?> h, final long i, final long v) { ((SymmetricLongs)h).setLocal(i, v); }
        @Override void waitUntil(final SymmetricArray<?> h, final long i, final Cmp c, final long v) { ((SymmetricLongs)h).waitUntil(i, c, v); }
        @Override boolean test(final SymmetricArray<?> h, final long i, final Cmp c, final long v) { return ((SymmetricLongs)h).test(i, c, v); }

        @Override
        long atomic(final ShmemContext c, final AtomicOp op, final SymmetricArray<?> a, final long i, final long v, final long cond, final int pe)
        {
            final SymmetricLongs h = (SymmetricLongs)a;
            return switch (op)
            {
                case FETCH -> c.atomicFetch(h, i, pe);
                case SET -> { c.atomicSet(h, i, v, pe); yield 0; }
                case SWAP -> c.atomicSwap(h, i, v, pe);
                case COMPARE_SWAP -> c.atomicCompareSwap(h, i, cond, v, pe);
                case FETCH_INC -> c.atomicFetchInc(h, i, pe);
                case INC -> { c.atomicInc(h, i, pe); yield 0; }
                case FETCH_ADD -> c.atomicFetchAdd(h, i, v, pe);
                case ADD -> { c.atomicAdd(h, i, v, pe); yield 0; }
                case FETCH_AND -> c.atomicFetchAnd(h, i, v, pe);
                case AND -> { c.atomicAnd(h, i, v, pe); yield 0; }
                case FETCH_OR -> c.atomicFetchOr(h, i, v, pe);
                case OR -> { c.atomicOr(h, i, v, pe); yield 0; }
                case FETCH_XOR -> c.atomicFetchXor(h, i, v, pe);
                case XOR -> { c.atomicXor(h, i, v, pe); yield 0; }
            };
        }

        @Override
        Object atomicNbi(final ShmemContext c, final AtomicOp op, final SymmetricArray<?> a, final long i, final long v, final long cond, final int pe)
        {
            final SymmetricLongs h = (SymmetricLongs)a;
            final long[] out = {0x5A5A5A5A5A5A5A5AL};
            switch (op)
            {
                case FETCH -> c.atomicFetchNbi(out, 0, h, i, pe);
                case SWAP -> c.atomicSwapNbi(out, 0, h, i, v, pe);
                case COMPARE_SWAP -> c.atomicCompareSwapNbi(out, 0, h, i, cond, v, pe);
                case FETCH_INC -> c.atomicFetchIncNbi(out, 0, h, i, pe);
                case FETCH_ADD -> c.atomicFetchAddNbi(out, 0, h, i, v, pe);
                case FETCH_AND -> c.atomicFetchAndNbi(out, 0, h, i, v, pe);
                case FETCH_OR -> c.atomicFetchOrNbi(out, 0, h, i, v, pe);
                case FETCH_XOR -> c.atomicFetchXorNbi(out, 0, h, i, v, pe);
                default -> throw new IllegalArgumentException(op + " has no nbi form");
            }
            return out;
        }

        @Override long collect(final Object buffer) { return ((long[])buffer)[0]; }
    };

    /** Both types. */
    static final List<Word> ALL = List.of(INTS, LONGS);
}
