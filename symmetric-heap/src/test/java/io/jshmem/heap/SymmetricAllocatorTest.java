package io.jshmem.heap;

import io.jshmem.CollectiveMismatchException;
import io.jshmem.HeapExhaustedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SymmetricAllocatorTest
{
    private static final long CAPACITY = 256 * 1024;
    private static final long[] ALIGNMENTS = {8, 16, 64, 128, 256, 1024, 4096};

    /** One call of a random sequence and what it returned, so a second allocator can replay it. */
    private record Step(int op, long offset, long size, long alignment, long result, boolean failed)
    {
    }

    private record Live(long size, long alignment)
    {
    }

    @ParameterizedTest(name = "seed={0}")
    @ValueSource(longs = {1, 2, 3, 42, 0xC0FFEE, 20261122})
    void randomSequencesAreDeterministicAndKeepInvariants(final long seed)
    {
        System.out.println("SymmetricAllocatorTest seed=" + seed);
        final Random rnd = new Random(seed);
        final SymmetricAllocator a = new SymmetricAllocator(CAPACITY);
        final TreeMap<Long, Live> live = new TreeMap<>();
        final List<Step> steps = new ArrayList<>();
        int exhaustions = 0;
        int moves = 0;

        for (int i = 0; i < 3000; i++)
        {
            final int dice = rnd.nextInt(10);
            if (live.isEmpty() || dice < 5)
            {
                final long size = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(64 * 1024) : 1 + rnd.nextInt(2048);
                final long align = ALIGNMENTS[rnd.nextInt(ALIGNMENTS.length)];
                try
                {
                    final long off = a.allocate(size, align);
                    live.put(off, new Live(size, align));
                    steps.add(new Step(SymmetricAllocator.OP_ALLOCATE, -1, size, align, off, false));
                }
                catch (final HeapExhaustedException e)
                {
                    exhaustions++;
                    steps.add(new Step(SymmetricAllocator.OP_ALLOCATE, -1, size, align, -1, true));
                }
            }
            else if (dice < 8)
            {
                final long off = pick(live, rnd);
                a.free(off);
                live.remove(off);
                steps.add(new Step(SymmetricAllocator.OP_FREE, off, 0, 0, 0, false));
            }
            else
            {
                final long off = pick(live, rnd);
                final long newSize = 1 + rnd.nextInt(rnd.nextBoolean() ? 512 : 8192);
                final Live old = live.get(off);
                try
                {
                    final SymmetricAllocator.Reallocation r = a.reallocate(off, newSize);
                    assertEquals(old.size(), r.oldSize());
                    assertEquals(r.moved(), r.newOffset() != off);
                    steps.add(new Step(SymmetricAllocator.OP_REALLOCATE, off, newSize, 0, r.newOffset(), false));
                    if (r.moved())
                    {
                        moves++;
                        assertTrue(a.isAllocated(off), "old block stays allocated until the caller frees it");
                        live.put(r.newOffset(), new Live(newSize, old.alignment()));
                        checkInvariants(a, live);
                        a.free(off);
                        live.remove(off);
                        steps.add(new Step(SymmetricAllocator.OP_FREE, off, 0, 0, 0, false));
                    }
                    else
                    {
                        live.put(off, new Live(newSize, old.alignment()));
                    }
                }
                catch (final HeapExhaustedException e)
                {
                    exhaustions++;
                    assertEquals(old.size(), a.sizeOf(off), "failed reallocate leaves the block as it was");
                    steps.add(new Step(SymmetricAllocator.OP_REALLOCATE, off, newSize, 0, -1, true));
                }
            }
            checkInvariants(a, live);
        }
        assertTrue(exhaustions > 0 && moves > 0,
            "the sequence should exercise exhaustion and moves: exhaustions=" + exhaustions + " moves=" + moves);

        final SymmetricAllocator replay = new SymmetricAllocator(CAPACITY);
        for (int i = 0; i < steps.size(); i++)
        {
            final Step s = steps.get(i);
            final String where = "step " + i + " " + s + " seed=" + seed;
            switch (s.op())
            {
                case SymmetricAllocator.OP_ALLOCATE ->
                {
                    if (s.failed())
                    {
                        assertThrows(HeapExhaustedException.class, () -> replay.allocate(s.size(), s.alignment()), where);
                    }
                    else
                    {
                        assertEquals(s.result(), replay.allocate(s.size(), s.alignment()), where);
                    }
                }
                case SymmetricAllocator.OP_FREE -> replay.free(s.offset());
                default ->
                {
                    if (s.failed())
                    {
                        assertThrows(HeapExhaustedException.class, () -> replay.reallocate(s.offset(), s.size()), where);
                    }
                    else
                    {
                        assertEquals(s.result(), replay.reallocate(s.offset(), s.size()).newOffset(), where);
                    }
                }
            }
        }
        assertEquals(a.callCount(), replay.callCount());
        assertEquals(a.callHash(), replay.callHash());
        assertEquals(a.usedBytes(), replay.usedBytes());

        for (final long off : new ArrayList<>(live.keySet()))
        {
            a.free(off);
        }
        assertEquals(0, a.usedBytes());
        assertEquals(CAPACITY, a.freeBytes());
        assertEquals(1, a.freeBlockCount(), "freeing everything coalesces back to one block");
        assertEquals(CAPACITY, a.largestFreeBlock());
        assertEquals(0, a.allocatedCount());
    }

    private static long pick(final TreeMap<Long, Live> live, final Random rnd)
    {
        final int index = rnd.nextInt(live.size());
        return live.keySet().stream().skip(index).findFirst().orElseThrow();
    }

    private static void checkInvariants(final SymmetricAllocator a, final TreeMap<Long, Live> live)
    {
        final long granule = a.minAlignment();
        long used = 0;
        long prevEnd = 0;
        for (final Map.Entry<Long, Live> e : live.entrySet())
        {
            final long off = e.getKey();
            final long block = (e.getValue().size() + granule - 1) / granule * granule;
            assertTrue(off >= prevEnd, "blocks overlap: offset " + off + " starts before previous end " + prevEnd);
            assertEquals(0, off % Math.max(granule, e.getValue().alignment()),
                "offset " + off + " violates alignment " + e.getValue().alignment());
            assertTrue(off + block <= a.capacity(), "block at " + off + " of " + block + " past capacity");
            assertTrue(a.isAllocated(off));
            assertEquals(e.getValue().size(), a.sizeOf(off));
            prevEnd = off + block;
            used += block;
        }
        assertEquals(live.size(), a.allocatedCount());
        assertEquals(used, a.usedBytes());
        assertEquals(a.capacity(), a.usedBytes() + a.freeBytes());
        assertTrue(a.largestFreeBlock() <= a.freeBytes());
    }

    @Test
    void exhaustionLeavesStateUnchangedAndExplains()
    {
        final SymmetricAllocator a = new SymmetricAllocator(64 * 1024);
        final long first = a.allocate(40 * 1024);
        a.allocate(8 * 1024);
        final long used = a.usedBytes();
        final long free = a.freeBytes();
        final long largest = a.largestFreeBlock();
        final int blocks = a.allocatedCount();
        final int freeBlocks = a.freeBlockCount();

        final HeapExhaustedException e = assertThrows(HeapExhaustedException.class, () -> a.allocate(32 * 1024));
        assertEquals(32 * 1024, e.requestedBytes());
        assertEquals(used, e.usedBytes());
        assertEquals(free, e.freeBytes());
        final String m = e.getMessage();
        assertTrue(m.contains(Long.toString(32 * 1024)), m);
        assertTrue(m.contains("used=" + used), m);
        assertTrue(m.contains("free=" + free), m);
        assertTrue(m.contains("largest free block=" + largest), m);
        assertTrue(m.contains("SHMEM_SYMMETRIC_SIZE"), m);

        assertThrows(HeapExhaustedException.class, () -> a.reallocate(first, 60 * 1024));
        assertThrows(HeapExhaustedException.class, () -> a.allocate(Long.MAX_VALUE / 2));
        assertEquals(used, a.usedBytes());
        assertEquals(largest, a.largestFreeBlock());
        assertEquals(blocks, a.allocatedCount());
        assertEquals(freeBlocks, a.freeBlockCount());
        assertEquals(40 * 1024, a.sizeOf(first));
        // The next successful call lands where it would have without the failures.
        final SymmetricAllocator b = new SymmetricAllocator(64 * 1024);
        b.allocate(40 * 1024);
        b.allocate(8 * 1024);
        assertEquals(b.allocate(1000), a.allocate(1000));
    }

    @Test
    void fragmentedHeapSaysSo()
    {
        final SymmetricAllocator a = new SymmetricAllocator(4096);
        final long[] offs = new long[8];
        for (int i = 0; i < 8; i++)
        {
            offs[i] = a.allocate(512);
        }
        for (int i = 0; i < 8; i += 2)
        {
            a.free(offs[i]);
        }
        assertEquals(2048, a.freeBytes());
        assertEquals(512, a.largestFreeBlock());
        final HeapExhaustedException e = assertThrows(HeapExhaustedException.class, () -> a.allocate(1024));
        assertTrue(e.getMessage().contains("fragmented"), e.getMessage());
    }

    @Test
    void freeOfUnknownOrFreedOffsetNamesTheOffset()
    {
        final SymmetricAllocator a = new SymmetricAllocator(4096);
        final long off = a.allocate(100);
        final long other = a.allocate(100);
        assertEquals(64, other - off - 64, "100 bytes round up to two 64-byte granules");
        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> a.free(off + 64));
        assertTrue(unknown.getMessage().contains("offset=" + (off + 64)), unknown.getMessage());
        a.free(off);
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> a.free(off));
        assertTrue(twice.getMessage().contains("offset=" + off), twice.getMessage());
        assertFalse(a.isAllocated(off));
        assertThrows(IllegalArgumentException.class, () -> a.sizeOf(off));
        assertThrows(IllegalArgumentException.class, () -> a.reallocate(off, 10));
    }

    @Test
    void rejectsBadArguments()
    {
        final SymmetricAllocator a = new SymmetricAllocator(4096);
        assertThrows(IllegalArgumentException.class, () -> a.allocate(0));
        assertThrows(IllegalArgumentException.class, () -> a.allocate(-1));
        assertThrows(IllegalArgumentException.class, () -> a.allocate(8, 4));
        assertThrows(IllegalArgumentException.class, () -> a.allocate(8, 24));
        assertThrows(IllegalArgumentException.class, () -> new SymmetricAllocator(0));
        assertThrows(IllegalArgumentException.class, () -> new SymmetricAllocator(4096, 12));
        final long off = a.allocate(8);
        assertThrows(IllegalArgumentException.class, () -> a.reallocate(off, 0));
        assertEquals(1, a.callCount(), "malformed calls are not counted");
    }

    @Test
    void alignmentPaddingStaysFree()
    {
        final SymmetricAllocator a = new SymmetricAllocator(64 * 1024);
        assertEquals(0, a.allocate(8));
        assertEquals(4096, a.allocate(8, 4096));
        assertEquals(64, a.allocate(64), "the padding before the aligned block is reused");
        assertEquals(128, a.allocate(8, 16), "minimum alignment 64 still applies");
    }

    @Test
    void reallocateShrinksAndGrowsInPlaceThenMoves()
    {
        final SymmetricAllocator a = new SymmetricAllocator(64 * 1024);
        final long x = a.allocate(1024);
        final long used = a.usedBytes();

        final SymmetricAllocator.Reallocation shrink = a.reallocate(x, 100);
        assertEquals(new SymmetricAllocator.Reallocation(x, false, 1024), shrink);
        assertEquals(used - 1024 + 128, a.usedBytes());
        assertEquals(1, a.freeBlockCount(), "the released tail merges with the free space after it");

        final SymmetricAllocator.Reallocation grow = a.reallocate(x, 4000);
        assertEquals(new SymmetricAllocator.Reallocation(x, false, 100), grow);
        assertEquals(4000, a.sizeOf(x));

        final long y = a.allocate(64);
        assertEquals(4032, y);
        final SymmetricAllocator.Reallocation move = a.reallocate(x, 5000);
        assertTrue(move.moved());
        assertEquals(4000, move.oldSize());
        assertTrue(a.isAllocated(x) && a.isAllocated(move.newOffset()));
        assertTrue(move.newOffset() >= y + 64);
        a.free(x);
        assertEquals(5000, a.sizeOf(move.newOffset()));
    }

    @Test
    void callHashDiffersWhenOneSizeDiffers()
    {
        final long[] sizes = {100, 200, 300, 400};
        final SymmetricAllocator p0 = new SymmetricAllocator(1 << 20);
        final SymmetricAllocator p1 = new SymmetricAllocator(1 << 20);
        final SymmetricAllocator p2 = new SymmetricAllocator(1 << 20);
        for (int i = 0; i < sizes.length; i++)
        {
            p0.allocate(sizes[i]);
            p1.allocate(sizes[i]);
            p2.allocate(i == 2 ? 301 : sizes[i]);
        }
        assertEquals(p0.callHash(), p1.callHash());
        assertEquals(p0.callCount(), p2.callCount());
        assertNotEquals(p0.callHash(), p2.callHash(), "301 and 300 round to the same block but are different calls");

        final SymmetricAllocator order = new SymmetricAllocator(1 << 20);
        order.allocate(200);
        order.allocate(100);
        order.allocate(300);
        order.allocate(400);
        assertNotEquals(p0.callHash(), order.callHash(), "order matters");

        final SymmetricAllocator aligned = new SymmetricAllocator(1 << 20);
        aligned.allocate(100, 128);
        final SymmetricAllocator plain = new SymmetricAllocator(1 << 20);
        plain.allocate(100, 64);
        assertNotEquals(aligned.callHash(), plain.callHash(), "alignment matters");

        final long[] hashes = {p0.callHash(), p1.callHash(), p2.callHash(), order.callHash()};
        final long[] counts = {p0.callCount(), p1.callCount(), p2.callCount(), order.callCount()};
        final String msg = SymmetricAllocator.describeMismatch(hashes, counts).orElseThrow();
        assertTrue(msg.contains("pe 2") && msg.contains("pe 3") && !msg.contains("pe 1 "), msg);
        assertTrue(msg.contains("2 PE(s) differ"), msg);
        assertThrows(CollectiveMismatchException.class, () -> SymmetricAllocator.checkCallsMatch(hashes, counts));
        assertTrue(SymmetricAllocator.describeMismatch(
            new long[] {hashes[0], hashes[1]}, new long[] {counts[0], counts[1]}).isEmpty());
        final String countOnly = SymmetricAllocator.describeMismatch(
            new long[] {7, 7, 7}, new long[] {4, 4, 5}).orElseThrow();
        assertTrue(countOnly.contains("pe 2 (5 calls") && countOnly.contains("pe 0 made 4 calls"), countOnly);
    }
}
