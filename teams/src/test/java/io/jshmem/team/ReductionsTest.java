package io.jshmem.team;

import io.jshmem.ReduceOp;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricMemory;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reduction and scan algorithms, run by in-process members over {@link Loopback} (one thread per
 * member, puts as copies between their heaps), against the rank-order fold of the members' inputs:
 * every algorithm, team sizes 1 to 7 (powers of two and not), teams that are strided (and reversed)
 * subsets of WORLD, counts below the team size, counts of several scratch chunks, the direct
 * algorithm's pieces larger than its accumulator, in-place operation, and many collectives back to
 * back (so the scratch halves and signal sequence numbers are reused). Floating inputs are small
 * integers, whose sums, products, minima and maxima are exact in any combination order.
 */
class ReductionsTest
{
    private static final long SEED = Long.getLong("jshmem.test.seed", System.nanoTime());
    private static final long SCRATCH = 2048;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long DATA_BYTES = 48 << 10;

    private static final ValueLayout[] TYPES = {ValueLayout.JAVA_BYTE, ValueLayout.JAVA_SHORT, ValueLayout.JAVA_CHAR,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_FLOAT, ValueLayout.JAVA_DOUBLE};

    // ------------------------------------------------------------------ pure helpers

    @Test
    void roundsIsTheCeilingOfLog2()
    {
        final int[] expected = {0, 0, 1, 2, 2, 3, 3, 3, 3, 4, 4};
        for (int n = 0; n < expected.length; n++)
        {
            assertEquals(expected[n], Reductions.rounds(n), "n=" + n);
        }
        assertEquals(10, Reductions.rounds(1024));
        assertEquals(11, Reductions.rounds(1025));
        assertEquals(31, Reductions.rounds(Integer.MAX_VALUE));
        assertEquals(0, Reductions.rounds(-3), "no rounds for an empty or nonsense team");
    }

    @Test
    void buffersAndChunksPerAlgorithm()
    {
        assertEquals(7, Reductions.buffers(Algorithm.Reduce.LINEAR, 7));
        assertEquals(6, Reductions.buffers(Algorithm.Reduce.RING, 7));
        assertEquals(1, Reductions.buffers(Algorithm.Reduce.RING, 1), "a ring of one still has a buffer");
        assertEquals(5, Reductions.buffers(Algorithm.Reduce.RECURSIVE_DOUBLING, 7), "3 rounds + the fold + one");
        assertEquals(2, Reductions.buffers(Algorithm.Reduce.RECURSIVE_DOUBLING, 1));
        assertEquals(12, Reductions.chunkElements(Algorithm.Reduce.LINEAR, 5, 100, 8));
        assertEquals(60, Reductions.chunkElements(Algorithm.Reduce.RING, 5, 100, 8), "the ring's chunk is one buffer per member");
        assertEquals(0, Reductions.chunkElements(Algorithm.Reduce.RECURSIVE_DOUBLING, 5, 4, 8), "a buffer below one element");
    }

    @Test
    void copyOfIsAnIndependentHeapCopyOfAnySize()
    {
        for (final int bytes : new int[] {0, 1, 7, 8, 9, 100})
        {
            final MemorySegment s = MemorySegment.ofArray(new byte[bytes]);
            for (int i = 0; i < bytes; i++)
            {
                s.set(ValueLayout.JAVA_BYTE, i, (byte)(i * 31 + 1));
            }
            final MemorySegment copy = Reductions.copyOf(s);
            assertEquals(bytes, copy.byteSize());
            assertTrue(copy.heapBase().isPresent(), "on the Java heap");
            assertEquals(-1, copy.mismatch(s));
            if (bytes > 0)
            {
                copy.set(ValueLayout.JAVA_BYTE, 0, (byte)0);
                assertEquals(1, s.get(ValueLayout.JAVA_BYTE, 0), "the source is not shared");
                assertNotSame(copy.heapBase().get(), s.heapBase().get());
            }
        }
    }

