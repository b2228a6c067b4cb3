package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricBytes;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * RMA (spec 1.5): put, get, p, g, put_nbi, get_nbi, iput, iget, ibput, ibget, putmem, getmem (+nbi),
 * segment sources and destinations, zero-length transfers and slices, for every handle type: bytes,
 * shorts, chars, ints, longs, floats, doubles and raw memory. "Put right, barrier, check left": each
 * PE writes its right neighbour and checks what its left neighbour wrote, and also that the guard
 * elements around the object and every element the call should not touch are unchanged.
 * Runs at any PE count (at 1 PE the neighbour is the PE itself).
 */
public final class Rma
{
    private Rma()
    {
    }

    /** @param args unused. */
    public static void main(final String[] args)
    {
        Spmd.run("Rma", 1, (shmem, check) ->
        {
            for (final Kind<?> kind : Kind.ALL)
            {
                new TypeRun<>(shmem, check, kind).run();
            }
            large(shmem, check);
        });
    }

    /** Transfers bigger than any transport's chunk, at odd sizes. */
    private static void large(final Shmem s, final Check c)
    {
        c.section("large putmem/getmem");
        final int bytes = (1 << 20) + 13;
        final SymmetricMemory m = s.malloc(bytes);
        final byte[] src = new byte[bytes];
        for (int i = 0; i < bytes; i++)
        {
            src[i] = (byte)(i * 13 + c.me() * 101);
        }
        s.barrierAll();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment seg = arena.allocate(bytes);
            MemorySegment.copy(src, 0, seg, ValueLayout.JAVA_BYTE, 0, bytes);
            s.putmem(m, 0, seg, c.right());
            s.barrierAll();
            final byte[] got = m.segment().toArray(ValueLayout.JAVA_BYTE);
            int bad = 0;
            for (int i = 0; i < bytes && bad < 5; i++)
            {
                final byte want = (byte)(i * 13 + c.left() * 101);
                if (!c.eq("putmem 1MiB+13", "memory", i, want, got[i]))
                {
                    bad++;
                }
            }
            final MemorySegment back = arena.allocate(bytes);
            s.getmem(back, m, 0, c.right());
            // Right's copy holds what right's left (this PE) put.
            final byte[] mine = back.toArray(ValueLayout.JAVA_BYTE);
            bad = 0;
            for (int i = 0; i < bytes && bad < 5; i++)
            {
                if (!c.eq("getmem 1MiB+13", "memory", i, src[i], mine[i]))
                {
                    bad++;
                }
            }
        }
        final long[] lsrc = new long[200_003];
        for (int i = 0; i < lsrc.length; i++)
        {
            lsrc[i] = i * 0x9E3779B97F4A7C15L + c.me();
        }
        final SymmetricLongs big = s.allocateLongs(lsrc.length);
        s.putNbi(big, 0, lsrc, 0, lsrc.length, c.right());
        s.quiet();
        s.barrierAll();
        int bad = 0;
        for (int i = 0; i < lsrc.length && bad < 5; i++)
        {
            if (!c.eq("putNbi 200003 longs + quiet", "longs", i, i * 0x9E3779B97F4A7C15L + c.left(), big.getLocal(i)))
            {
                bad++;
            }
        }
        final long[] back = new long[lsrc.length];
        s.get(back, 0, big, 0, back.length, c.right());
        bad = 0;
        for (int i = 0; i < back.length && bad < 5; i++)
        {
            if (!c.eq("get 200003 longs", "longs", i, lsrc[i], back[i]))
            {
                bad++;
            }
        }
        s.barrierAll();
        s.free(big);
        s.free(m);
    }

    /** The RMA checks for one element type. */
    private static final class TypeRun<A>
    {
        private static final int N = 48;
        private static final int G = 5;
        private static final long BLANK = 70_000;

        private final Shmem s;
        private final Check c;
        private final Kind<A> k;
        private final String t;
        private final int me;
        private final int right;
        private final int left;
        private SymmetricArray<A> h;
        private SymmetricArray<A> w;

        TypeRun(final Shmem s, final Check c, final Kind<A> k)
        {
            this.s = s;
            this.c = c;
            this.k = k;
            this.t = k.name();
            this.me = c.me();
            this.right = c.right();
            this.left = c.left();
        }

        /** @return PE pe's test pattern for step salt, element i. */
        private static long v(final int pe, final int salt, final int i)
        {
            return (pe + 1) * 1000L + salt * 100_000L + i;
        }

        private A pat(final int pe, final int salt, final int n)
        {
            return k.pattern(n, v(pe, salt, 0), 1);
        }

        /** Fills this PE's whole object, guards included, with BLANK + i, then barriers. */
        private void reset()
        {
            k.writeLocal(h, k.pattern(N + 2 * G, BLANK, 1));
            s.barrierAll();
        }

        /** Fills this PE's working elements with its own pattern (guards blank), then barriers. */
        private void resetTo(final int salt)
        {
            final A a = k.pattern(N + 2 * G, BLANK, 1);
            final A mine = pat(me, salt, N);
            System.arraycopy(mine, 0, a, G, N);
            k.writeLocal(h, a);
            s.barrierAll();
        }

        /** @return the working elements as reset left them (blank), to be patched with expectations. */
        private A blank()
        {
            return k.pattern(N, BLANK + G, 1);
        }

        /** Checks this PE's whole object: guards blank, working elements as {@code expected}. */
        private void expect(final String routine, final A expected)
        {
            final A all = k.readLocal(h);
            for (int i = 0; i < G; i++)
            {
                c.eq(routine + " (guard before object)", t, i - G, k.conv(BLANK + i), k.bits(all, i));
                c.eq(routine + " (guard after object)", t, N + i, k.conv(BLANK + G + N + i), k.bits(all, G + N + i));
            }
            for (int i = 0; i < N; i++)
            {
                c.eq(routine, t, i, k.bits(expected, i), k.bits(all, G + i));
            }
        }

        private void expectArray(final String routine, final A expected, final A actual)
        {
            for (int i = 0; i < k.length(expected); i++)
            {
                c.eq(routine, t, i, k.bits(expected, i), k.bits(actual, i));
            }
        }

        private MemorySegment segmentOf(final Arena arena, final A a, final int from, final int n)
        {
            final ValueLayout layout = w.elementLayout();
            final MemorySegment seg = arena.allocate(n * layout.byteSize());
            MemorySegment.copy(a, from, seg, layout, 0, n);
            return seg;
        }

        private A arrayOf(final MemorySegment seg)
        {
            final ValueLayout layout = w.elementLayout();
            final int n = (int)(seg.byteSize() / layout.byteSize());
            final A a = k.newArray(n);
            MemorySegment.copy(seg, layout, 0, a, 0, n);
            return a;
        }

        void run()
        {
            c.section("rma " + t);
            h = k.allocate(s, N + 2 * G);
            w = h.slice(G, N);
            c.eq("slice", t + " slice(" + G + "," + N + ").length()", (long)N, w.length());
            c.eq("slice", t + " slice offset", h.offset() + (long)G * h.elementBytes(), w.offset());

            putGet();
            scalar();
            nbi();
            strided();
            segments();
            bytewise();
            zeroLength();
            slices();
            allToAll();

            s.barrierAll();
            s.free(h);
        }

        private void putGet()
        {
            // put right; the source is overwritten as soon as put returns (it must be reusable).
            reset();
            final A src = pat(me, 1, N);
            s.put(w, 0, src, 0, N, right);
            for (int i = 0; i < N; i++)
            {
                k.set(src, i, -1);
            }
            s.barrierAll();
            expect("put", pat(left, 1, N));

            // put part of an array at an offset
            reset();
            s.put(w, 7, pat(me, 2, N), 3, 20, right);
            s.barrierAll();
            A want = blank();
            System.arraycopy(pat(left, 2, N), 3, want, 7, 20);
            expect("put(destIndex=7, srcOffset=3, count=20)", want);

            // get from right into the middle of a bigger array
            resetTo(3);
            final A dst = k.pattern(N + 4, -5, 0);
            s.get(dst, 2, w, 5, 30, right);
            want = k.pattern(N + 4, -5, 0);
            System.arraycopy(pat(right, 3, N), 5, want, 2, 30);
            expectArray("get(destOffset=2, srcIndex=5, count=30)", want, dst);
            s.barrierAll();
        }

        private void scalar()
        {
            reset();
            final int[] idx = {0, 1, N / 2, N - 1};
            for (final int i : idx)
            {
                k.p(s, w, i, -(me + 1) * 7L - i, right);
            }
            s.barrierAll();
            final A want = blank();
            for (final int i : idx)
            {
                k.set(want, i, -(left + 1) * 7L - i);
            }
            expect("p", want);

            resetTo(4);
            final A rightPat = pat(right, 4, N);
            for (int i = 0; i < N; i++)
            {
                c.eq("g", t, i, k.bits(rightPat, i), k.g(s, w, i, right));
            }
            s.barrierAll();
        }

        private void nbi()
        {
            reset();
            final A src = pat(me, 5, N);
            for (int chunk = 0; chunk < 4; chunk++)
            {
                s.putNbi(w, chunk * (N / 4), src, chunk * (N / 4), N / 4, right);
            }
            s.quiet();
            s.barrierAll();
            expect("putNbi x4 + quiet", pat(left, 5, N));

            resetTo(6);
            final A dst = k.newArray(N);
            for (int chunk = 3; chunk >= 0; chunk--)
            {
                s.getNbi(dst, chunk * (N / 4), w, chunk * (N / 4), N / 4, right);
            }
            s.quiet();
            expectArray("getNbi x4 + quiet", pat(right, 6, N), dst);
            s.barrierAll();
        }

        private void strided()
        {
            final int n = 40;
            // iput: w[1 + 3i] = src[2 + 2i], 12 elements
            reset();
            s.iput(w, 1, 3, pat(me, 7, n), 2, 2, 12, right);
            s.barrierAll();
            A want = blank();
            for (int i = 0; i < 12; i++)
            {
                k.set(want, 1 + 3 * i, v(left, 7, 2 + 2 * i));
            }
            expect("iput(destIndex=1, dst=3, srcOffset=2, sst=2, nelems=12)", want);

            // iget: dst[1 + 2i] = w_right[3i], 12 elements; the other elements of dst untouched
            resetTo(8);
            A dst = k.pattern(n, -9, 0);
            s.iget(dst, 1, 2, w, 0, 3, 12, right);
            A wantDst = k.pattern(n, -9, 0);
            for (int i = 0; i < 12; i++)
            {
                k.set(wantDst, 1 + 2 * i, v(right, 8, 3 * i));
            }
            expectArray("iget(destOffset=1, dst=2, srcIndex=0, sst=3, nelems=12)", wantDst, dst);
            s.barrierAll();

            // ibput: 5 blocks of 3, w[2 + 6b + j] = src[1 + 4b + j]
            reset();
            s.ibput(w, 2, 6, pat(me, 9, n), 1, 4, 3, 5, right);
            s.barrierAll();
            want = blank();
            for (int b = 0; b < 5; b++)
            {
                for (int j = 0; j < 3; j++)
                {
                    k.set(want, 2 + 6 * b + j, v(left, 9, 1 + 4 * b + j));
                }
            }
            expect("ibput(destIndex=2, dst=6, srcOffset=1, sst=4, bsize=3, nblocks=5)", want);

            // ibput with bsize 1 is iput
            reset();
            s.ibput(w, 0, 4, pat(me, 10, n), 0, 3, 1, 10, right);
            s.barrierAll();
            want = blank();
            for (int i = 0; i < 10; i++)
            {
                k.set(want, 4 * i, v(left, 10, 3 * i));
            }
            expect("ibput(bsize=1) = iput(dst=4, sst=3, nelems=10)", want);

            // ibget: dst[5b + j] = w_right[1 + 7b + j], 5 blocks of 4
            resetTo(11);
            dst = k.pattern(n, -9, 0);
            s.ibget(dst, 0, 5, w, 1, 7, 4, 5, right);
            wantDst = k.pattern(n, -9, 0);
            for (int b = 0; b < 5; b++)
            {
                for (int j = 0; j < 4; j++)
                {
                    k.set(wantDst, 5 * b + j, v(right, 11, 1 + 7 * b + j));
                }
            }
            expectArray("ibget(destOffset=0, dst=5, srcIndex=1, sst=7, bsize=4, nblocks=5)", wantDst, dst);
            s.barrierAll();
        }

        private void segments()
        {
            try (Arena arena = Arena.ofConfined())
            {
                // a native segment and a heap segment as put sources
                reset();
                final A src = pat(me, 12, N);
                s.put(w, 4, segmentOf(arena, src, 0, 10), right);
                final int eb = w.elementBytes();
                final MemorySegment heap = MemorySegment.ofArray(new byte[10 * eb]);
                MemorySegment.copy(src, 10, heap, w.elementLayout(), 0, 10);
                s.put(w, 20, heap, right);
                s.barrierAll();
                final A want = blank();
                final A srcLeft = pat(left, 12, N);
                System.arraycopy(srcLeft, 0, want, 4, 10);
                System.arraycopy(srcLeft, 10, want, 20, 10);
                expect("put(MemorySegment native + heap)", want);

                // get into a segment
                resetTo(13);
                final MemorySegment dst = arena.allocate(12L * eb);
                s.get(dst, w, 30, right);
                final A got = arrayOf(dst);
                final A wantGot = k.newArray(12);
                System.arraycopy(pat(right, 13, N), 30, wantGot, 0, 12);
                expectArray("get(MemorySegment, srcIndex=30)", wantGot, got);
                s.barrierAll();
            }
        }

        /** putmem/getmem at byte offsets that need not be element-aligned; compared byte by byte. */
        private void bytewise()
        {
            try (Arena arena = Arena.ofConfined())
            {
                final int eb = w.elementBytes();
                final long wBytes = w.byteSize();
                final int len = (int)Math.min(wBytes - 3, 2L * eb + 5);
                final byte[] src = new byte[len];
                for (int i = 0; i < len; i++)
                {
                    src[i] = (byte)(0x40 + me * 16 + i);
                }
                for (final boolean nbi : new boolean[] {false, true})
                {
                    final String routine = (nbi ? "putmemNbi" : "putmem") + "(destByteOffset=3, bytes=" + len + ")";
                    reset();
                    final byte[] before = h.segment().toArray(ValueLayout.JAVA_BYTE);
                    final MemorySegment seg = arena.allocate(len);
                    MemorySegment.copy(src, 0, seg, ValueLayout.JAVA_BYTE, 0, len);
                    if (nbi)
                    {
                        s.putmemNbi(w, 3, seg, right);
                        s.quiet();
                    }
                    else
                    {
                        s.putmem(w, 3, seg, right);
                    }
                    s.barrierAll();
                    final byte[] after = h.segment().toArray(ValueLayout.JAVA_BYTE);
                    final int base = G * eb + 3;
                    for (int i = 0; i < after.length; i++)
                    {
                        final byte want = i >= base && i < base + len ? (byte)(0x40 + left * 16 + i - base) : before[i];
                        c.eq(routine, t + " byte", i, want, after[i]);
                    }
                }
                for (final boolean nbi : new boolean[] {false, true})
                {
                    final String routine = (nbi ? "getmemNbi" : "getmem") + "(srcByteOffset=1, bytes=" + len + ")";
                    resetTo(14);
                    final byte[] rightBytes = new byte[(int)wBytes];
                    final Kind<A> kk = k;
                    MemorySegment.copy(pat(right, 14, N), 0, MemorySegment.ofArray(rightBytes), w.elementLayout(), 0, N);
                    final MemorySegment dst = arena.allocate(len);
                    if (nbi)
                    {
                        s.getmemNbi(dst, w, 1, right);
                        s.quiet();
                    }
                    else
                    {
                        s.getmem(dst, w, 1, right);
                    }
                    for (int i = 0; i < len; i++)
                    {
                        c.eq(routine, kk.name() + " byte", i, rightBytes[1 + i], dst.get(ValueLayout.JAVA_BYTE, i));
                    }
                    s.barrierAll();
                }
            }
        }

        private void zeroLength()
        {
            reset();
            final A src = pat(me, 15, N);
            final A dst = k.pattern(8, -3, 0);
            s.put(w, 0, src, 0, 0, right);
            s.put(w, N, src, N, 0, right);
            s.putNbi(w, N, src, 0, 0, right);
            s.get(dst, 8, w, N, 0, right);
            s.getNbi(dst, 0, w, 0, 0, right);
            s.iput(w, 0, 1, src, 0, 1, 0, right);
            s.iget(dst, 0, 1, w, 0, 1, 0, right);
            s.ibput(w, 0, 2, src, 0, 2, 2, 0, right);
            s.ibget(dst, 0, 2, w, 0, 2, 2, 0, right);
            s.put(w, 0, MemorySegment.ofArray(new byte[0]), right);
            s.get(MemorySegment.ofArray(new byte[0]), w, N, right);
            s.putmem(w, w.byteSize(), MemorySegment.ofArray(new byte[0]), right);
            s.getmem(MemorySegment.ofArray(new byte[0]), w, 0, right);
            s.quiet();
            // C allows NULL buffers with zero length; the Java form is a null array with count 0.
            try
            {
                s.put(w, 0, null, 0, 0, right);
                s.get(null, 0, w, 0, 0, right);
                c.isTrue(true, "put/get", "null array, count=0");
            }
            catch (final RuntimeException ex)
            {
                c.fail("put/get(null array, count=0)", "zero-length transfer with a null array threw " + ex);
            }
            s.barrierAll();
            expect("zero-length put/get/nbi/iput/ibput/putmem", blank());
            expectArray("zero-length get (destination untouched)", k.pattern(8, -3, 0), dst);
            s.barrierAll();
        }

        private void slices()
        {
            reset();
            final SymmetricArray<A> inner = w.slice(10, 8).slice(2, 3);
            c.eq("slice", t + " slice(10,8).slice(2,3).offset()", w.offset() + 12L * w.elementBytes(), inner.offset());
            s.put(inner, 0, pat(me, 16, 3), 0, 3, right);
            k.p(s, w.slice(N - 1, 1), 0, -4242, right);
            s.barrierAll();
            final A want = blank();
            System.arraycopy(pat(left, 16, 3), 0, want, 12, 3);
            k.set(want, N - 1, -4242);
            expect("put through slice(10,8).slice(2,3) and p through slice(N-1,1)", want);
            s.barrierAll();
        }

        /** Every PE writes one element into every PE, so addressing of every PE pair is exercised. */
        private void allToAll()
        {
            final int n = c.nPes();
            if (n > N)
            {
                return;
            }
            reset();
            final A src = pat(me, 17, 1);
            for (int pe = 0; pe < n; pe++)
            {
                s.put(w, me, src, 0, 1, pe);
            }
            s.barrierAll();
            final A want = blank();
            for (int j = 0; j < n; j++)
            {
                k.set(want, j, v(j, 17, 0));
            }
            expect("put one element to every PE", want);
            // every PE now holds the same first n elements: read them from every PE
            for (int pe = 0; pe < n; pe++)
            {
                final A got = k.newArray(n);
                s.get(got, 0, w, 0, n, pe);
                for (int j = 0; j < n; j++)
                {
                    c.eq("get from PE " + pe, t, j, k.conv(v(j, 17, 0)), k.bits(got, j));
                }
                c.eq("g from PE " + pe, t, n - 1, k.conv(v(n - 1, 17, 0)), k.g(s, w, n - 1, pe));
            }
            s.barrierAll();

            if (k == (Object)Kind.MEMORY)
            {
                // typed views of raw memory name the same bytes
                final SymmetricMemory m = (SymmetricMemory)w;
                final long word = 0x0102030405060708L + me;
                s.p(m.slice(8, 16).asLongs(), 0, word, right);
                s.barrierAll();
                final long expectWord = 0x0102030405060708L + left;
                final SymmetricBytes bytes = m.asBytes();
                for (int i = 0; i < 8; i++)
                {
                    c.eq("p(asLongs view) read as bytes", "memory", 8 + i, (byte)(expectWord >>> (8 * i)), bytes.getLocal(8 + i));
                }
                s.barrierAll();
            }
        }
    }
}
