package io.jshmem.bench;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricBytes;
import io.jshmem.SymmetricLongs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * OSU-style point-to-point benchmarks of the p2p path, run on 2 PEs (more PEs join the all-PE rows):
 * put and get latency (put + quiet), put bandwidth (streaming windows), 8-byte put message rate,
 * ping-pong (p + wait_until, put_signal + signal_wait_until), fetch_add and compare_swap latency,
 * atomic add throughput (one PE, and all PEs on one word), barrier_all latency. Each measurement is
 * repeated ({@code --reps}, default 7) and the table shows median, min and max; PE 0 prints it. Four
 * unrecorded passes over every row come first ({@code --warmup}): the JIT's tier changes of the
 * benchmark methods land in the first four passes (measured: the ping-pong of passes 2 and 4 took
 * 0.6-1.9 µs instead of 0.07-0.3, in most runs, with tiered compilation on and not with it off).
 * Local buffers are off-heap {@link MemorySegment}s, like a C benchmark's; {@code --heap-arrays} measures
 * the {@code byte[]} path instead.
 * <p>
 * Run: {@code bin/shmemrun -np 2 -cp benchmarks/target/classes:... io.jshmem.bench.P2pBench} or
 * {@code benchmarks/run-p2p}. Options: {@code --reps N}, {@code --warmup N}, {@code --quick}, {@code --heap-arrays},
 * {@code --csv FILE}.
 */
public final class P2pBench
{
    private static final int WINDOW = 64;

    private final Shmem shmem;
    private final int me;
    private final int n;
    private final boolean quick;
    private final boolean heapArrays;
    private final Results results = new Results();
    // Local buffers, made once: allocating the two 4 MiB arrays in every pass made G1 start a concurrent
    // mark cycle (humongous allocations) a few seconds in, whose 8-12 ms pause and marking threads took a
    // core from a spinning PE (one repetition's ping-pong then averaged ~10 µs). Off-heap by default: the
    // same kind of memory a C benchmark's malloc gives. A byte[]'s data starts 16 bytes into the object,
    // so its vector copies straddle cache lines (5-10% at >= 32 KiB).
    private final byte[] src;
    private final byte[] dst;
    private final MemorySegment srcSeg;
    private final MemorySegment dstSeg;

    private P2pBench(final Shmem shmem, final boolean quick, final boolean heapArrays, final Arena arena)
    {
        this.shmem = shmem;
        this.me = shmem.myPe();
        this.n = shmem.nPes();
        this.quick = quick;
        this.heapArrays = heapArrays;
        this.src = new byte[heapArrays ? 4 << 20 : 8];
        this.dst = new byte[heapArrays ? 4 << 20 : 8];
        this.srcSeg = arena.allocate(4 << 20, 4096);
        this.dstSeg = arena.allocate(4 << 20, 4096);
    }

