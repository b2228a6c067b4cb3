package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.SymmetricBytes;
import io.jshmem.SymmetricLongs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The inter-node rows of issue 9's goals, for PE 0 talking to the last PE (on another host when the
 * job spans hosts; with {@code SHMEM_TRANSPORT=proxy} through the proxy on one host): get 8 B,
 * put 8 B + quiet, fetch_add and compare_swap latency, the 8-byte put rate with nbi puts and one quiet
 * per window of 4096, put bandwidth of 1 MiB nbi puts (16 per quiet), barrier_all and sync_all over every PE
 * (sync_all: the barrier without its quiet).
 * Each row is the median of {@code --reps} repetitions (min and max beside it), after {@code --warmup}
 * unrecorded passes (default 4, as P2pBench: with 1, the first recorded passes over UCX between two test hosts still ran
 * in the JIT's warm-up, get at 13.2 and 25.9 µs where later passes took 11.9-12.6); PE 0 prints the table.
 * <p>
 * Run: {@code benchmarks/run-multihost} (two namespaced test hosts), or
 * {@code bin/shmemrun -np 2 --hosts h1:1,h2:1 --agent ... -cp ... io.jshmem.bench.RemoteBench}.
 */
public final class RemoteBench
{
    private static final int RATE_WINDOW = 4096;

    private final Shmem shmem;
    private final int me;
    private final int peer;
    private final boolean quick;
    private final Results results = new Results();
    private final MemorySegment big;

    private RemoteBench(final Shmem shmem, final boolean quick, final Arena arena)
    {
        this.shmem = shmem;
        this.me = shmem.myPe();
        this.peer = shmem.nPes() - 1;
        this.quick = quick;
        this.big = arena.allocate(1 << 20, 4096);
    }

    public static void main(final String[] args) throws Exception
    {
        final Results.Options options = Results.Options.parse(args, 5, 4);
        try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofShared())
        {
            if (shmem.nPes() < 2)
            {
                System.err.println("RemoteBench needs at least 2 PEs");
                shmem.globalExit(2);
            }
            final RemoteBench bench = new RemoteBench(shmem, options.quick(), arena);
            bench.results.run(options, bench::runAll);
            bench.results.report(shmem, "jshmem PE 0 <-> PE " + (shmem.nPes() - 1) + ", " + shmem.nPes() + " PEs, " +
                options.reps() + " repetitions, medians", options);
        }
    }

    private void runAll()
    {
        final SymmetricLongs words = shmem.allocateLongs(64);
        final SymmetricBytes buf = shmem.allocateBytes(1 << 20);
        final int iters = quick ? 300 : 2000;
        final long[] one = new long[1];
        latency("get 8 B", iters, () -> shmem.get(one, 0, words, 0, 1, peer));
        latency("put 8 B + quiet", iters, () ->
        {
            shmem.put(words, 1, one, 0, 1, peer);
            shmem.quiet();
        });
        latency("fetch_add", iters, () -> shmem.atomicFetchAdd(words, 2, 1L, peer));
        latency("compare_swap", iters, () -> shmem.atomicCompareSwap(words, 3, 0L, 0L, peer));
        shmem.barrierAll();
        if (me == 0)
        {
            final int windows = quick ? 5 : 20;
            final long t0 = System.nanoTime();
            for (int w = 0; w < windows; w++)
            {
                for (int i = 0; i < RATE_WINDOW; i++)
                {
                    shmem.putNbi(words, 4 + (i & 31), one, 0, 1, peer);
                }
                shmem.quiet();
            }
            final long t1 = System.nanoTime();
            results.add("8-byte put rate (nbi, quiet per " + RATE_WINDOW + ")", 8, "M/s", (double)windows * RATE_WINDOW / ((t1 - t0) / 1e3));
            final int puts = quick ? 32 : 128;
            final long b0 = System.nanoTime();
            for (int i = 0; i < puts; i++)
            {
                shmem.putmemNbi(buf, 0, big, peer);
                if ((i & 15) == 15)
                {
                    shmem.quiet();
                }
            }
            shmem.quiet();
            final long b1 = System.nanoTime();
            results.add("put bandwidth (1 MiB nbi, quiet per 16)", 1 << 20, "MB/s", (double)puts * (1 << 20) / ((b1 - b0) / 1e3));
        }
        final int barriers = quick ? 300 : 2000;
        everyPe("barrier_all, " + shmem.nPes() + " PEs", barriers, shmem::barrierAll);
        everyPe("sync_all, " + shmem.nPes() + " PEs", barriers, shmem::syncAll);
        shmem.barrierAll();
        shmem.free(buf);
        shmem.free(words);
    }

    /** Times {@code count} calls of a collective op on every PE, between barriers; PE 0 records µs per call. */
    private void everyPe(final String name, final int count, final Runnable op)
    {
        shmem.barrierAll();
        final long t0 = System.nanoTime();
        for (int i = 0; i < count; i++)
        {
            op.run();
        }
        final long t1 = System.nanoTime();
        if (me == 0)
        {
            results.add(name, 0, "us", (t1 - t0) / 1e3 / count);
        }
    }

    private void latency(final String name, final int iters, final Runnable op)
    {
        shmem.barrierAll();
        if (me == 0)
        {
            for (int i = 0; i < Math.max(10, iters / 10); i++)
            {
                op.run();
            }
            final long t0 = System.nanoTime();
            for (int i = 0; i < iters; i++)
            {
                op.run();
            }
            final long t1 = System.nanoTime();
            results.add(name, 8, "us", (t1 - t0) / 1e3 / iters);
        }
        shmem.barrierAll();
    }
}
