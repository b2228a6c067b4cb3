package io.jshmem.bench;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricMemory;
import io.jshmem.Team;


/**
 * OSU-style collective latency over WORLD (osu_barrier, osu_bcast, osu_allgather, osu_alltoall,
 * osu_allreduce): for each size, every PE times back-to-back calls, the table reports the slowest PE's
 * average per call (a MAX reduction), and repetitions ({@code --reps}, default 5) give the median, min
 * and max. {@code --warmup} unrecorded passes over every row (default 3) come first, so that the JIT
 * has compiled every collective before anything is timed (with none, the first repetition of the first
 * sizes measured compilation: 20-50 µs per 8-byte reduce instead of 0.4; with one, the first recorded
 * repetition still timed 1.4-9.5 µs per 8-byte reduce and 0.5-0.7 µs per 2-PE sync instead of 0.09). Sizes are bytes per PE (broadcast and reduce: the whole message; fcollect and alltoall: one
 * PE's block). The algorithm is the automatic choice unless {@code SHMEM_<COLLECTIVE>_ALGORITHM} forces
 * one. PE 0 prints the table.
 * <p>
 * Run: {@code benchmarks/run-collectives -np 4 [--reps N] [--warmup N] [--quick] [--only TEXT] [--csv FILE]}; {@code --only}
 * runs only the rows whose name contains TEXT (e.g. {@code reduce}), or one of its comma-separated parts (e.g.
 * {@code fcollect,alltoall}: what a row costs after another collective's rows, against alone).
 */
public final class CollectivesBench
{
    private static final long MAX_BYTES = 1 << 20;
    private static final long MAX_BLOCK = 64 << 10;

    private final Shmem shmem;
    private final Team world;
    private final int n;
    private final boolean quick;
    private final Results results = new Results();
    private final SymmetricDoubles timing;
    /** {@code --only}'s comma-separated parts: a row runs when its name contains one ({@code ""}: every row). */
    private final String[] only;

    private CollectivesBench(final Shmem shmem, final boolean quick, final String only)
    {
        this.only = only.split(",");
        this.shmem = shmem;
        this.world = shmem.teamWorld();
        this.n = shmem.nPes();
        this.quick = quick;
        this.timing = shmem.allocateDoubles(2);
    }

    public static void main(final String[] args) throws Exception
    {
        final Results.Options options = Results.Options.parse(args, 5, 3, "--only");
        try (Shmem shmem = Shmem.init())
        {
            final CollectivesBench bench = new CollectivesBench(shmem, options.quick(), options.only());
            bench.results.run(options, bench::runAll);
            bench.results.report(shmem, "jshmem collectives over WORLD, " + shmem.nPes() + " PEs, " + options.reps() +
                " repetitions, medians of the slowest PE's average per call", options);
        }
    }

    private int iters(final long bytes)
    {
        final long budget = quick ? 4L << 20 : 64L << 20; // bytes moved per measurement, roughly
        final int max = quick ? 500 : 5_000;
        return (int)Math.max(10, Math.min(max, budget / Math.max(1, bytes * n)));
    }

    private void runAll()
    {
        final SymmetricMemory src = shmem.malloc(Math.max(MAX_BYTES, MAX_BLOCK * n));
        final SymmetricMemory dest = shmem.malloc(Math.max(MAX_BYTES, MAX_BLOCK * n));
        final int syncIters = quick ? 2_000 : 20_000;
        measure("barrier (team sync)", 0, syncIters, world::sync);
        for (final long size : Results.sizes(8, MAX_BYTES))
        {
            measure("broadcast", size, iters(size), () -> world.broadcast(dest, src, size, 0));
        }
        for (final long size : Results.sizes(8, MAX_BYTES))
        {
            final long count = size / 8;
            measure("sum reduce (longs)", size, iters(size), () -> world.reduce(ReduceOp.SUM, dest.asLongs(), src.asLongs(), count));
        }
        for (final long size : Results.sizes(8, MAX_BLOCK))
        {
            measure("fcollect (bytes per PE)", size, iters(size * n), () -> world.fcollect(dest, src, size));
        }
        for (final long size : Results.sizes(8, MAX_BLOCK))
        {
            measure("alltoall (bytes per PE pair)", size, iters(size * n), () -> world.alltoall(dest, src, size));
        }
        shmem.free(dest);
        shmem.free(src);
    }

    private boolean selected(final String name)
    {
        for (final String part : only)
        {
            if (name.contains(part))
            {
                return true;
            }
        }
        return false;
    }

    /** Every PE times {@code iters} calls; PE 0 records the slowest PE's average in microseconds. */
    private void measure(final String name, final long size, final int iters, final Runnable op)
    {
        if (!selected(name))
        {
            return;
        }
        shmem.barrierAll();
        for (int i = 0; i < Math.max(5, iters / 10); i++)
        {
            op.run();
        }
        shmem.barrierAll();
        final long t0 = System.nanoTime();
        for (int i = 0; i < iters; i++)
        {
            op.run();
        }
        final long t1 = System.nanoTime();
        timing.setLocal(0, (t1 - t0) / 1e3 / iters);
        shmem.barrierAll();
        world.reduce(ReduceOp.MAX, timing.slice(1, 1), timing.slice(0, 1), 1);
        if (shmem.myPe() == 0)
        {
            results.add(name, size, "us", timing.getLocal(1));
        }
    }
}