    public static void main(final String[] args) throws Exception
    {
        final Results.Options options = Results.Options.parse(args, 7, 4, "--heap-arrays");
        try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofConfined())
        {
            if (shmem.nPes() < 2)
            {
                System.err.println("P2pBench needs at least 2 PEs (bin/shmemrun -np 2 ...)");
                shmem.globalExit(2);
            }
            final P2pBench bench = new P2pBench(shmem, options.quick(), options.heapArrays(), arena);
            bench.results.run(options, bench::runAll);
            bench.results.report(shmem, "jshmem p2p benchmarks, " + shmem.nPes() + " PEs, " + options.reps() +
                " repetitions, medians, " + (options.heapArrays() ? "byte[] buffers" : "off-heap MemorySegment buffers"), options);
        }
    }

    private int iters(final long size, final int small)
    {
        final int base = quick ? small / 10 : small;
        return (int)Math.max(20, Math.min(base, (quick ? 32L << 20 : 256L << 20) / Math.max(1, size)));
    }

    private void runAll()
    {
        final SymmetricBytes buf = shmem.allocateBytes(4 << 20);
        final SymmetricLongs words = shmem.allocateLongs(64);

        for (final long size : Results.sizes(8, 1 << 20))
        {
            final int iters = iters(size, 20_000);
            final int count = (int)size;
            final MemorySegment srcSlice = srcSeg.asSlice(0, size);
            final MemorySegment dstSlice = dstSeg.asSlice(0, size);
            if (heapArrays)
            {
                latency("put latency (put + quiet)", size, iters, () -> {
                    shmem.put(buf, 0, src, 0, count, 1);
                    shmem.quiet();
                });
                latency("get latency", size, iters, () -> shmem.get(dst, 0, buf, 0, count, 1));
            }
            else
            {
                latency("put latency (put + quiet)", size, iters, () -> {
                    shmem.putmem(buf, 0, srcSlice, 1);
                    shmem.quiet();
                });
                latency("get latency", size, iters, () -> shmem.getmem(dstSlice, buf, 0, 1));
            }
        }
        for (final long size : Results.sizes(8, 4 << 20))
        {
            final int windows = Math.max(4, iters(size * WINDOW, 2_000));
            shmem.barrierAll();
            if (me == 0)
            {
                final MemorySegment srcSlice = srcSeg.asSlice(0, size);
                for (int w = 0; w < 2; w++)
                {
                    putWindow(buf, src, srcSlice, size);
                }
                final long t0 = System.nanoTime();
                for (int w = 0; w < windows; w++)
                {
                    putWindow(buf, src, srcSlice, size);
                }
                final long t1 = System.nanoTime();
                results.add("put bandwidth (nbi window " + WINDOW + ")", size, "MB/s", (double)size * WINDOW * windows / ((t1 - t0) / 1e3));
                if (size == 8)
                {
                    results.add("put message rate", size, "Mmsg/s", (double)WINDOW * windows / ((t1 - t0) / 1e3));
                }
            }
            shmem.barrierAll();
        }
        pingPong(words);
        final int amoIters = quick ? 20_000 : 200_000;
        latency("fetch_add latency", 8, amoIters, () -> shmem.atomicFetchAdd(words, 8, 1L, 1));
        latency("compare_swap latency", 8, amoIters, () -> shmem.atomicCompareSwap(words, 9, 0L, 0L, 1));
        latency("atomic add throughput, 1 PE (ns/op)", 8, amoIters, () -> shmem.atomicAdd(words, 10, 1L, 1));
        allHammer(words, amoIters);
        barrier(quick ? 5_000 : 50_000);
        shmem.free(words);
        shmem.free(buf);
    }

    private void putWindow(final SymmetricBytes buf, final byte[] src, final MemorySegment srcSlice, final long size)
    {
        final int count = (int)size;
        if (heapArrays)
        {
            for (int i = 0; i < WINDOW; i++)
            {
                shmem.putNbi(buf, 0, src, 0, count, 1);
            }
        }
        else
        {
            for (int i = 0; i < WINDOW; i++)
            {
                shmem.putmemNbi(buf, 0, srcSlice, 1);
            }
        }
        shmem.quiet();
    }

    /** PE 0 runs the operation against PE 1; the others wait at the barrier. Reports µs per operation. */
    private void latency(final String name, final long size, final int iters, final Runnable op)
    {
        shmem.barrierAll();
        if (me == 0)
        {
            final int warm = Math.max(10, iters / 10);
            for (int i = 0; i < warm; i++)
            {
                op.run();
            }
            final long t0 = System.nanoTime();
            for (int i = 0; i < iters; i++)
            {
                op.run();
            }
            final long t1 = System.nanoTime();
            results.add(name, size, name.contains("ns/op") ? "ns" : "us", (t1 - t0) / (name.contains("ns/op") ? 1.0 : 1e3) / iters);
        }
        shmem.barrierAll();
    }

    /**
     * Ping-pong between PE 0 and PE 1, one way = half a round trip. The rounds run in small loop
     * methods with no per-round branch on the round number or the PE (the warm-up rounds and the timed
     * rounds are two calls of the same method), so that the JIT's profile of the timed code is that of
     * the warm-up: an in-loop {@code if (i == warm + 1)} made C2 deoptimize and recompile the loop in
     * later passes, which timed the recompilation (0.4-1.4 µs per round instead of 0.07-0.3).
     */
    private void pingPong(final SymmetricLongs words)
    {
        // 50 000 rounds with --quick too (15 ms at most): with 5 000 the loop reached the JIT's OSR
        // threshold (60 000 back edges) only in the 11th pass, inside the recorded ones
        final int iters = 50_000;
        final int warm = iters / 10;
        final long[] one = new long[1];
        words.setLocal(0, 0);
        words.setLocal(1, 0);
        shmem.barrierAll();
        if (me <= 1)
        {
            pingPongP(words, 1, warm); // p + wait_until on word 0; the value is the round number
            final long ns = pingPongP(words, warm + 1, warm + iters);
            if (me == 0)
            {
                results.add("ping-pong p + wait_until (one way)", 8, "us", ns / 2e3 / iters);
            }
        }
        shmem.barrierAll();
        if (me <= 1)
        {
            pingPongSignal(words, one, 1, warm); // put_signal of 8 bytes + signal_wait_until on word 1
            final long ns = pingPongSignal(words, one, warm + 1, warm + iters);
            if (me == 0)
            {
                results.add("ping-pong put_signal + signal_wait_until (one way)", 8, "us", ns / 2e3 / iters);
            }
        }
        shmem.barrierAll();
    }

    /** Rounds first..last of the p + wait_until ping-pong on PE 0 or 1; @return the nanoseconds taken. */
    private long pingPongP(final SymmetricLongs words, final int first, final int last)
    {
        final long t0 = System.nanoTime();
        if (me == 0)
        {
            for (int i = first; i <= last; i++)
            {
                shmem.p(words, 0, i, 1);
                words.waitUntil(0, Cmp.EQ, i);
            }
        }
        else
        {
            for (int i = first; i <= last; i++)
            {
                words.waitUntil(0, Cmp.EQ, i);
                shmem.p(words, 0, i, 0);
            }
        }
        return System.nanoTime() - t0;
    }

    /** Rounds first..last of the put_signal + signal_wait_until ping-pong on PE 0 or 1; @return the nanoseconds taken. */
    private long pingPongSignal(final SymmetricLongs words, final long[] one, final int first, final int last)
    {
        final long t0 = System.nanoTime();
        if (me == 0)
        {
            for (int i = first; i <= last; i++)
            {
                one[0] = i;
                shmem.putSignal(words, 2, one, 0, 1, words, 1, i, SignalOp.SET, 1);
                words.signalWaitUntil(1, Cmp.EQ, i);
            }
        }
        else
        {
            for (int i = first; i <= last; i++)
            {
                one[0] = i;
                words.signalWaitUntil(1, Cmp.EQ, i);
                shmem.putSignal(words, 2, one, 0, 1, words, 1, i, SignalOp.SET, 0);
            }
        }
        return System.nanoTime() - t0;
    }

    private void allHammer(final SymmetricLongs words, final int iters)
    {
        shmem.barrierAll();
        final long t0 = System.nanoTime();
        for (int i = 0; i < iters; i++)
        {
            shmem.atomicAdd(words, 11, 1L, 0);
        }
        shmem.barrierAll();
        final long t1 = System.nanoTime();
        if (me == 0)
        {
            results.add("atomic add throughput, all " + n + " PEs on one word (Mops/s)", 8, "Mops/s", (double)iters * n / ((t1 - t0) / 1e3));
        }
    }

    private void barrier(final int iters)
    {
        for (int i = 0; i < iters / 10; i++)
        {
            shmem.barrierAll();
        }
        final long t0 = System.nanoTime();
        for (int i = 0; i < iters; i++)
        {
            shmem.barrierAll();
        }
        final long t1 = System.nanoTime();
        if (me == 0)
        {
            results.add("barrier_all latency", n, "us", (t1 - t0) / 1e3 / iters);
        }
    }
}
