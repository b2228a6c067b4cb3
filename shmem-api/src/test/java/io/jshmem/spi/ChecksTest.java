package io.jshmem.spi;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The span arithmetic of strided transfers against exact (BigInteger) arithmetic and a plain-array model. */
class ChecksTest
{
    private static final String PREFIX = "[pe 1/4] ";

    private static BigInteger exactSpan(final long stride, final long bsize, final long nblocks)
    {
        return nblocks == 0 ? BigInteger.ZERO :
            BigInteger.valueOf(nblocks - 1).multiply(BigInteger.valueOf(stride)).add(BigInteger.valueOf(bsize));
    }

    private static long saturated(final BigInteger v)
    {
        return v.bitLength() < 64 ? v.longValueExact() : Long.MAX_VALUE;
    }

    @Test
    void theIssueShapeSaturatesInsteadOfWrapping()
    {
        // ibput(target[16 longs], 0, dst=2^61-8, src, 0, sst=80, bsize=80, nblocks=9): 8*(2^61-8)+80 = 2^64+16 wraps to 16
        final long dst = (1L << 61) - 8;
        assertEquals(16L, 8 * dst + 80, "the wrapped value the old check compared");
        assertEquals(Long.MAX_VALUE, Checks.stridedSpan(dst, 80, 9));
        assertEquals(720L, Checks.stridedSpan(80, 80, 9));
    }