    // ------------------------------------------------------------------ the algorithms

    /** One reduction or scan every member runs, in the same order on every member. */
    private record Case(ValueLayout type, ReduceOp op, int count, boolean inPlace)
    {
    }

    /** One scan every member runs. */
    private record ScanCase(ValueLayout type, boolean inclusive, int count, boolean inPlace)
    {
    }

    @Test
    void everyReductionAlgorithmGivesTheRankOrderFold() throws InterruptedException
    {
        System.out.println("ReductionsTest seed=" + SEED);
        for (final Algorithm.Reduce alg : new Algorithm.Reduce[] {Algorithm.Reduce.LINEAR, Algorithm.Reduce.RECURSIVE_DOUBLING,
            Algorithm.Reduce.RING, Algorithm.Reduce.DIRECT})
        {
            for (int size = 1; size <= 7; size++)
            {
                runReductions(alg, 8, new Triplet(0, 1, size));
            }
            runReductions(alg, 8, new Triplet(7, -2, 4));
            runReductions(alg, 8, new Triplet(1, 3, 3));
        }
    }

    @Test
    void everyScanAlgorithmGivesPrefixSums() throws InterruptedException
    {
        for (final boolean linear : new boolean[] {true, false})
        {
            for (int size = 1; size <= 7; size++)
            {
                runScans(linear, 8, new Triplet(0, 1, size));
            }
            runScans(linear, 8, new Triplet(6, -3, 3));
        }
    }

    private static List<Case> reductionCases(final Random random, final int size, final boolean direct)
    {
        final List<Case> cases = new ArrayList<>();
        for (final ValueLayout type : TYPES)
        {
            final boolean floating = type.carrier() == float.class || type.carrier() == double.class;
            for (final ReduceOp op : ReduceOp.values())
            {
                if (floating && op.isBitwise())
                {
                    continue;
                }
                final int[] counts = {1, Math.max(1, size - 1), 3 + random.nextInt(40), 300 + random.nextInt(200)};
                final int count = counts[random.nextInt(counts.length)];
                cases.add(new Case(type, op, count, random.nextBoolean()));
            }
        }
        if (direct)
        {
            cases.add(new Case(ValueLayout.JAVA_LONG, ReduceOp.SUM, 5000, false)); // blocks past the 16 KiB accumulator
        }
        return cases;
    }

    private void runReductions(final Algorithm.Reduce alg, final int worldSize, final Triplet team) throws InterruptedException
    {
        final Random random = new Random(SEED ^ (31L * alg.ordinal() + team.hashCode()));
        final List<Case> cases = reductionCases(random, team.size(), alg == Algorithm.Reduce.DIRECT);
        final Loopback world = new Loopback(worldSize, heapBytes());
        final long[] seeds = random.longs(cases.size()).toArray();
        final String what = alg + " " + team;
        world.run(members(team), pe ->
        {
            final int me = team.indexOf(pe.me);
            final Channel c = channel(pe, team, me, worldSize);
            for (int k = 0; k < cases.size(); k++)
            {
                final Case cs = cases.get(k);
                final ElementMath m = ElementMath.of(cs.type);
                final long bytes = (long)cs.count * m.bytes;
                final SymmetricMemory srcMem = pe.memory(srcOffset(), bytes);
                final SymmetricMemory destMem = cs.inPlace ? srcMem : pe.memory(destOffset(), bytes);
                fill(srcMem.segment(), cs.type, cs.op, seeds[k], me, cs.count);
                if (!cs.inPlace)
                {
                    destMem.segment().fill((byte)0x7f);
                }
                c.begin("reduce");
                reduce(world, team, c, alg, m, cs.op, typed(destMem, cs.type), srcMem, cs.count);
                final MemorySegment expected = MemorySegment.ofArray(new long[(int)(bytes + 7) / 8]).asSlice(0, bytes);
                fill(expected, cs.type, cs.op, seeds[k], 0, cs.count);
                for (int r = 1; r < team.size(); r++)
                {
                    final MemorySegment in = MemorySegment.ofArray(new long[(int)(bytes + 7) / 8]).asSlice(0, bytes);
                    fill(in, cs.type, cs.op, seeds[k], r, cs.count);
                    m.combine(cs.op, expected, in, cs.count);
                }
                final long at = destMem.segment().mismatch(expected);
                assertEquals(-1, at, what + " member " + me + " case " + k + " " + cs + ": first wrong byte");
            }
        });
    }

