package io.jshmem.team;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Triplet arithmetic on hand-picked cases (SplitsTest checks random valid triplets against the
 * definition): negative strides, the zero stride of a one-member team, PEs between or beyond the
 * members, the empty triplet, and translation through parents with negative strides.
 */
class TripletTest
{
    @Test
    void membersAreStartPlusIndexTimesStride()
    {
        final Triplet t = new Triplet(3, 4, 3);
        assertEquals(3, t.pe(0));
        assertEquals(7, t.pe(1));
        assertEquals(11, t.pe(2));
        assertEquals(15, t.pe(3), "pe() does no range check: member 3 of a 3-member triplet is the next in the progression");
        assertEquals(-1, t.pe(-1));
    }

    @Test
    void negativeStridesListPesInDecreasingOrder()
    {
        final Triplet t = new Triplet(9, -3, 4);
        assertEquals(9, t.pe(0));
        assertEquals(0, t.pe(3));
        assertEquals(0, t.indexOf(9));
        assertEquals(1, t.indexOf(6));
        assertEquals(3, t.indexOf(0));
        assertEquals(-1, t.indexOf(12), "one step before the start");
        assertEquals(-1, t.indexOf(-3), "one step past the last member");
        assertEquals(-1, t.indexOf(7), "between members");
        assertEquals(-1, t.indexOf(8));
        assertEquals(-1, t.indexOf(-1), "between members below zero: -1 - 9 = -10 is not a multiple of -3");
    }

    @Test
    void pesOffTheProgressionOrOutsideTheSizeAreNotMembers()
    {
        final Triplet t = new Triplet(2, 2, 3); // 2, 4, 6
        assertEquals(-1, t.indexOf(0), "on the progression but before the start");
        assertEquals(-1, t.indexOf(1));
        assertEquals(-1, t.indexOf(3));
        assertEquals(-1, t.indexOf(8), "on the progression but past the size");
        assertEquals(2, t.indexOf(6));
        assertEquals(-1, t.indexOf(-2));
        assertEquals(-1, t.indexOf(Integer.MIN_VALUE));
        assertEquals(-1, t.indexOf(Integer.MAX_VALUE));
    }

    @Test
    void zeroStrideHasOneMemberAndAnEmptyTripletNone()
    {
        final Triplet one = new Triplet(5, 0, 1);
        assertEquals(0, one.indexOf(5));
        assertEquals(-1, one.indexOf(4));
        assertEquals(-1, one.indexOf(6));
        assertEquals(5, one.pe(0));
        assertEquals(-1, new Triplet(5, 0, 0).indexOf(5), "size 0 with stride 0");
        assertEquals(-1, new Triplet(5, 1, 0).indexOf(5), "size 0");
        assertEquals(-1, new Triplet(5, -1, 0).indexOf(5), "size 0, negative stride");
    }

    @Test
    void strideOneIsTheContiguousRange()
    {
        final Triplet t = new Triplet(0, 1, 8);
        for (int p = 0; p < 8; p++)
        {
            assertEquals(p, t.indexOf(p));
            assertEquals(p, t.pe(p));
        }
        assertEquals(-1, t.indexOf(8));
        assertEquals(-1, t.indexOf(-1));
    }

    @Test
    void aChildInAParentIsComposedWithTheParentsNumbering()
    {
        // WORLD 0..15; parent = odd PEs downwards 15, 13, ..., 1; child = its members 1, 3, 5 (WORLD 13, 9, 5)
        final Triplet parent = new Triplet(15, -2, 8);
        final Triplet child = new Triplet(1, 2, 3);
        final Triplet world = child.in(parent);
        assertEquals(new Triplet(13, -4, 3), world);
        assertEquals(1, world.indexOf(9));
        // a reversing child of a reversing parent lists WORLD in increasing order
        final Triplet reversed = new Triplet(7, -1, 8).in(parent);
        assertEquals(new Triplet(1, 2, 8), reversed);
        // a one-member child keeps its zero stride and lands on the parent's member
        assertEquals(new Triplet(11, 0, 1), new Triplet(2, 0, 1).in(parent));
        // the identity of WORLD changes nothing
        assertEquals(child, child.in(new Triplet(0, 1, 16)));
    }

    @Test
    void recordsAreValues()
    {
        assertEquals(new Triplet(1, 2, 3), new Triplet(1, 2, 3));
        assertEquals(new Triplet(1, 2, 3).hashCode(), new Triplet(1, 2, 3).hashCode());
        assertEquals("Triplet[start=1, stride=2, size=3]", new Triplet(1, 2, 3).toString());
    }
}
