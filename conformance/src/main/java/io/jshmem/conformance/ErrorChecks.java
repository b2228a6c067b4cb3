package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Argument checking: a PE out of range, an index or count past the object, negative counts and
 * offsets, a Java array or fetch buffer too short, strides out of range, a misaligned atomic or signal
 * (through {@code SymmetricMemory.slice(1, 16).asLongs()}), use of a freed handle, bad status/values
 * lengths, and bad allocation arguments. Each must throw {@link IndexOutOfBoundsException} or
 * {@link IllegalArgumentException} whose message names the PE ({@code "[pe "}) and the offending
 * operands. Afterwards nothing may have been written: the object, its neighbours in the same
 * allocation, and the raw memory behind the misaligned views are checked unchanged on every PE
 * (every bad call targets the right neighbour, so a silent write would land there).
 * Runs at any PE count.
 */
public final class ErrorChecks
{
    private static final int K = 16;

    private ErrorChecks()
    {
    }

    private static boolean verbose;

    /** @param args {@code -v}: print every exception message checked (PE 0). */
    public static void main(final String[] args)
    {
        verbose = args.length > 0 && "-v".equals(args[0]);
        Spmd.run("ErrorChecks", 1, ErrorChecks::body);
    }

    private static long sentinel(final int pe, final int i)
    {
        return 0x5EED_0000_0000_0000L | (long)pe << 20 | i;
    }

