package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricWords;

/**
 * The standard and bitwise atomics of one word type (ints or longs), with values widened to
 * {@code long}, so that one test body covers both. Results of int atomics are sign-extended.
 * The nbi forms fetch into a Java array of the word type and copy out after the caller's quiet.
 */
abstract class Amo
{
    final String name;
    final int bits;

    Amo(final String name, final int bits)
    {
        this.name = name;
        this.bits = bits;
    }

    /** @return v narrowed to the word and sign-extended back. */
    final long wrap(final long v)
    {
        return bits == 32 ? (int)v : v;
    }

    abstract SymmetricWords<?> allocate(Shmem s, long n);

    abstract long local(SymmetricWords<?> x, long i);

    abstract void setLocal(SymmetricWords<?> x, long i, long v);

    abstract long fetch(ShmemContext c, SymmetricWords<?> x, long i, int pe);

    abstract void set(ShmemContext c, SymmetricWords<?> x, long i, long v, int pe);

    abstract long swap(ShmemContext c, SymmetricWords<?> x, long i, long v, int pe);

    abstract long compareSwap(ShmemContext c, SymmetricWords<?> x, long i, long cond, long v, int pe);

    abstract long fetchInc(ShmemContext c, SymmetricWords<?> x, long i, int pe);

    abstract void inc(ShmemContext c, SymmetricWords<?> x, long i, int pe);

    abstract long fetchAdd(ShmemContext c, SymmetricWords<?> x, long i, long v, int pe);

    abstract void add(ShmemContext c, SymmetricWords<?> x, long i, long v, int pe);

    abstract long fetchAnd(ShmemContext c, SymmetricWords<?> x, long i, long v, int pe);

    abstract void and(ShmemContext c, SymmetricWords<?> x, long i, long v, int pe);

    abstract long fetchOr(ShmemContext c, SymmetricWords<?> x, long i, long v, int pe);

    abstract void or(ShmemContext c, SymmetricWords<?> x, long i, long v, int pe);

    abstract long fetchXor(ShmemContext c, SymmetricWords<?> x, long i, long v, int pe);

    abstract void xor(ShmemContext c, SymmetricWords<?> x, long i, long v, int pe);

    /** The fetching nbi forms; results land in the buffer by the next quiet. */
    enum NbiOp
    {
        FETCH, SWAP, COMPARE_SWAP, FETCH_INC, FETCH_ADD, FETCH_AND, FETCH_OR, FETCH_XOR
    }

    /** A fetch buffer of this word type. */
    abstract Object newFetchBuffer(int n);

    /** @return {@code buffer[i]} widened. */
    abstract long fetched(Object buffer, int i);

    abstract void nbi(NbiOp op, ShmemContext c, Object buffer, int bufferIndex, SymmetricWords<?> x, long i, long cond, long v, int pe);

