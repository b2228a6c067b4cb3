package io.jshmem.team;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Split arithmetic against the definitions: a triplet's members by enumeration, split_2d's rows and
 * columns as the PEs with equal {@code pe div xrange} / {@code pe mod xrange}, mesh dimensions as the
 * PEs whose other coordinates are equal, and translation through a parent as composition. Random
 * triplets; the seed is printed (rerun one with -Djshmem.test.seed=N).
 */
class SplitsTest
{
    private static final long SEED = Long.getLong("jshmem.test.seed", System.nanoTime());

    /** The definition: members start + i*stride for i in [0, size), each in [0, n). */
    private static List<Integer> members(final int n, final int start, final int stride, final int size)
    {
        final List<Integer> m = new ArrayList<>();
        for (int i = 0; i < size; i++)
        {
            m.add(start + i * stride);
        }
        return m;
    }

    private static boolean validByDefinition(final int n, final int start, final int stride, final int size)
    {
        if (size < 1 || stride == 0 && size != 1)
        {
            return false;
        }
        for (final int p : members(n, start, stride, size))
        {
            if (p < 0 || p >= n)
            {
                return false;
            }
        }
        return true;
    }

    @Test
    void randomTripletsAreCheckedAndIndexedAsDefined()
    {
        System.out.println("SplitsTest seed=" + SEED);
        final Random random = new Random(SEED);
        int valid = 0;
        for (int round = 0; round < 20_000; round++)
        {
            final int n = 1 + random.nextInt(20);
            final int start = random.nextInt(n + 4) - 2;
            final int stride = random.nextInt(13) - 6;
            final int size = random.nextInt(n + 3) - 1;
            final String what = "n=" + n + " (" + start + ", " + stride + ", " + size + ")";
            final String bad = Splits.checkTriplet(n, start, stride, size);
            if (!validByDefinition(n, start, stride, size))
            {
                assertNotNull(bad, what + " must be rejected");
                continue;
            }
            valid++;
            assertNull(bad, what + " is valid");
            final Triplet t = new Triplet(start, stride, size);
            final List<Integer> m = members(n, start, stride, size);
            for (int p = -2; p < n + 2; p++)
            {
                assertEquals(m.indexOf(p), t.indexOf(p), what + " index of PE " + p);
            }
            for (int i = 0; i < size; i++)
            {
                assertEquals(m.get(i), t.pe(i), what + " member " + i);
            }
        }
        assertTrue(valid > 1000, "only " + valid + " valid triplets drawn");
    }

    @Test
    void splitOfASplitTranslatesThroughItsParent()
    {
        final Random random = new Random(SEED + 1);
        int checked = 0;
        while (checked < 5000)
        {
            final int n = 1 + random.nextInt(32);
            final Triplet parent = randomValid(random, n);
            final Triplet child = randomValid(random, parent.size());
            final Triplet world = child.in(parent);
            for (int i = 0; i < child.size(); i++)
            {
                // the definition: child member i is parent member child.pe(i), which is WORLD PE parent.pe(that)
                final int w = parent.pe(child.pe(i));
                assertEquals(w, world.pe(i), child + " in " + parent);
                assertEquals(i, world.indexOf(w), "translate WORLD " + w + " into " + world);
            }
            for (int w = 0; w < n; w++)
            {
                final int inParent = parent.indexOf(w);
                final int expected = inParent < 0 ? -1 : child.indexOf(inParent);
                assertEquals(expected, world.indexOf(w), "WORLD PE " + w + " in " + child + " of " + parent);
            }
            checked++;
        }
    }

    private static Triplet randomValid(final Random random, final int n)
    {
        while (true)
        {
            final int start = random.nextInt(n);
            final int stride = random.nextInt(9) - 4;
            final int size = 1 + random.nextInt(n);
            if (Splits.checkTriplet(n, start, stride, size) == null)
            {
                return new Triplet(start, stride, size);
            }
        }
    }

    @Test
    void split2dRowsAndColumnsAreAsDefined()
    {
        for (int n = 1; n <= 24; n++)
        {
            for (int xrange = 1; xrange <= n; xrange++)
            {
                for (int p = 0; p < n; p++)
                {
                    final Triplet row = Splits.row(n, xrange, p);
                    final Triplet col = Splits.column(n, xrange, p);
                    final List<Integer> rowDef = new ArrayList<>();
                    final List<Integer> colDef = new ArrayList<>();
                    for (int q = 0; q < n; q++)
                    {
                        if (q / xrange == p / xrange)
                        {
                            rowDef.add(q);
                        }
                        if (q % xrange == p % xrange)
                        {
                            colDef.add(q);
                        }
                    }
                    final String what = "n=" + n + " xrange=" + xrange + " pe " + p;
                    assertEquals(rowDef, list(row), what + " row");
                    assertEquals(colDef, list(col), what + " column");
                    assertEquals(p % xrange, row.indexOf(p), what + " x");
                    assertEquals(p / xrange, col.indexOf(p), what + " y");
                    assertNull(Splits.checkTriplet(n, row.start(), row.stride(), row.size()), what + " row is a valid triplet");
                    assertNull(Splits.checkTriplet(n, col.start(), col.stride(), col.size()), what + " column is a valid triplet");
                }
            }
        }
    }

    @Test
    void meshDimensionsAreThePesThatDifferInOneCoordinate()
    {
        final Random random = new Random(SEED + 2);
        for (int round = 0; round < 300; round++)
        {
            final int[] shape = new int[1 + random.nextInt(4)];
            int n = 1;
            for (int d = 0; d < shape.length; d++)
            {
                shape[d] = 1 + random.nextInt(4);
                n *= shape[d];
            }
            for (int p = 0; p < n; p++)
            {
                final int[] c = Splits.coordinates(shape, p);
                int back = 0;
                for (int d = 0; d < shape.length; d++)
                {
                    assertTrue(c[d] >= 0 && c[d] < shape[d]);
                    back = back * shape[d] + c[d];
                }
                assertEquals(p, back, "row-major coordinates of " + p + " in " + Arrays.toString(shape));
                for (int d = 0; d < shape.length; d++)
                {
                    final List<Integer> def = new ArrayList<>();
                    for (int k = 0; k < shape[d]; k++)
                    {
                        for (int q = 0; q < n; q++)
                        {
                            final int[] cq = Splits.coordinates(shape, q);
                            boolean same = cq[d] == k;
                            for (int e = 0; e < shape.length && same; e++)
                            {
                                same = e == d || cq[e] == c[e];
                            }
                            if (same)
                            {
                                def.add(q);
                            }
                        }
                    }
                    final Triplet t = Splits.meshDimension(shape, p, d);
                    assertEquals(def, list(t), "dimension " + d + " of pe " + p + " in " + Arrays.toString(shape));
                    assertEquals(c[d], t.indexOf(p));
                }
            }
        }
    }

    private static List<Integer> list(final Triplet t)
    {
        final List<Integer> m = new ArrayList<>();
        for (int i = 0; i < t.size(); i++)
        {
            m.add(t.pe(i));
        }
        return m;
    }
}