    private void runScans(final boolean linear, final int worldSize, final Triplet team) throws InterruptedException
    {
        final Random random = new Random(SEED ^ (17L + (linear ? 1 : 2) * team.hashCode()));
        final List<ScanCase> cases = new ArrayList<>();
        for (final ValueLayout type : TYPES)
        {
            for (final boolean inclusive : new boolean[] {true, false})
            {
                final int[] counts = {1, 3 + random.nextInt(40), 300 + random.nextInt(200)};
                cases.add(new ScanCase(type, inclusive, counts[random.nextInt(counts.length)], random.nextBoolean()));
            }
        }
        final Loopback world = new Loopback(worldSize, heapBytes());
        final long[] seeds = random.longs(cases.size()).toArray();
        final String what = (linear ? "linear" : "recursive doubling") + " scan " + team;
        world.run(members(team), pe ->
        {
            final int me = team.indexOf(pe.me);
            final Channel c = channel(pe, team, me, worldSize);
            for (int k = 0; k < cases.size(); k++)
            {
                final ScanCase cs = cases.get(k);
                final boolean inclusive = cs.inclusive;
                final ElementMath m = ElementMath.of(cs.type);
                final long bytes = (long)cs.count * m.bytes;
                final SymmetricMemory srcMem = pe.memory(srcOffset(), bytes);
                final SymmetricMemory destMem = cs.inPlace ? srcMem : pe.memory(destOffset(), bytes);
                fill(srcMem.segment(), cs.type, ReduceOp.SUM, seeds[k], me, cs.count);
                if (!cs.inPlace)
                {
                    destMem.segment().fill((byte)0x7f);
                }
                c.begin("scan");
                final Algorithm.Reduce buffers = linear ? Algorithm.Reduce.LINEAR : Algorithm.Reduce.RECURSIVE_DOUBLING;
                final long bufBytes = c.bufferBytes(Reductions.buffers(buffers, team.size()));
                final long chunk = Reductions.chunkElements(buffers, team.size(), bufBytes, m.bytes);
                assertTrue(chunk >= 1, "scratch fits an element");
                Reductions.scanChunked(c, linear, m, inclusive, typed(destMem, cs.type), srcMem.segment(), cs.count, chunk, bufBytes);
                final MemorySegment expected = MemorySegment.ofArray(new long[(int)(bytes + 7) / 8]).asSlice(0, bytes);
                for (int r = 0; r < (inclusive ? me + 1 : me); r++)
                {
                    final MemorySegment in = MemorySegment.ofArray(new long[(int)(bytes + 7) / 8]).asSlice(0, bytes);
                    fill(in, cs.type, ReduceOp.SUM, seeds[k], r, cs.count);
                    m.combine(ReduceOp.SUM, expected, in, cs.count);
                }
                assertEquals(-1, destMem.segment().mismatch(expected), what + " member " + me + " case " + k + " " + cs +
                    ": first wrong byte");
            }
        });
    }

