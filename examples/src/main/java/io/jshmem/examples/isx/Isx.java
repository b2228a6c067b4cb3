package io.jshmem.examples.isx;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.ThreadLevel;
import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ISx, the scalable integer sort of ParRes (its SHMEM program), written for jshmem: {@code bin/shmemrun -np 4 isx}
 * or {@code bin/shmemrun -np 4 isx 1048576 3 isx.log} (keys per PE, iterations, log file: ISx's arguments; see
 * {@link IsxParams}).
 * <p>
 * Each iteration, between two barriers: every PE draws its keys (uniform, pcg32 seeded with its PE number),
 * counts them per bucket (one bucket per PE, a range of keys each), orders them by bucket, and for each
 * destination PE, in round-robin order from itself, reserves room in the destination's receive buffer with a
 * fetch-add on the destination's receive offset and puts the bucket's keys there (its own bucket is a local
 * copy after a fetch-add on itself); a barrier completes the puts; then each PE counting-sorts the keys it
 * received. One untimed burn-in iteration comes first; each phase is timed as ISx times it. The last iteration
 * is verified on every PE: every received key lies in the PE's range, the key counts add up to the keys received,
 * and the job as a whole kept every key. Every PE prints its verdict, PE 0 the timings (each phase's mean over
 * the PEs and its slowest PE, then ISx's two summary lines) and the job's verdict; any failure makes every PE
 * exit 1.
 */
public final class Isx
{
    private Isx()
    {
    }

    public static void main(final String[] args)
    {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h")))
        {
            System.out.println(IsxParams.usage());
            return;
        }
        final IsxParams params;
        try
        {
            params = IsxParams.parse(args);
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println("isx: " + e.getMessage());
            System.err.println(IsxParams.usage());
            System.exit(2);
            return;
        }
        ShmemConfig config = ShmemConfig.fromProcess();
        final long heap = params.heapBytes();
        if (!config.isSet(ShmemOptions.SYMMETRIC_SIZE) && heap > config.get(ShmemOptions.SYMMETRIC_SIZE))
        {
            config = config.with(Map.of(ShmemOptions.SYMMETRIC_SIZE.envName(), Long.toString(heap)));
        }
        final boolean passed;
        try (Shmem shmem = Shmem.init(config, ThreadLevel.SINGLE))
        {
            passed = run(shmem, params, System.out);
        }
        if (!passed)
        {
            System.exit(1);
        }
    }

    /**
     * Runs ISx on this PE: the iterations, the verification of the last one, the timings and the log.
     *
     * @param shmem  this PE.
     * @param params the command line.
     * @param out    where this PE prints.
     * @return true if the job as a whole passed verification (the same answer on every PE).
     */
    static boolean run(final Shmem shmem, final IsxParams params, final PrintStream out)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final IsxParams.Layout layout = params.layout(n);
        if (params.faultPe() >= n)
        {
            throw new IllegalArgumentException("--inject-fault " + params.faultPe() + ": the job has PEs 0 to " + (n - 1));
        }
        final long heapNeeded = 4L * layout.capacity() + 8L * (Phase.COLUMNS * (n + 1L) + 8);
        if (shmem.heapFreeBytes() < heapNeeded)
        {
            throw new IllegalStateException(String.format(Locale.ROOT, "[pe %d/%d] isx needs %d bytes of symmetric heap for %d keys"
                + " per PE (a receive buffer of %d keys), %d are free: set SHMEM_SYMMETRIC_SIZE to at least %d",
                me, n, heapNeeded, layout.keysPerPe(), layout.capacity(), shmem.heapFreeBytes(), heapNeeded + (1 << 20)));
        }
        if (me == 0)
        {
            out.println(params.banner(layout, "jshmem"));
        }

        final SymmetricLongs receiveOffset = shmem.allocateLongs(1);
        final SymmetricInts received = shmem.allocateInts(layout.capacity());
        final SymmetricLongs verdict = shmem.allocateLongs(6);
        final SymmetricDoubles mine = shmem.allocateDoubles(Phase.COLUMNS);
        final SymmetricDoubles everyPe = shmem.allocateDoubles((long)Phase.COLUMNS * n);
        receiveOffset.setLocal(0, 0);
        // The working arrays are made once and reused: ISx mallocs them every iteration, which with glibc (and
        // malloc + memset turned into calloc at -O2) puts page faults into its phases; the C twin does as this.
        final int[] keys = new int[layout.keysPerPe()];
        final int[] bucketed = new int[layout.keysPerPe()];
        final Histogram counts = new Histogram(layout.bucketWidth());
        if (Buckets.warmUp(received.segment(), layout.maxKey(), n, layout.bucketWidth(), counts) == Long.MIN_VALUE)
        {
            out.println(); // never: the JIT warm-up's checksum is only used so the work is not optimised away
        }
        final boolean passed = iterate(shmem, params, layout, out, receiveOffset, received, verdict, mine, everyPe, keys, bucketed, counts);
        shmem.free(everyPe);
        shmem.free(mine);
        shmem.free(verdict);
        shmem.free(received);
        shmem.free(receiveOffset);
        return passed;
    }

    /** ISx's iterations, the verification of the last one, then the timings, the log and the job's verdict. */
    private static boolean iterate(final Shmem shmem, final IsxParams params, final IsxParams.Layout layout, final PrintStream out,
        final SymmetricLongs receiveOffset, final SymmetricInts received, final SymmetricLongs verdict, final SymmetricDoubles mine,
        final SymmetricDoubles everyPe, final int[] keys, final int[] bucketed, final Histogram counts)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        Timers timers = new Timers(params.iterations());
        boolean jobPassed = false;
        final int rounds = params.iterations() + IsxParams.BURN_IN;
        final ExchangeTrace trace = params.traceExchange() ? new ExchangeTrace(me, n, rounds) : ExchangeTrace.OFF;
        for (int i = 0; i < rounds; i++)
        {
            if (i == IsxParams.BURN_IN)
            {
                timers = new Timers(params.iterations());
            }
            shmem.barrierAll();
            trace.began(i);
            timers.start(Phase.TOTAL);

            timers.start(Phase.MAKE_INPUT);
            Buckets.makeInput(me, keys, layout.maxKey());
            timers.stop(Phase.MAKE_INPUT);

            timers.start(Phase.COUNT_BUCKET_SIZES);
            final int[] sizes = Buckets.countBucketSizes(keys, n, layout.bucketWidth());
            timers.stop(Phase.COUNT_BUCKET_SIZES);

            timers.start(Phase.COMPUTE_OFFSETS);
            final int[] sendOffsets = Buckets.bucketOffsets(sizes);
            final int[] cursors = sendOffsets.clone();
            timers.stop(Phase.COMPUTE_OFFSETS);

            timers.start(Phase.BUCKETIZE);
            Buckets.bucketize(keys, cursors, layout.bucketWidth(), bucketed);
            timers.stop(Phase.BUCKETIZE);

            timers.start(Phase.ATA_KEYS);
            final List<String> refused = new ArrayList<>();
            trace.start();
            final long sent = exchange(shmem, receiveOffset, received, bucketed, sendOffsets, sizes, refused, trace);
            trace.exchanged();
            if (trace.on())
            {
                shmem.quiet(); // the barrier's own quiet then finds nothing: the split costs no extra message
            }
            trace.quieted();
            shmem.barrierAll(); // completes every PE's puts (ISx's BARRIER_ATA)
            timers.stop(Phase.ATA_KEYS);
            trace.done();
            timers.count(sent);

            final long offset = receiveOffset.getLocal(0);
            final int bucketSize = (int)Math.min(offset, layout.capacity());
            final int minKey = layout.minKey(me);
            counts.zero(); // outside the phase, as in ISx
            trace.zeroed();
            timers.start(Phase.LOCAL_SORT);
            Buckets.countLocalKeys(received.segment(), bucketSize, minKey, counts.counts());
            timers.stop(Phase.LOCAL_SORT);
            trace.sorted();

            shmem.barrierAll();
            timers.stop(Phase.TOTAL);
            trace.ended();

            if (i == params.iterations())
            {
                if (params.faultPe() == me && bucketSize > 0)
                {
                    received.setLocal(0, (int)layout.maxKeyInclusive(me) + 1);
                }
                final List<String> problems = new ArrayList<>(refused);
                final Buckets.Check c = Buckets.check(received.segment(), bucketSize, minKey, layout.maxKeyInclusive(me), counts.counts());
                if (c.keysOutOfRange() > 0)
                {
                    problems.add(c.keysOutOfRange() + " keys outside [" + minKey + ", " + layout.maxKeyInclusive(me) + "], the first " + c.firstBad());
                }
                if (c.countSum() != bucketSize)
                {
                    problems.add("the key counts sum to " + c.countSum() + ", the bucket holds " + bucketSize);
                }
                if (offset > layout.capacity())
                {
                    problems.add("senders reserved " + offset + " keys here, the receive buffer holds " + layout.capacity());
                }
                jobPassed = verifyJob(shmem, verdict, layout, bucketSize, c.keySum(), problems, out);
            }
            receiveOffset.setLocal(0, 0);
            shmem.barrierAll();
        }
        report(shmem, params, layout, timers, mine, everyPe, out);
        trace.print(System.err);
        if (me == 0)
        {
            out.println(verdictLine(layout, verdict, jobPassed));
        }
        shmem.barrierAll();
        return jobPassed;
    }

    /**
     * Sends each bucket to its PE: a fetch-add on the destination's receive offset reserves room, a put fills it
     * (this PE's own bucket: a fetch-add on itself and a local copy), destinations in round-robin order from this
     * PE. A reservation past the destination's buffer is refused and noted, nothing is written. With {@code trace}
     * ({@link ExchangeTrace#OFF}: none) each fetch-add's time is recorded.
     *
     * @return keys sent to other PEs.
     */
    private static long exchange(final Shmem shmem, final SymmetricLongs receiveOffset, final SymmetricInts received,
        final int[] bucketed, final int[] sendOffsets, final int[] sizes, final List<String> refused, final ExchangeTrace trace)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final long capacity = received.length();
        final long self = shmem.atomicFetchAdd(receiveOffset, 0, sizes[me], me);
        if (self + sizes[me] <= capacity)
        {
            MemorySegment.copy(bucketed, sendOffsets[me], received.segment(), ValueLayout.JAVA_INT, self * Integer.BYTES, sizes[me]);
        }
        else
        {
            refused.add(refusal(me, n, me, self, sizes[me], capacity));
        }
        long sent = 0;
        for (int i = 1; i < n; i++)
        {
            final int target = (me + i) % n;
            final int size = sizes[target];
            final long begin = trace.now();
            final long at = shmem.atomicFetchAdd(receiveOffset, 0, size, target);
            trace.fetchAdd(i, target, begin);
            if (at + size > capacity)
            {
                refused.add(refusal(me, n, target, at, size, capacity));
                continue;
            }
            if (size > 0)
            {
                shmem.put(received, at, bucketed, sendOffsets[target], size, target);
            }
            sent += size;
        }
        return sent;
    }

    private static String refusal(final int me, final int n, final int target, final long at, final int size, final long capacity)
    {
        return String.format(Locale.ROOT, "[pe %d/%d] bucket for PE %d not sent: offset %d + %d keys > receive buffer %d", me, n, target,
            at, size, capacity);
    }

    /**
     * Sums the received keys, the PEs that failed and the key sums over the job, and prints this PE's verdict.
     *
     * @return true if no PE found a problem and the job kept every key.
     */
    private static boolean verifyJob(final Shmem shmem, final SymmetricLongs verdict, final IsxParams.Layout layout, final int bucketSize,
        final long keySum, final List<String> problems, final PrintStream out)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        verdict.setLocal(0, bucketSize);
        verdict.setLocal(1, problems.isEmpty() ? 0 : 1);
        verdict.setLocal(2, keySum);
        shmem.teamWorld().reduce(ReduceOp.SUM, verdict.slice(3, 3), verdict.slice(0, 3), 3);
        if (problems.isEmpty())
        {
            out.printf(Locale.ROOT, "pe %d/%d: ISx verification PASS: %d keys, all in [%d, %d], their counts sum to %d%n", me, n, bucketSize,
                layout.minKey(me), layout.maxKeyInclusive(me), bucketSize);
        }
        else
        {
            out.printf(Locale.ROOT, "pe %d/%d: ISx verification FAIL: %s%n", me, n, String.join("; ", problems));
        }
        return verdict.getLocal(4) == 0 && verdict.getLocal(3) == layout.totalKeys();
    }

    private static String verdictLine(final IsxParams.Layout layout, final SymmetricLongs verdict, final boolean passed)
    {
        final long total = verdict.getLocal(3);
        return String.format(Locale.ROOT, "ISx verification: %s on %d PEs: %d of %d keys after the exchange, %d PEs failed their checks"
            + " (key sum %d)", passed ? "PASS" : "FAIL", layout.pes(), total, layout.totalKeys(), verdict.getLocal(4), verdict.getLocal(5));
    }

    /** Gathers every PE's mean per phase (ISx's fcollect), appends the log and prints the summary on PE 0. */
    private static void report(final Shmem shmem, final IsxParams params, final IsxParams.Layout layout, final Timers timers,
        final SymmetricDoubles mine, final SymmetricDoubles everyPe, final PrintStream out)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final double[] means = timers.means();
        for (int c = 0; c < Phase.COLUMNS; c++)
        {
            mine.setLocal(c, means[c]);
        }
        shmem.teamWorld().fcollect(everyPe, mine, Phase.COLUMNS);
        if (params.logFile() != null)
        {
            IsxLog.append(shmem, Path.of(params.logFile()), params, layout, timers);
        }
        if (me != 0)
        {
            return;
        }
        out.printf(Locale.ROOT, "Timing (seconds; mean of %d timed iterations after %d burn-in, over %d PEs):%n", params.iterations(),
            IsxParams.BURN_IN, n);
        out.printf(Locale.ROOT, "  %-20s %12s %12s%n", "phase", "avg per PE", "slowest PE");
        for (final Phase ph : Phase.values())
        {
            double sum = 0;
            double max = 0;
            for (int p = 0; p < n; p++)
            {
                final double v = everyPe.getLocal((long)p * Phase.COLUMNS + ph.ordinal());
                sum += v;
                max = Math.max(max, v);
            }
            out.printf(Locale.ROOT, "  %-20s %12.6f %12.6f%n", ph.name(), sum / n, max);
        }
        double sentSum = 0;
        double sentMax = 0;
        for (int p = 0; p < n; p++)
        {
            final double v = everyPe.getLocal((long)p * Phase.COLUMNS + Phase.COLUMNS - 1);
            sentSum += v;
            sentMax = Math.max(sentMax, v);
        }
        out.printf(Locale.ROOT, "  %-20s %12.0f %12.0f   (keys sent to other PEs)%n", "ATA_KEYS_COUNTS", sentSum / n, sentMax);
        out.printf(Locale.ROOT, "Average total time (per PE): %f seconds%n", average(everyPe, n, Phase.TOTAL));
        out.printf(Locale.ROOT, "Average all2all time (per PE): %f seconds%n", average(everyPe, n, Phase.ATA_KEYS));
    }

    private static double average(final SymmetricDoubles everyPe, final int n, final Phase phase)
    {
        double sum = 0;
        for (int p = 0; p < n; p++)
        {
            sum += everyPe.getLocal((long)p * Phase.COLUMNS + phase.ordinal());
        }
        return sum / n;
    }
}
