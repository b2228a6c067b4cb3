package io.jshmem.examples.isx;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The isx example's local pieces (no PEs): pcg32, the keys, bucketing, the counting sort, its checks and the arguments. */
class IsxPiecesTest
{
    @Test
    void pcg32MatchesTheReferenceStream()
    {
        // pcg32-demo's first round for pcg32_srandom_r(42, 54)
        final Pcg32 rng = new Pcg32(42, 54);
        final int[] want = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e};
        for (final int w : want)
        {
            assertEquals(Integer.toHexString(w), Integer.toHexString(rng.next()));
        }
    }

    @Test
    void boundedDrawsAreTheCTwins()
    {
        // the same draws from benchmarks/native/isx.c's pcg32_bounded (PE 3's first keys at 2^28; PE 0's at ceil(2^28 / 3))
        final Pcg32 pe3 = Pcg32.forPe(3);
        for (final int w : new int[] {68000202, 198409839, 172528003, 32898080})
        {
            assertEquals(w, pe3.nextBounded(1 << 28));
        }
        final Pcg32 pe0 = Pcg32.forPe(0);
        for (final int w : new int[] {79775596, 38211514, 27265285, 1909716})
        {
            assertEquals(w, pe0.nextBounded(89478486));
        }
    }

    @Test
    void fillingDrawsWhatDrawingOneByOneDraws()
    {
        final int[] filled = new int[4096];
        final Pcg32 a = Pcg32.forPe(7);
        a.fillBounded(filled, 89478486);
        final Pcg32 b = Pcg32.forPe(7);
        for (int i = 0; i < filled.length; i++)
        {
            assertEquals(b.nextBounded(89478486), filled[i], "draw " + i);
        }
        assertEquals(b.next(), a.next(), "the state after the fill");
    }

    @Test
    void keysAreDeterministicPerPeUniformAndInRange()
    {
        final int maxKey = 1 << 28;
        final int[] a = new int[1 << 16];
        final int[] b = new int[a.length];
        Buckets.makeInput(5, a, maxKey);
        Buckets.makeInput(5, b, maxKey);
        assertArrayEquals(a, b, "same PE, same keys");
        Buckets.makeInput(6, b, maxKey);
        assertNotEquals(Arrays.toString(a), Arrays.toString(b), "another PE draws other keys");
        final int[] bins = new int[16];
        for (final int k : a)
        {
            assertTrue(k >= 0 && k < maxKey, "key " + k);
            bins[k / (maxKey / 16)]++;
        }
        final int expected = a.length / 16;
        for (int i = 0; i < bins.length; i++)
        {
            assertTrue(Math.abs(bins[i] - expected) < expected / 10, "bin " + i + " holds " + bins[i] + ", about " + expected + " expected");
        }
    }

    /** Bucketing at PE counts that do and do not divide 2^28: every key lands in its PE's region, none is lost or reordered. */
    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 2, 3, 4, 7, 16})
    void bucketingKeepsEveryKeyInItsBucketInOrder(final int pes)
    {
        final IsxParams.Layout layout = IsxParams.parse(new String[] {"20000"}).layout(pes);
        assertEquals((int)(((1L << 28) + pes - 1) / pes), layout.bucketWidth());
        final int[] keys = new int[layout.keysPerPe()];
        Buckets.makeInput(pes - 1, keys, layout.maxKey());
        final int[] sizes = Buckets.countBucketSizes(keys, pes, layout.bucketWidth());
        assertEquals(keys.length, Arrays.stream(sizes).sum());
        final int[] offsets = Buckets.bucketOffsets(sizes);
        assertEquals(0, offsets[0]);
        for (int b = 1; b < pes; b++)
        {
            assertEquals(offsets[b - 1] + sizes[b - 1], offsets[b], "offset of bucket " + b);
        }
        final int[] cursors = offsets.clone();
        final int[] out = new int[keys.length];
        Buckets.bucketize(keys, cursors, layout.bucketWidth(), out);
        for (int b = 0; b < pes; b++)
        {
            assertEquals(offsets[b] + sizes[b], cursors[b], "cursor of bucket " + b + " ends at the next bucket");
            final int bucket = b;
            final int[] expected = Arrays.stream(keys).filter(k -> k / layout.bucketWidth() == bucket).toArray();
            assertArrayEquals(expected, Arrays.copyOfRange(out, offsets[b], offsets[b] + sizes[b]), "bucket " + b + " in input order");
        }
    }

    @Test
    void countingSortCountsEveryKeyOfTheRangeAndTheChecksFindStrayKeys()
    {
        final int minKey = 1000;
        final int width = 64;
        final int[] keys = {1000, 1063, 1010, 1010, 1000, 1010, 1032};
        final Histogram h = new Histogram(width);
        Arrays.fill(h.counts(), 7);
        h.zero();
        assertEquals(0, sum(h), "zeroed");
        Buckets.countLocalKeys(MemorySegment.ofArray(keys), keys.length, minKey, h.counts());
        final int[] want = new int[width];
        for (final int k : keys)
        {
            want[k - minKey]++;
        }
        assertArrayEquals(want, h.counts());
        final Buckets.Check good = Buckets.check(MemorySegment.ofArray(keys), keys.length, minKey, minKey + width - 1, h.counts());
        assertEquals(new Buckets.Check(0, 0, keys.length, Arrays.stream(keys).asLongStream().sum()), good);

        // the range's neighbours, and keys whose distance from minKey wraps around an int
        final int[] stray = {1000, 999, 1064, 1001, Integer.MIN_VALUE + 1000, Integer.MAX_VALUE};
        h.zero();
        Buckets.countLocalKeys(MemorySegment.ofArray(stray), stray.length, minKey, h.counts());
        assertEquals(2, sum(h), "keys outside the range are not counted");
        final Buckets.Check bad = Buckets.check(MemorySegment.ofArray(stray), stray.length, minKey, minKey + width - 1, h.counts());
        assertEquals(4, bad.keysOutOfRange());
        assertEquals(999, bad.firstBad());
        assertNotEquals(stray.length, bad.countSum(), "the counts then miss keys");
    }

    @Test
    void theJitWarmUpLeavesTheHistogramZeroed()
    {
        final IsxParams.Layout layout = IsxParams.parse(new String[] {"1000"}).layout(4);
        final Histogram h = new Histogram(layout.bucketWidth());
        try (Arena arena = Arena.ofConfined())
        {
            Buckets.warmUp(arena.allocate(ValueLayout.JAVA_INT, Buckets.WARM_UP_KEYS), layout.maxKey(), 4, layout.bucketWidth(), h);
            assertEquals(0, sum(h));
        }
    }

    private static long sum(final Histogram h)
    {
        long s = 0;
        for (long i = 0; i < h.width(); i++)
        {
            s += h.counts()[(int)i];
        }
        return s;
    }

    /** The receive buffer holds what the PEs really send, at PE counts that do and do not divide the key range. */
    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 3, 16})
    void everyPesReceiveFitsItsBuffer(final int pes)
    {
        final IsxParams.Layout layout = IsxParams.parse(new String[] {"4096"}).layout(pes);
        final long[] received = new long[pes];
        final int[] keys = new int[layout.keysPerPe()];
        for (int pe = 0; pe < pes; pe++)
        {
            Buckets.makeInput(pe, keys, layout.maxKey());
            final int[] sizes = Buckets.countBucketSizes(keys, pes, layout.bucketWidth());
            for (int b = 0; b < pes; b++)
            {
                received[b] += sizes[b];
            }
        }
        assertEquals(layout.totalKeys(), Arrays.stream(received).sum());
        for (int b = 0; b < pes; b++)
        {
            assertTrue(received[b] <= layout.capacity(), "PE " + b + " receives " + received[b] + ", holds " + layout.capacity());
        }
    }

    @Test
    void argumentsAreIsxs()
    {
        final IsxParams none = IsxParams.parse(new String[0]);
        assertEquals(IsxParams.Scaling.WEAK, none.scaling());
        assertEquals(1L << 27, none.keys());
        assertEquals(1, none.iterations());
        assertNull(none.logFile());

        final IsxParams two = IsxParams.parse(new String[] {"1024", "out.log"});
        assertEquals(1024, two.keys());
        assertEquals(1, two.iterations());
        assertEquals("out.log", two.logFile());

        final IsxParams three = IsxParams.parse(new String[] {"1024", "5", "-"});
        assertEquals(5, three.iterations());
        assertNull(three.logFile());
        assertFalse(three.traceExchange());
        assertTrue(IsxParams.parse(new String[] {"--trace-exchange", "1024", "5", "-"}).traceExchange());

        final IsxParams.Layout strong = IsxParams.parse(new String[] {"--scaling", "strong", "10"}).layout(3);
        assertEquals(4, strong.keysPerPe());
        final IsxParams.Layout iso = IsxParams.parse(new String[] {"--scaling=weak_iso", "100"}).layout(4);
        assertEquals(new IsxParams.Layout(4, 100, 4 * 8192, 8192, IsxParams.receiveCapacity(100)), iso);
        final IsxParams.Layout weak = IsxParams.parse(new String[] {"100"}).layout(4);
        assertEquals(1 << 26, weak.bucketWidth());
        assertEquals(3L * (1 << 26), weak.minKey(3));
        assertEquals(4L * (1 << 26) - 1, weak.maxKeyInclusive(3));

        assertThrows(IllegalArgumentException.class, () -> IsxParams.parse(new String[] {"many"}));
        assertThrows(IllegalArgumentException.class, () -> IsxParams.parse(new String[] {"0"}));
        assertThrows(IllegalArgumentException.class, () -> IsxParams.parse(new String[] {"1", "2", "3", "4"}));
        assertThrows(IllegalArgumentException.class, () -> IsxParams.parse(new String[] {"--keys", "4"}));
        assertThrows(IllegalArgumentException.class, () -> IsxParams.parse(new String[] {"--scaling", "sideways"}));
        assertThrows(IllegalArgumentException.class, () -> IsxParams.parse(new String[] {"4", "0", "log"}));
        final IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
            () -> IsxParams.parse(new String[] {"--scaling", "strong", Long.toString(1L << 40)}).layout(2));
        assertTrue(big.getMessage().contains("keys per PE"), big.getMessage());
    }

    @Test
    void timersAverageTheTimedIterations()
    {
        final Timers t = new Timers(2);
        for (int i = 0; i < 2; i++)
        {
            t.start(Phase.TOTAL);
            t.stop(Phase.TOTAL);
            t.count(10 + 10L * i);
        }
        final double[] means = t.means();
        assertEquals(Phase.COLUMNS, means.length);
        assertEquals(15, means[Phase.COLUMNS - 1]);
        assertEquals((t.seconds(Phase.TOTAL, 0) + t.seconds(Phase.TOTAL, 1)) / 2, means[Phase.TOTAL.ordinal()]);
        assertEquals(0, means[Phase.LOCAL_SORT.ordinal()], "a phase never timed");
    }
}
