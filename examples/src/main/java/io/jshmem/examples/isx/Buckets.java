package io.jshmem.examples.isx;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The local steps of ISx, free of communication so they can be tested alone: drawing the keys, counting and
 * ordering them by bucket (bucket b holds keys {@code [b * width, (b + 1) * width)} and goes to PE b), and the
 * counting sort and checks of the keys a PE received.
 */
final class Buckets
{
    /** Calls of each step in {@link #warmUp}: past HotSpot's thresholds for a C2 compile of a method's normal entry. */
    static final int WARM_UP_CALLS = 2000;
    /** Keys per call in {@link #warmUp}. */
    static final int WARM_UP_KEYS = 512;

    private Buckets()
    {
    }

    /**
     * Runs every timed local step {@link #WARM_UP_CALLS} times on a small private key set with the job's key
     * range and bucket width, before ISx's iterations, so the JIT has compiled them. ISx's one burn-in iteration
     * calls each step once: HotSpot then compiles only the running loop (on-stack replacement) and the timed
     * iteration starts in the interpreter or profiled code, which at small key counts is most of it (measured at
     * 2 PEs, 65536 keys per PE: LOCAL_SORT 344 ms without, against the C twin's 9.6 ms). The keys come from a PE
     * number no PE has (-1 and below) and nothing of it is timed.
     *
     * @param received where the counting sort reads keys from: the receive buffer itself (the same kind of segment
     *                 as in the iterations, so the compiled code is for it), at least {@link #WARM_UP_KEYS} long and
     *                 written before any PE's first exchange (ISx's first iteration starts with a barrier).
     * @param maxKey  the job's key range.
     * @param buckets the job's buckets (PEs).
     * @param width   the job's bucket width.
     * @param counts  the histogram (its counts are left zeroed).
     * @return a checksum of the results, so the work cannot be optimised away.
     */
    static long warmUp(final MemorySegment received, final int maxKey, final int buckets, final int width, final Histogram counts)
    {
        final int[] keys = new int[WARM_UP_KEYS];
        final int[] out = new int[WARM_UP_KEYS];
        long sum = 0;
        for (int call = 0; call < WARM_UP_CALLS; call++)
        {
            makeInput(-1 - call, keys, maxKey);
            final int[] sizes = countBucketSizes(keys, buckets, width);
            final int[] offsets = bucketOffsets(sizes);
            bucketize(keys, offsets.clone(), width, out);
            MemorySegment.copy(out, 0, received, ValueLayout.JAVA_INT, 0, WARM_UP_KEYS);
            countLocalKeys(received, WARM_UP_KEYS, out[call % WARM_UP_KEYS], counts.counts());
            sum += offsets[buckets - 1] + counts.counts()[call % WARM_UP_KEYS];
        }
        counts.zero();
        return sum;
    }

    /**
     * Draws a PE's keys: uniform in {@code [0, maxKey)} from {@link Pcg32#forPe}, so every run, and the C
     * programs, give the same PE the same keys.
     *
     * @param pe     the PE.
     * @param keys   where the keys go (all of it is filled).
     * @param maxKey exclusive upper bound of the keys.
     */
    static void makeInput(final int pe, final int[] keys, final int maxKey)
    {
        Pcg32.forPe(pe).fillBounded(keys, maxKey);
    }

    /**
     * Counts the keys of each bucket.
     *
     * @param keys    the keys, each in {@code [0, buckets * width)}.
     * @param buckets how many buckets (PEs).
     * @param width   keys per bucket's range.
     * @return the count per bucket.
     */
    static int[] countBucketSizes(final int[] keys, final int buckets, final int width)
    {
        final int[] sizes = new int[buckets];
        for (final int key : keys)
        {
            sizes[key / width]++;
        }
        return sizes;
    }

    /**
     * Where each bucket starts in bucket order: the exclusive prefix sum of the sizes.
     *
     * @param sizes keys per bucket.
     * @return the offset of each bucket.
     */
    static int[] bucketOffsets(final int[] sizes)
    {
        final int[] offsets = new int[sizes.length];
        int at = 0;
        for (int b = 0; b < sizes.length; b++)
        {
            offsets[b] = at;
            at += sizes[b];
        }
        return offsets;
    }

    /**
     * Copies the keys into bucket order (a bucket's keys keep their relative order, unsorted).
     *
     * @param keys    the keys.
     * @param cursors each bucket's offset from {@link #bucketOffsets}; advanced past the bucket (each ends at the next one's start).
     * @param width   keys per bucket's range.
     * @param out     where the keys go, as long as {@code keys}.
     */
    static void bucketize(final int[] keys, final int[] cursors, final int width, final int[] out)
    {
        for (final int key : keys)
        {
            out[cursors[key / width]++] = key;
        }
    }

    /**
     * The counting sort of the received keys: how often each key of this PE's range occurs. A key outside the
     * range is not counted (verification finds it, and the counts then miss it).
     *
     * @param received the receive buffer (ints, 4-byte aligned).
     * @param size     keys received.
     * @param minKey   the smallest key of this PE's range.
     * @param counts   zeroed ints, one per key of the range: the count of key {@code minKey + i} goes to index i.
     */
    static void countLocalKeys(final MemorySegment received, final int size, final int minKey, final int[] counts)
    {
        final int width = counts.length;
        for (int i = 0; i < size; i++)
        {
            final int k = received.getAtIndex(ValueLayout.JAVA_INT, i) - minKey; // unsigned below width: exactly the keys of the range
            if (Integer.compareUnsigned(k, width) < 0)
            {
                counts[k]++;
            }
        }
    }

    /**
     * ISx's per-PE verification of the received keys, plus the sum of the keys (the same keys sorted by any
     * implementation give the same sums).
     *
     * @param keysOutOfRange keys outside {@code [minKey, maxKey]}.
     * @param firstBad       the first such key, if any.
     * @param countSum       the sum of the counts.
     * @param keySum         the sum of the received keys.
     */
    record Check(long keysOutOfRange, int firstBad, long countSum, long keySum)
    {
    }

    /**
     * Checks the received keys against this PE's range and the counts against the number of keys.
     *
     * @param received the receive buffer.
     * @param size     keys received.
     * @param minKey   the smallest key of this PE's range.
     * @param maxKey   the largest key of this PE's range (inclusive).
     * @param counts   the counting sort's result (ints).
     * @return what was found.
     */
    static Check check(final MemorySegment received, final int size, final long minKey, final long maxKey, final int[] counts)
    {
        long bad = 0;
        int firstBad = 0;
        long keySum = 0;
        for (int i = 0; i < size; i++)
        {
            final int key = received.getAtIndex(ValueLayout.JAVA_INT, i);
            keySum += key;
            if (key < minKey || key > maxKey)
            {
                if (bad++ == 0)
                {
                    firstBad = key;
                }
            }
        }
        long countSum = 0;
        for (final int c : counts)
        {
            countSum += c;
        }
        return new Check(bad, firstBad, countSum, keySum);
    }
}