    /** The driver of TeamCollectives.reduce for one forced algorithm: chunks through the scratch, or direct. */
    private static void reduce(final Loopback world, final Triplet team, final Channel c, final Algorithm.Reduce alg, final ElementMath m,
        final ReduceOp op, final SymmetricArray<?> dest, final SymmetricMemory srcMem, final int count)
    {
        if (alg == Algorithm.Reduce.DIRECT)
        {
            final MemorySegment[] dests = new MemorySegment[team.size()];
            final MemorySegment[] srcs = new MemorySegment[team.size()];
            for (int r = 0; r < team.size(); r++)
            {
                final MemorySegment heap = world.pes[team.pe(r)].heap;
                dests[r] = heap.asSlice(dest.offset(), dest.byteSize());
                srcs[r] = heap.asSlice(srcMem.offset(), srcMem.byteSize());
            }
            Reductions.reduceDirect(c, m, op, dests, srcs, count);
            return;
        }
        final long bufBytes = c.bufferBytes(Reductions.buffers(alg, team.size()));
        final long chunk = Reductions.chunkElements(alg, team.size(), bufBytes, m.bytes);
        assertTrue(chunk >= 1, "scratch fits an element");
        Reductions.reduceChunked(c, alg, null, m, op, dest, srcMem.segment(), count, chunk, bufBytes);
    }

    // ------------------------------------------------------------------ the members' heaps

    /** Heap: the slot pool (one slot) at 0, then the sources, then the destinations. */
    private static long heapBytes()
    {
        return destOffset() + DATA_BYTES;
    }

    private static long poolBytes()
    {
        return TeamSlot.slotBytes(8, SCRATCH);
    }

    private static long srcOffset()
    {
        return TeamSlot.align(poolBytes());
    }

    private static long destOffset()
    {
        return srcOffset() + DATA_BYTES;
    }

    private static Channel channel(final Loopback.Pe pe, final Triplet team, final int me, final int worldSize)
    {
        final TeamSlot slot = TeamSlot.of(pe.memory(0, poolBytes()), 0, worldSize, SCRATCH);
        return new Channel(pe.ctx, slot, team.start(), team.stride(), team.size(), me, "[loopback pe " + pe.me + "] ", TIMEOUT_NS, team);
    }

    private static int[] members(final Triplet team)
    {
        final int[] m = new int[team.size()];
        for (int i = 0; i < m.length; i++)
        {
            m[i] = team.pe(i);
        }
        return m;
    }

    private static SymmetricArray<?> typed(final SymmetricMemory mem, final ValueLayout type)
    {
        final Class<?> c = type.carrier();
        if (c == byte.class)
        {
            return mem.asBytes();
        }
        if (c == short.class)
        {
            return mem.asShorts();
        }
        if (c == char.class)
        {
            return mem.asChars();
        }
        if (c == int.class)
        {
            return mem.asInts();
        }
        if (c == long.class)
        {
            return mem.asLongs();
        }
        if (c == float.class)
        {
            return mem.asFloats();
        }
        return mem.asDoubles();
    }

    /**
     * Member r's input of a case: random integers for integer types; for floating types small
     * integers (powers of two and -1 for PROD), so that every combination order gives the same result.
     */
    private static void fill(final MemorySegment s, final ValueLayout type, final ReduceOp op, final long seed, final int r, final int count)
    {
        final Random random = new Random(seed * 1_000_003L + r);
        final float[] factors = {1, 2, 0.5f, -1, 4, 0.25f};
        for (int i = 0; i < count; i++)
        {
            final Class<?> c = type.carrier();
            if (c == float.class || c == double.class)
            {
                final double v = op == ReduceOp.PROD ? factors[random.nextInt(factors.length)] : random.nextInt(2001) - 1000;
                if (c == float.class)
                {
                    s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float)v);
                }
                else
                {
                    s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v);
                }
            }
            else
            {
                final long v = random.nextBoolean() ? random.nextLong() : random.nextInt(7) - 3;
                switch ((int)type.byteSize())
                {
                    case 1 -> s.set(ValueLayout.JAVA_BYTE, i, (byte)v);
                    case 2 -> s.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, (short)v);
                    case 4 -> s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, (int)v);
                    default -> s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, v);
                }
            }
        }
    }
}
