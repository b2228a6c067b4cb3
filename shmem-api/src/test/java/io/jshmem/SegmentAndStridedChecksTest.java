package io.jshmem;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Index arithmetic of the handle checks and of ShmemContext's segment forms (issue 10): huge indexes and
 * strides are exceptions, never a wrapped offset inside or beside the object; zero-length transfers with
 * null handles are no-ops; ShmemContext.INVALID; the float/double nbi atomics.
 */
class SegmentAndStridedChecksTest
{
    private final TestSpace space = new TestSpace();
    private final SymmetricLongs target = space.longs16();
    private final RecordingContext ctx = new RecordingContext();

    @Test
    void theIssueStridedShapeIsOutOfRange()
    {
        final IndexOutOfBoundsException ex = assertThrows(IndexOutOfBoundsException.class,
            () -> target.checkStridedRange(0, (1L << 61) - 8, 80, 9));
        assertTrue(ex.getMessage().startsWith("[pe 1/4] ") && ex.getMessage().contains("capacity=16") &&
            ex.getMessage().contains("stride=" + ((1L << 61) - 8)), ex.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> target.checkStridedRange(0, 80, 80, 9));
        assertEquals(1024 + 8, target.checkStridedRange(1, 5, 2, 3)); // elements 1..2, 6..7, 11..12
        assertEquals(1024, target.checkStridedRange(0, Long.MAX_VALUE, 16, 1)); // one block: the stride is never used
        assertThrows(IndexOutOfBoundsException.class, () -> target.checkStridedRange(0, Long.MAX_VALUE, 1, 2));
    }

    @Test
    void stridedRangeAgreesWithAModelOfTheObject()
    {
        final SplittableRandom random = new SplittableRandom(12);
        final long[] strideEdges = {(1L << 61) - 8, (1L << 61) + 1, 1L << 62, Long.MAX_VALUE, 1L << 60};
        int accepted = 0;
        for (int i = 0; i < 100_000; i++)
        {
            final long index = random.nextInt(8) == 0 ? random.nextLong() : random.nextInt(-2, 20);
            final long bsize = random.nextInt(1, 6);
            final long stride = random.nextInt(4) == 0 ? strideEdges[random.nextInt(strideEdges.length)] : bsize + random.nextInt(0, 6);
            final long nblocks = random.nextInt(8) == 0 ? random.nextLong(0, Long.MAX_VALUE) : random.nextInt(0, 10);
            boolean model = index >= 0 && index <= 16 && nblocks <= 16;
            for (long b = 0; model && b < nblocks; b++)
            {
                final BigInteger end = BigInteger.valueOf(index).add(BigInteger.valueOf(b).multiply(BigInteger.valueOf(stride)))
                    .add(BigInteger.valueOf(bsize));
                model = end.compareTo(BigInteger.valueOf(16)) <= 0;
            }
            try
            {
                final long off = target.checkStridedRange(index, stride, bsize, nblocks);
                if (!model)
                {
                    fail("accepted index=" + index + " stride=" + stride + " bsize=" + bsize + " nblocks=" + nblocks);
                }
                assertEquals(1024 + index * 8, off);
                accepted++;
            }
            catch (final IndexOutOfBoundsException ex)
            {
                if (model)
                {
                    fail("rejected an in-range shape: " + ex.getMessage());
                }
            }
        }
        assertTrue(accepted > 5_000, "accepted=" + accepted);
    }

