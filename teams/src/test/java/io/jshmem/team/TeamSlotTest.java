package io.jshmem.team;

import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricMemory;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The slot layout: sizes padded to 64-byte cache lines, the four areas in order without overlap inside
 * their slot, slots back to back in the pool, and clear() zeroing one slot and nothing else.
 */
class TeamSlotTest
{
    @Test
    void alignRoundsUpToWholeCacheLines()
    {
        assertEquals(0, TeamSlot.align(0));
        assertEquals(64, TeamSlot.align(1));
        assertEquals(64, TeamSlot.align(63));
        assertEquals(64, TeamSlot.align(64));
        assertEquals(128, TeamSlot.align(65));
        assertEquals(1L << 40, TeamSlot.align((1L << 40) - 5), "no int overflow for large scratch");
    }

    @Test
    void areaSizesForWorldSizes()
    {
        assertEquals(64, TeamSlot.sigBytes(1), "one long padded to a line");
        assertEquals(64, TeamSlot.sigBytes(8));
        assertEquals(128, TeamSlot.sigBytes(9));
        assertEquals(64, TeamSlot.smallBytes(2), "2 halves x 2 longs x 2 members");
        assertEquals(128, TeamSlot.smallBytes(3));
        assertEquals(64 + 64 + 64 + 0, TeamSlot.slotBytes(1, 0));
        assertEquals(128 + 64 + 320 + 4096, TeamSlot.slotBytes(10, 4096));
        assertEquals(64 + 64 + 64 + 128, TeamSlot.slotBytes(2, 100), "scratch padded too");
        for (int n = 1; n <= 300; n++)
        {
            for (final long scratch : new long[] {0, 1, 100, 4096, 1 << 20})
            {
                final long bytes = TeamSlot.slotBytes(n, scratch);
                assertEquals(0, bytes % 64, "n=" + n + " scratch=" + scratch);
                assertTrue(bytes >= 8L * n + TeamSlot.ARRIVED_BYTES + 32L * n + scratch);
                assertTrue(bytes < 8L * n + TeamSlot.ARRIVED_BYTES + 32L * n + scratch + 3 * 64);
            }
        }
    }

    @Test
    void slotsLieBackToBackAndTheirAreasInOrderWithoutOverlap()
    {
        final int n = 5;
        final long scratch = 1000;
        final long slotBytes = TeamSlot.slotBytes(n, scratch);
        final int slots = 3;
        final long poolOffset = 256;
        final Loopback.Pe pe = new Loopback(1, poolOffset + slots * slotBytes + 64).pes[0];
        final SymmetricMemory pool = pe.memory(poolOffset, slots * slotBytes);
        for (int index = 0; index < slots; index++)
        {
            final TeamSlot slot = TeamSlot.of(pool, index, n, scratch);
            final long base = poolOffset + index * slotBytes;
            assertEquals(index, slot.index());
            assertArea("region", slot.region(), base, slotBytes);
            assertArea("sig", slot.sig(), base, 8L * n);
            assertArea("arrived", slot.arrived(), base + 64, 8);
            assertArea("small", slot.small(), base + 64 + 64, 32L * n);
            assertArea("scratch", slot.scratch(), base + 64 + 64 + 192, 1024);
            assertEquals(n, slot.sig().length());
            assertEquals(1, slot.arrived().length());
            assertEquals(4L * n, slot.small().length());
            assertEquals(base + slotBytes, slot.scratch().offset() + slot.scratch().byteSize(), "scratch ends the slot");
            for (final SymmetricArray<?> a : new SymmetricArray<?>[] {slot.sig(), slot.arrived(), slot.small(), slot.scratch()})
            {
                assertEquals(0, a.offset() % 64, a + " starts on a cache line");
            }
        }
    }

    private static void assertArea(final String what, final SymmetricArray<?> a, final long offset, final long bytes)
    {
        assertEquals(offset, a.offset(), what + " offset");
        assertEquals(bytes, a.byteSize(), what + " bytes");
    }

    @Test
    void aSlotPastThePoolIsRefused()
    {
        final long slotBytes = TeamSlot.slotBytes(4, 128);
        final Loopback.Pe pe = new Loopback(1, 4 * slotBytes).pes[0];
        final SymmetricMemory pool = pe.memory(0, 2 * slotBytes);
        TeamSlot.of(pool, 1, 4, 128);
        assertThrows(IndexOutOfBoundsException.class, () -> TeamSlot.of(pool, 2, 4, 128));
        assertThrows(IndexOutOfBoundsException.class, () -> TeamSlot.of(pool, 0, 4, 4096), "a scratch larger than the pool");
    }

    @Test
    void clearZeroesThisSlotOnly()
    {
        final int n = 3;
        final long slotBytes = TeamSlot.slotBytes(n, 256);
        final Loopback.Pe pe = new Loopback(1, 3 * slotBytes).pes[0];
        pe.heap.fill((byte)0x5a);
        final SymmetricMemory pool = pe.memory(0, 3 * slotBytes);
        final TeamSlot middle = TeamSlot.of(pool, 1, n, 256);
        middle.sig().setLocal(2, 77);
        middle.clear();
        for (long o = 0; o < 3 * slotBytes; o++)
        {
            final byte expected = o >= slotBytes && o < 2 * slotBytes ? 0 : (byte)0x5a;
            assertEquals(expected, pe.heap.get(ValueLayout.JAVA_BYTE, o), "byte " + o);
        }
        assertEquals(0, middle.sig().getLocal(2));
    }
}