    static final Amo INTS = new Amo("ints", 32)
    {
        private SymmetricInts w(final SymmetricWords<?> x)
        {
            return (SymmetricInts)x;
        }

        @Override SymmetricWords<?> allocate(final Shmem s, final long n) { return s.allocateInts(n); }
        @Override long local(final SymmetricWords<?> x, final long i) { return w(x).getLocal(i); }
        @Override void setLocal(final SymmetricWords<?> x, final long i, final long v) { w(x).setLocal(i, (int)v); }
        @Override long fetch(final ShmemContext c, final SymmetricWords<?> x, final long i, final int pe) { return c.atomicFetch(w(x), i, pe); }
        @Override void set(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { c.atomicSet(w(x), i, (int)v, pe); }
        @Override long swap(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { return c.atomicSwap(w(x), i, (int)v, pe); }
        @Override long compareSwap(final ShmemContext c, final SymmetricWords<?> x, final long i, final long cond, final long v, final int pe)
        {
            return c.atomicCompareSwap(w(x), i, (int)cond, (int)v, pe);
        }
        @Override long fetchInc(final ShmemContext c, final SymmetricWords<?> x, final long i, final int pe) { return c.atomicFetchInc(w(x), i, pe); }
        @Override void inc(final ShmemContext c, final SymmetricWords<?> x, final long i, final int pe) { c.atomicInc(w(x), i, pe); }
        @Override long fetchAdd(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { return c.atomicFetchAdd(w(x), i, (int)v, pe); }
        @Override void add(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { c.atomicAdd(w(x), i, (int)v, pe); }
        @Override long fetchAnd(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { return c.atomicFetchAnd(w(x), i, (int)v, pe); }
        @Override void and(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { c.atomicAnd(w(x), i, (int)v, pe); }
        @Override long fetchOr(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { return c.atomicFetchOr(w(x), i, (int)v, pe); }
        @Override void or(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { c.atomicOr(w(x), i, (int)v, pe); }
        @Override long fetchXor(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { return c.atomicFetchXor(w(x), i, (int)v, pe); }
        @Override void xor(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { c.atomicXor(w(x), i, (int)v, pe); }
        @Override Object newFetchBuffer(final int n) { return new int[n]; }
        @Override long fetched(final Object buffer, final int i) { return ((int[])buffer)[i]; }

        @Override
        void nbi(final NbiOp op, final ShmemContext c, final Object buffer, final int bi, final SymmetricWords<?> x, final long i,
            final long cond, final long v, final int pe)
        {
            final int[] b = (int[])buffer;
            switch (op)
            {
                case FETCH -> c.atomicFetchNbi(b, bi, w(x), i, pe);
                case SWAP -> c.atomicSwapNbi(b, bi, w(x), i, (int)v, pe);
                case COMPARE_SWAP -> c.atomicCompareSwapNbi(b, bi, w(x), i, (int)cond, (int)v, pe);
                case FETCH_INC -> c.atomicFetchIncNbi(b, bi, w(x), i, pe);
                case FETCH_ADD -> c.atomicFetchAddNbi(b, bi, w(x), i, (int)v, pe);
                case FETCH_AND -> c.atomicFetchAndNbi(b, bi, w(x), i, (int)v, pe);
                case FETCH_OR -> c.atomicFetchOrNbi(b, bi, w(x), i, (int)v, pe);
                case FETCH_XOR -> c.atomicFetchXorNbi(b, bi, w(x), i, (int)v, pe);
            }
        }
    };

    static final Amo LONGS = new Amo("longs", 64)
    {
        private SymmetricLongs w(final SymmetricWords<?> x)
        {
            return (SymmetricLongs)x;
        }

        @Override SymmetricWords<?> allocate(final Shmem s, final long n) { return s.allocateLongs(n); }
        @Override long local(final SymmetricWords<?> x, final long i) { return w(x).getLocal(i); }
        @Override void setLocal(final SymmetricWords<?> x, final long i, final long v) { w(x).setLocal(i, v); }
        @Override long fetch(final ShmemContext c, final SymmetricWords<?> x, final long i, final int pe) { return c.atomicFetch(w(x), i, pe); }
        @Override void set(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { c.atomicSet(w(x), i, v, pe); }
        @Override long swap(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { return c.atomicSwap(w(x), i, v, pe); }
        @Override long compareSwap(final ShmemContext c, final SymmetricWords<?> x, final long i, final long cond, final long v, final int pe)
        {
            return c.atomicCompareSwap(w(x), i, cond, v, pe);
        }
        @Override long fetchInc(final ShmemContext c, final SymmetricWords<?> x, final long i, final int pe) { return c.atomicFetchInc(w(x), i, pe); }
        @Override void inc(final ShmemContext c, final SymmetricWords<?> x, final long i, final int pe) { c.atomicInc(w(x), i, pe); }
        @Override long fetchAdd(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { return c.atomicFetchAdd(w(x), i, v, pe); }
        @Override void add(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { c.atomicAdd(w(x), i, v, pe); }
        @Override long fetchAnd(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { return c.atomicFetchAnd(w(x), i, v, pe); }
        @Override void and(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { c.atomicAnd(w(x), i, v, pe); }
        @Override long fetchOr(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { return c.atomicFetchOr(w(x), i, v, pe); }
        @Override void or(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { c.atomicOr(w(x), i, v, pe); }
        @Override long fetchXor(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { return c.atomicFetchXor(w(x), i, v, pe); }
        @Override void xor(final ShmemContext c, final SymmetricWords<?> x, final long i, final long v, final int pe) { c.atomicXor(w(x), i, v, pe); }
        @Override Object newFetchBuffer(final int n) { return new long[n]; }
        @Override long fetched(final Object buffer, final int i) { return ((long[])buffer)[i]; }

        @Override
        void nbi(final NbiOp op, final ShmemContext c, final Object buffer, final int bi, final SymmetricWords<?> x, final long i,
            final long cond, final long v, final int pe)
        {
            final long[] b = (long[])buffer;
            switch (op)
            {
                case FETCH -> c.atomicFetchNbi(b, bi, w(x), i, pe);
                case SWAP -> c.atomicSwapNbi(b, bi, w(x), i, v, pe);
                case COMPARE_SWAP -> c.atomicCompareSwapNbi(b, bi, w(x), i, cond, v, pe);
                case FETCH_INC -> c.atomicFetchIncNbi(b, bi, w(x), i, pe);
                case FETCH_ADD -> c.atomicFetchAddNbi(b, bi, w(x), i, v, pe);
                case FETCH_AND -> c.atomicFetchAndNbi(b, bi, w(x), i, v, pe);
                case FETCH_OR -> c.atomicFetchOrNbi(b, bi, w(x), i, v, pe);
                case FETCH_XOR -> c.atomicFetchXorNbi(b, bi, w(x), i, v, pe);
            }
        }
    };
}