    @Test
    void segmentPutAndGetIndexesDoNotAlias()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment one = arena.allocate(8);
            for (final long bad : List.of((1L << 61) + 3, -(1L << 61), -(1L << 61) + 5, 17L, -1L, Long.MAX_VALUE, Long.MIN_VALUE))
            {
                final IndexOutOfBoundsException put = assertThrows(IndexOutOfBoundsException.class, () -> ctx.put(target, bad, one, 0));
                assertTrue(put.getMessage().contains("index=" + bad) && put.getMessage().contains("capacity=16"), put.getMessage());
                assertThrows(IndexOutOfBoundsException.class, () -> ctx.get(one, target, bad, 0));
            }
            assertThrows(IndexOutOfBoundsException.class, () -> ctx.put(target, 16, one, 0)); // one past the end
            assertThrows(IndexOutOfBoundsException.class, () -> ctx.get(arena.allocate(16 * 8 + 8), target, 0, 0));
            assertThrows(IllegalArgumentException.class, () -> ctx.put(target, 0, arena.allocate(12), 0)); // not whole longs
            assertTrue(ctx.calls.isEmpty(), "nothing reached the runtime: " + ctx.calls);
            ctx.put(target, 15, one, 0);
            ctx.get(one, target, 3, 0);
            ctx.put(target, 16, arena.allocate(0), 0); // empty at the end: fine
            assertEquals(List.of("rmaPutSegment 120 8", "rmaGetSegment 24 8", "rmaPutSegment 128 0"), ctx.calls);
        }
    }

    @Test
    void zeroLengthTransfersAcceptNullHandles()
    {
        ctx.put(null, 0, null, 0, 0, 3);
        ctx.putNbi(null, 5, null, 0, 0, 3);
        ctx.get(null, 0, (SymmetricLongs)null, 0, 0, 3);
        ctx.getNbi(null, 0, (SymmetricLongs)null, 0, 0, 3);
        ctx.putmem(null, 0, null, 3);
        ctx.putmemNbi(null, 0, MemorySegment.NULL, 3);
        ctx.getmem(null, null, 0, 3);
        ctx.getmemNbi(MemorySegment.NULL, null, 0, 3);
        ctx.put((SymmetricLongs)null, 0, (MemorySegment)null, 3);
        ctx.get((MemorySegment)null, (SymmetricLongs)null, 0, 3);
        ctx.iput(null, 0, 1, null, 0, 1, 0, 3);
        ctx.iget(null, 0, 1, (SymmetricLongs)null, 0, 1, 0, 3);
        ctx.ibput(null, 0, 2, null, 0, 2, 2, 0, 3);
        ctx.ibget(null, 0, 2, (SymmetricLongs)null, 0, 2, 2, 0, 3);
        assertTrue(ctx.calls.isEmpty(), ctx.calls.toString());
        // non-empty transfers still reach the runtime's checks (which reject a null handle)
        ctx.put(null, 0, new long[1], 0, 1, 3);
        ctx.iput(null, 0, 1, new long[1], 0, 1, 1, 3);
        assertEquals(List.of("rmaPut 0 1", "rmaPutStrided 1"), ctx.calls);
        try (Arena arena = Arena.ofConfined())
        {
            assertThrows(NullPointerException.class, () -> ctx.put((SymmetricLongs)null, 0, arena.allocate(8), 3));
        }
    }

    @Test
    void invalidContext()
    {
        assertFalse(ShmemContext.INVALID.isValid());
        assertTrue(ctx.isValid());
        assertSame(Team.INVALID, ShmemContext.INVALID.team());
        ShmemContext.INVALID.close(); // ctx_destroy(SHMEM_CTX_INVALID): no-op
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> ShmemContext.INVALID.p(target, 0, 1L, 0));
        assertTrue(ex.getMessage().contains("ShmemContext.INVALID"), ex.getMessage());
        assertThrows(IllegalStateException.class, () -> ShmemContext.INVALID.atomicFetchAdd(target, 0, 1L, 0));
        assertThrows(IllegalStateException.class, ShmemContext.INVALID::quiet);
        assertThrows(IllegalStateException.class, ShmemContext.INVALID::fence);
    }

    @Test
    void floatAndDoubleFetchingNbiAtomics()
    {
        final SymmetricMemory raw = new SymmetricMemory(target.allocation(), target.offset(), 128);
        final SymmetricFloats floats = raw.asFloats();
        final SymmetricDoubles doubles = raw.asDoubles();
        ctx.atomicFetchNbi(new float[2], 1, floats, 0, 0);
        ctx.atomicSwapNbi(new float[1], 0, floats, 0, 1.5f, 0);
        ctx.atomicFetchNbi(new double[1], 0, doubles, 0, 0);
        ctx.atomicSwapNbi(new double[1], 0, doubles, 0, -2.25, 0);
        assertEquals(List.of("amoNbi FETCH 0 float[][1]", "amoNbi SWAP " + Float.floatToRawIntBits(1.5f) + " float[][0]",
            "amoNbi FETCH 0 double[][0]", "amoNbi SWAP " + Double.doubleToRawLongBits(-2.25) + " double[][0]"), ctx.calls);
    }

    @Test
    void sessionsAreHintsWithCheckedArguments()
    {
        ctx.sessionStart(new SessionConfig(1000), SessionOption.BATCH);
        ctx.put(target, 0, new long[] {1}, 0, 1, 0);
        ctx.sessionStop();
        ctx.sessionStart(SessionConfig.NONE);
        ctx.sessionStop();
        assertEquals(List.of("rmaPut 0 1"), ctx.calls, "a session changes no operation");
        assertThrows(NullPointerException.class, () -> ctx.sessionStart(null));
        assertThrows(NullPointerException.class, () -> ctx.sessionStart(SessionConfig.NONE, (SessionOption)null));
        assertThrows(IllegalArgumentException.class, () -> new SessionConfig(-1));
    }
}