    @Test
    void saturatingArithmeticMatchesExactArithmetic()
    {
        final long[] edges = {0, 1, 2, 3, 7, 8, 80, 1L << 31, (1L << 31) - 1, 1L << 32, (1L << 61) - 8, 1L << 61, 1L << 62,
            Long.MAX_VALUE / 2, Long.MAX_VALUE / 2 + 1, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        for (final long a : edges)
        {
            for (final long b : edges)
            {
                assertEquals(saturated(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b))), Checks.saturatedMultiply(a, b), a + "*" + b);
                assertEquals(saturated(BigInteger.valueOf(a).add(BigInteger.valueOf(b))), Checks.saturatedAdd(a, b), a + "+" + b);
            }
        }
        for (final long nblocks : edges)
        {
            for (final long bsize : edges)
            {
                if (bsize < 1)
                {
                    continue;
                }
                for (final long stride : edges)
                {
                    if (stride >= bsize)
                    {
                        assertEquals(saturated(exactSpan(stride, bsize, nblocks)), Checks.stridedSpan(stride, bsize, nblocks),
                            "stride=" + stride + " bsize=" + bsize + " nblocks=" + nblocks);
                    }
                }
            }
        }
        final SplittableRandom random = new SplittableRandom(10);
        for (int i = 0; i < 200_000; i++)
        {
            final long bsize = 1 + (random.nextLong() >>> random.nextInt(1, 64));
            final long stride = bsize + (random.nextLong() >>> random.nextInt(1, 64));
            final long nblocks = random.nextLong() >>> random.nextInt(1, 64);
            if (stride < bsize)
            {
                continue; // bsize + x overflowed
            }
            assertEquals(saturated(exactSpan(stride, bsize, nblocks)), Checks.stridedSpan(stride, bsize, nblocks),
                "stride=" + stride + " bsize=" + bsize + " nblocks=" + nblocks);
        }
    }

    @Test
    void stridesAreCheckedForShape()
    {
        Checks.checkStrides(PREFIX, 1, 1, 1, 0);
        Checks.checkStrides(PREFIX, 4, 5, 4, 3);
        for (final long[] bad : new long[][] {{1, 1, 1, -1}, {1, 1, 0, 1}, {3, 4, 4, 1}, {4, 3, 4, 1}, {1, 1, 2, 0}})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> Checks.checkStrides(PREFIX, bad[0], bad[1], bad[2], bad[3]));
            assertTrue(ex.getMessage().startsWith(PREFIX) && ex.getMessage().contains("dst=" + bad[0] + " sst=" + bad[1]), ex.getMessage());
        }
    }

    /** Model: the transfer is in bounds iff every element of every block is an index of the array. */
    private static boolean modelInBounds(final int length, final long offset, final long stride, final long bsize, final long nblocks)
    {
        if (offset < 0 || offset > length)
        {
            return false;
        }
        for (long b = 0; b < nblocks; b++)
        {
            final BigInteger start = BigInteger.valueOf(offset).add(BigInteger.valueOf(b).multiply(BigInteger.valueOf(stride)));
            if (start.signum() < 0 || start.add(BigInteger.valueOf(bsize)).compareTo(BigInteger.valueOf(length)) > 0)
            {
                return false;
            }
        }
        return true;
    }

    @Test
    void arrayStridedCheckAgreesWithAPlainArrayModel()
    {
        final SplittableRandom random = new SplittableRandom(11);
        final long[] strideEdges = {(1L << 61) - 8, 1L << 62, Long.MAX_VALUE, (1L << 31) + 1};
        int accepted = 0;
        int rejected = 0;
        for (int i = 0; i < 100_000; i++)
        {
            final int length = random.nextInt(0, 64);
            final long[] array = new long[length];
            final int offset = random.nextInt(-2, 66);
            final long bsize = random.nextInt(1, 9);
            final long stride = random.nextInt(4) == 0 ? strideEdges[random.nextInt(strideEdges.length)] : bsize + random.nextInt(0, 9);
            final long nblocks = random.nextInt(8) == 0 ? random.nextLong(0, Long.MAX_VALUE) : random.nextInt(0, 12);
            final boolean model = nblocks < 64 ? modelInBounds(length, offset, stride, bsize, nblocks) :
                false; // more blocks than any array here has elements (bsize >= 1)
            try
            {
                final int span = Checks.checkArrayStrided(PREFIX, "source", array, offset, stride, bsize, nblocks);
                if (!model)
                {
                    fail("accepted an out-of-bounds shape: length=" + length + " offset=" + offset + " stride=" + stride + " bsize=" +
                        bsize + " nblocks=" + nblocks);
                }
                assertEquals(exactSpan(stride, bsize, nblocks).longValueExact(), span);
                // the copy loop the runtime runs stays inside the array
                long s = offset;
                for (long b = 0; b < nblocks; b++, s += stride)
                {
                    for (long k = 0; k < bsize; k++)
                    {
                        array[(int)(s + k)] = 1;
                    }
                }
                accepted++;
            }
            catch (final IndexOutOfBoundsException ex)
            {
                if (model)
                {
                    fail("rejected an in-bounds shape: " + ex.getMessage());
                }
                assertTrue(ex.getMessage().startsWith(PREFIX) && ex.getMessage().contains("array.length=" + length), ex.getMessage());
                rejected++;
            }
        }
        assertTrue(accepted > 10_000 && rejected > 10_000, "both outcomes exercised: accepted=" + accepted + " rejected=" + rejected);
    }

    @Test
    void theIssueShapeIsRejectedOnTheArraySide()
    {
        final long[] src = new long[16];
        final IndexOutOfBoundsException ex = assertThrows(IndexOutOfBoundsException.class,
            () -> Checks.checkArrayStrided(PREFIX, "dest", src, 0, (1L << 61) - 8, 80, 9));
        assertTrue(ex.getMessage().contains("more than 2^63-1") && ex.getMessage().contains("array.length=16"), ex.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> Checks.checkArrayStrided(PREFIX, "dest", new long[720], 0, 80, 80, 10));
        assertEquals(720, Checks.checkArrayStrided(PREFIX, "dest", new long[720], 0, 80, 80, 9));
    }

    @Test
    void nullArrayOnlyForAnEmptyTransfer()
    {
        Checks.checkArray(PREFIX, "source", null, 0, 0);
        assertEquals(0, Checks.checkArrayStrided(PREFIX, "source", null, 0, 5, 1, 0));
        final NullPointerException ex = assertThrows(NullPointerException.class, () -> Checks.checkArray(PREFIX, "source", null, 0, 1));
        assertTrue(ex.getMessage().startsWith(PREFIX + "source array is null"), ex.getMessage());
        assertThrows(NullPointerException.class, () -> Checks.checkArrayStrided(PREFIX, "source", null, 0, 5, 1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> Checks.checkArray(PREFIX, "source", new int[4], 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> Checks.checkArray(PREFIX, "source", new int[4], -1, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> Checks.checkArray(PREFIX, "source", new int[4], 0, Long.MAX_VALUE));
    }
}