    private static void body(final Shmem s, final Check c)
    {
        final int me = c.me();
        final int n = c.nPes();
        final int right = c.right();
        final SymmetricLongs big = s.allocateLongs(3 * K);
        final SymmetricInts bigI = s.allocateInts(3 * K);
        final SymmetricMemory raw = s.malloc(64);
        for (int i = 0; i < 3 * K; i++)
        {
            big.setLocal(i, sentinel(me, i));
            bigI.setLocal(i, (int)sentinel(me, i));
        }
        for (int i = 0; i < 64; i++)
        {
            raw.asBytes().setLocal(i, (byte)(me + i));
        }
        final SymmetricLongs obj = big.slice(K, K);
        final SymmetricInts objI = bigI.slice(K, K);
        s.barrierAll();
        final Bad bad = new Bad(c);
        final long[] src = new long[K + 8];
        final long[] dst = new long[K + 8];
        java.util.Arrays.fill(src, -77);

        c.section("PE out of range");
        for (final int pe : new int[] {-1, n, n + 5, Integer.MAX_VALUE})
        {
            final String p = String.valueOf(pe);
            bad.check("put", "pe=" + pe, () -> s.put(obj, 0, src, 0, 4, pe), p);
            bad.check("get", "pe=" + pe, () -> s.get(dst, 0, obj, 0, 4, pe), p);
            bad.check("p", "pe=" + pe, () -> s.p(obj, 0, 1L, pe), p);
            bad.check("g", "pe=" + pe, () -> s.g(obj, 0, pe), p);
            bad.check("putNbi", "pe=" + pe, () -> s.putNbi(obj, 0, src, 0, 4, pe), p);
            bad.check("getNbi", "pe=" + pe, () -> s.getNbi(dst, 0, obj, 0, 4, pe), p);
            bad.check("iput", "pe=" + pe, () -> s.iput(obj, 0, 2, src, 0, 1, 3, pe), p);
            bad.check("ibget", "pe=" + pe, () -> s.ibget(dst, 0, 2, obj, 0, 2, 2, 2, pe), p);
            bad.check("putmem", "pe=" + pe, () -> s.putmem(obj, 0, MemorySegment.ofArray(new byte[8]), pe), p);
            bad.check("getmem", "pe=" + pe, () -> s.getmem(MemorySegment.ofArray(new byte[8]), obj, 0, pe), p);
            bad.check("atomicFetchAdd", "pe=" + pe, () -> s.atomicFetchAdd(obj, 0, 1L, pe), p);
            bad.check("atomicSet", "pe=" + pe, () -> s.atomicSet(objI, 0, 1, pe), p);
            bad.check("atomicFetchIncNbi", "pe=" + pe, () -> s.atomicFetchIncNbi(new long[1], 0, obj, 0, pe), p);
            bad.check("putSignal", "pe=" + pe, () -> s.putSignal(obj, 0, src, 0, 2, obj, K - 1, 1, SignalOp.SET, pe), p);
            bad.check("signalAdd", "pe=" + pe, () -> s.signalAdd(obj, 0, 1, pe), p);
            bad.check("signalSet", "pe=" + pe, () -> s.signalSet(obj, 0, 1, pe), p);
            bad.check("peQuiet", "pe=" + pe, () -> s.peQuiet(pe), p);
        }

        c.section("index/count past the object");
        bad.check("put", "destIndex=13 count=5 capacity=16", () -> s.put(obj, K - 3, src, 0, 5, right), "13", "5");
        bad.check("get", "srcIndex=13 count=5 capacity=16", () -> s.get(dst, 0, obj, K - 3, 5, right), "13", "5");
        bad.check("putNbi", "destIndex=13 count=5", () -> s.putNbi(obj, K - 3, src, 0, 5, right), "13", "5");
        bad.check("getNbi", "srcIndex=13 count=5", () -> s.getNbi(dst, 0, obj, K - 3, 5, right), "13", "5");
        bad.check("put", "destIndex=17 count=0", () -> s.put(obj, K + 1, src, 0, 0, right), "17");
        bad.check("p", "index=16", () -> s.p(obj, K, 1L, right), "16");
        bad.check("p", "index=-1", () -> s.p(obj, -1, 1L, right), "-1");
        bad.check("g", "index=16", () -> s.g(obj, K, right), "16");
        bad.check("p (ints)", "index=16", () -> s.p(objI, K, 1, right), "16");
        bad.check("iput", "destIndex=0 dst=4 nelems=5 (last index 16)", () -> s.iput(obj, 0, 4, src, 0, 1, 5, right));
        bad.check("iget", "srcIndex=1 sst=5 nelems=4 (last index 16)", () -> s.iget(dst, 0, 1, obj, 1, 5, 4, right));
        bad.check("ibput", "dst=6 bsize=3 nblocks=3 (last index 14) srcOffset=20 (src too short)",
            () -> s.ibput(obj, 0, 6, src, 20, 3, 3, 3, right));
        bad.check("ibput", "destIndex=4 dst=4 bsize=3 nblocks=4 (last index 18)", () -> s.ibput(obj, 4, 4, src, 0, 3, 3, 4, right));
        bad.check("putmem", "destByteOffset=124 bytes=8 byteSize=128", () -> s.putmem(obj, 8 * K - 4, MemorySegment.ofArray(new byte[8]), right), "124");
        bad.check("getmem", "srcByteOffset=124 bytes=8 byteSize=128", () -> s.getmem(MemorySegment.ofArray(new byte[8]), obj, 8 * K - 4, right), "124");
        bad.check("put(MemorySegment)", "destIndex=15 bytes=16", () -> s.put(obj, K - 1, MemorySegment.ofArray(new byte[16]), right));
        bad.check("atomicFetchAdd", "index=16", () -> s.atomicFetchAdd(obj, K, 1L, right), "16");
        bad.check("atomicCompareSwap", "index=-1", () -> s.atomicCompareSwap(obj, -1, 0L, 1L, right), "-1");
        bad.check("atomicSet (ints)", "index=16", () -> s.atomicSet(objI, K, 1, right), "16");
        bad.check("atomicFetchNbi", "fetchIndex=5 of long[2]", () -> s.atomicFetchNbi(new long[2], 5, obj, 0, right), "5");
        bad.check("putSignal", "sigIndex=16", () -> s.putSignal(obj, 0, src, 0, 1, obj, K, 1, SignalOp.ADD, right), "16");
        bad.check("signalSet", "sigIndex=16", () -> s.signalSet(obj, K, 1, right), "16");
        bad.check("waitUntil", "index=16", () -> obj.waitUntil(K, Cmp.EQ, 0), "16");
        bad.check("test", "index=-1", () -> obj.test(-1, Cmp.EQ, 0), "-1");
        bad.check("signalFetch", "index=16", () -> obj.signalFetch(K), "16");
        bad.check("signalWaitUntil", "index=16", () -> obj.signalWaitUntil(K, Cmp.EQ, 0), "16");
        bad.check("slice", "from=10 count=7 capacity=16", () -> obj.slice(10, 7), "10", "7");

        c.section("negative counts and offsets, short arrays");
        bad.check("put", "count=-1", () -> s.put(obj, 0, src, 0, -1, right), "-1");
        bad.check("get", "count=-1", () -> s.get(dst, 0, obj, 0, -1, right), "-1");
        bad.check("putNbi", "count=-3", () -> s.putNbi(obj, 0, src, 0, -3, right), "-3");
        bad.check("put", "srcOffset=-1", () -> s.put(obj, 0, src, -1, 2, right), "-1");
        bad.check("get", "destOffset=-2", () -> s.get(dst, -2, obj, 0, 2, right), "-2");
        bad.check("get", "srcIndex=-1", () -> s.get(dst, 0, obj, -1, 2, right), "-1");
        bad.check("iput", "nelems=-1", () -> s.iput(obj, 0, 1, src, 0, 1, -1, right), "-1");
        bad.check("ibput", "nblocks=-2", () -> s.ibput(obj, 0, 2, src, 0, 2, 2, -2, right), "-2");
        bad.check("iput", "dst=0", () -> s.iput(obj, 0, 0, src, 0, 1, 2, right));
        bad.check("iget", "sst=0", () -> s.iget(dst, 0, 1, obj, 0, 0, 2, right));
        bad.check("ibput", "bsize=3 > dst=2", () -> s.ibput(obj, 0, 2, src, 0, 3, 3, 2, right));
        bad.check("put", "src long[4] srcOffset=2 count=4", () -> s.put(obj, 0, new long[4], 2, 4, right), "2", "4");
        bad.check("get", "dest long[4] destOffset=2 count=4", () -> s.get(new long[4], 2, obj, 0, 4, right), "2", "4");
        bad.check("iget", "dest long[4] dst=3 nelems=3", () -> s.iget(new long[4], 0, 3, obj, 0, 1, 3, right));
        bad.check("putmem", "destByteOffset=-8", () -> s.putmem(obj, -8, MemorySegment.ofArray(new byte[8]), right), "-8");

        c.section("misaligned atomics and signals");
        final SymmetricLongs mis = raw.slice(1, 16).asLongs();
        final SymmetricInts misI = raw.slice(2, 8).asInts();
        final String off = String.valueOf(mis.offset());
        bad.check("atomicFetchAdd", "longs at heap offset " + off, () -> s.atomicFetchAdd(mis, 0, 1L, right), "align");
        bad.check("atomicSet", "longs at heap offset " + off, () -> s.atomicSet(mis, 0, 1L, right), "align");
        bad.check("atomicFetch", "longs at heap offset " + off, () -> s.atomicFetch(mis, 0, right), "align");
        bad.check("atomicCompareSwap", "longs at heap offset " + off, () -> s.atomicCompareSwap(mis, 1, 0L, 1L, right), "align");
        bad.check("atomicFetchIncNbi", "longs at heap offset " + off, () -> s.atomicFetchIncNbi(new long[1], 0, mis, 0, right), "align");
        bad.check("atomicAdd (ints)", "ints at heap offset " + misI.offset(), () -> s.atomicAdd(misI, 0, 1, right), "align");
        bad.check("atomicSwap (ints)", "ints at heap offset " + misI.offset(), () -> s.atomicSwap(misI, 1, 1, right), "align");
        bad.check("signalAdd", "signal at heap offset " + off, () -> s.signalAdd(mis, 0, 1, right), "align");
        bad.check("putSignal", "signal at heap offset " + off, () -> s.putSignal(obj, 0, src, 0, 1, mis, 0, 1, SignalOp.SET, right), "align");
        bad.check("signalFetch", "local signal at heap offset " + off, () -> mis.signalFetch(0), "align");
        bad.check("waitUntil", "local longs at heap offset " + off, () -> mis.waitUntil(0, Cmp.NE, 12345), "align");
        bad.check("testAll", "local ints at heap offset " + misI.offset(), () -> misI.testAll(null, Cmp.EQ, 0), "align");

        c.section("status/values/indices lengths");
        bad.check("waitUntilAll", "status.length=3 nelems=16", () -> obj.waitUntilAll(new int[3], Cmp.EQ, 0), "3", "16");
        bad.check("testAnyVector", "values.length=2 nelems=16", () -> obj.testAnyVector(null, Cmp.EQ, new long[2]), "2", "16");
        bad.check("testSome", "indices.length=1 nelems=16", () -> obj.testSome(new int[1], null, Cmp.EQ, 0), "1", "16");

        c.section("freed handle");
        final SymmetricLongs dead = s.allocateLongs(8);
        final SymmetricLongs deadSlice = dead.slice(2, 2);
        final SymmetricMemory deadMem = s.malloc(32);
        s.free(dead);
        s.free(deadMem);
        bad.check("put", "freed " + dead, () -> s.put(dead, 0, src, 0, 1, right), "freed");
        bad.check("get", "freed " + dead, () -> s.get(dst, 0, dead, 0, 1, right), "freed");
        bad.check("p", "freed " + dead, () -> s.p(dead, 0, 1L, right), "freed");
        bad.check("g", "freed " + dead, () -> s.g(dead, 0, right), "freed");
        bad.check("putNbi", "freed " + dead, () -> s.putNbi(dead, 0, src, 0, 1, right), "freed");
        bad.check("atomicFetchAdd", "freed " + dead, () -> s.atomicFetchAdd(dead, 0, 1L, right), "freed");
        bad.check("atomicInc", "freed slice " + deadSlice, () -> s.atomicInc(deadSlice, 0, right), "freed");
        bad.check("put", "freed slice " + deadSlice, () -> s.put(deadSlice, 0, src, 0, 1, right), "freed");
        bad.check("signalSet", "freed " + dead, () -> s.signalSet(dead, 0, 1, right), "freed");
        bad.check("putmem", "freed " + deadMem, () -> s.putmem(deadMem, 0, MemorySegment.ofArray(new byte[4]), right), "freed");
        bad.check("getLocal", "freed " + dead, () -> dead.getLocal(0), "freed");
        bad.check("waitUntil", "freed " + dead, () -> dead.waitUntil(0, Cmp.EQ, 0), "freed");
        bad.check("testAll", "freed " + dead, () -> dead.testAll(null, Cmp.EQ, 0), "freed");
        bad.check("segment", "freed " + dead, dead::segment, "freed");
        bad.check("slice", "freed " + dead, () -> dead.slice(0, 1), "freed");
        bad.check("asLongs", "freed " + deadMem, deadMem::asLongs, "freed");

        c.section("allocation arguments (collective: every PE)");
        bad.check("malloc", "bytes=-1", () -> s.malloc(-1), "-1");
        bad.check("calloc", "count=-1", () -> s.calloc(-1, 8), "-1");
        bad.check("allocateLongs", "n=-5", () -> s.allocateLongs(-5), "-5");
        bad.check("align", "alignment=3", () -> s.align(3, 64), "3");
        bad.check("align", "alignment=4 (< 8)", () -> s.align(4, 64), "4");
        bad.check("realloc", "freed " + deadMem, () -> s.realloc(deadMem, 64), "freed");
        bad.check("free", "freed " + dead + " (double free)", () -> s.free(dead), "freed");

        c.section("nothing written outside the object");
        s.quiet();
        s.barrierAll();
        for (int i = 0; i < 3 * K; i++)
        {
            final String where = i < K ? "neighbour before the object" : i < 2 * K ? "the object" : "neighbour after the object";
            c.eq("bad calls wrote into " + where, "longs", i - K, sentinel(me, i), big.getLocal(i));
            c.eq("bad calls wrote into " + where, "ints", i - K, (int)sentinel(me, i), bigI.getLocal(i));
        }
        final byte[] rawNow = raw.segment().toArray(ValueLayout.JAVA_BYTE);
        for (int i = 0; i < 64; i++)
        {
            c.eq("bad calls wrote into the memory behind misaligned views", "memory", i, (byte)(me + i), rawNow[i]);
        }
        s.barrierAll();
        s.free(raw);
        s.free(bigI);
        s.free(big);
    }

    /** One bad call: must throw IOOBE or IAE naming the PE and the given operands. */
    private static final class Bad
    {
        private final Check c;

        Bad(final Check c)
        {
            this.c = c;
        }

        void check(final String routine, final String operands, final Runnable call, final String... tokens)
        {
            final String[] all = java.util.Arrays.copyOf(tokens, tokens.length + 1);
            all[tokens.length] = "[pe ";
            final Throwable t = c.throwsOneOf(routine, operands, call, all, IndexOutOfBoundsException.class, IllegalArgumentException.class);
            if (verbose && c.me() == 0)
            {
                System.out.println("  " + routine + " (" + operands + ") -> " + t);
            }
        }
    }
}
