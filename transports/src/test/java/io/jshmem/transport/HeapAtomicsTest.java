package io.jshmem.transport;

import io.jshmem.AtomicOp;
import io.jshmem.SignalOp;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every atomic of {@link HeapAtomics} on 4- and 8-byte words against a reference model (edge values,
 * sign extension of 4-byte results, truncation of 4-byte operands, neighbours untouched), misaligned
 * and out-of-heap offsets refused, signals and fetch stores, and exact results when threads hammer one
 * word (the atomicity domain the p2p path and the proxy's target side share).
 */
class HeapAtomicsTest
{
    private static final long[] EDGES = {0, 1, -1, 2, Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFF_FFFFL, 0x1_0000_0000L,
        Long.MAX_VALUE, Long.MIN_VALUE, 0x5555_5555_5555_5555L, 0xAAAA_AAAA_0F0F_F0F0L};
    /** A word's neighbours hold this: a 4- or 8-byte atomic must not touch them. */
    private static final byte SENTINEL = (byte)0xC3;
    private static final long WORD = 64;

    private Arena arena;
    private MemorySegment heap;

    @BeforeEach
    void map()
    {
        arena = Arena.ofShared();
        heap = arena.allocate(4096, 64);
    }

    @AfterEach
    void unmap()
    {
        arena.close();
    }

    /** The definition of each op on a word of {@code bytes}: {new word, returned old value} (old sign-extended). */
    private static long[] model(final AtomicOp op, final int bytes, final long word, final long value, final long cond)
    {
        final long old = bytes == 4 ? (int)word : word;
        final long v = bytes == 4 ? (int)value : value;
        final long c = bytes == 4 ? (int)cond : cond;
        final long next = switch (op)
        {
            case FETCH -> old;
            case SET, SWAP -> v;
            case COMPARE_SWAP -> old == c ? v : old;
            case FETCH_INC, INC, FETCH_ADD, ADD -> old + v;
            case FETCH_AND, AND -> old & v;
            case FETCH_OR, OR -> old | v;
            case FETCH_XOR, XOR -> old ^ v;
        };
        return new long[] {bytes == 4 ? (int)next : next, op == AtomicOp.SET ? 0 : old};
    }

    private static boolean fetches(final AtomicOp op)
    {
        return switch (op)
        {
            case FETCH, SET, SWAP, COMPARE_SWAP, FETCH_INC, FETCH_ADD, FETCH_AND, FETCH_OR, FETCH_XOR -> true;
            default -> false;
        };
    }

    private long word(final int bytes, final long offset)
    {
        return bytes == 8 ? heap.get(ValueLayout.JAVA_LONG, offset) : heap.get(ValueLayout.JAVA_INT, offset);
    }

    private void setWord(final int bytes, final long offset, final long v)
    {
        if (bytes == 8)
        {
            heap.set(ValueLayout.JAVA_LONG, offset, v);
        }
        else
        {
            heap.set(ValueLayout.JAVA_INT, offset, (int)v);
        }
    }

    private void assertNeighboursUntouched(final int bytes, final String what)
    {
        for (long o = WORD - 16; o < WORD + bytes + 16; o++)
        {
            if (o < WORD || o >= WORD + bytes)
            {
                assertEquals(SENTINEL, heap.get(ValueLayout.JAVA_BYTE, o), what + ": byte " + o + " next to the word changed");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(AtomicOp.class)
    void everyOpOnEveryWidthMatchesTheModelOnEdgeValues(final AtomicOp op)
    {
        for (final int bytes : new int[] {4, 8})
        {
            for (final long initial : EDGES)
            {
                for (final long value : EDGES)
                {
                    // compare_swap: once with the word as comparand (swaps), once with another value (does not)
                    for (final long cond : new long[] {initial, initial + 1, value})
                    {
                        heap.asSlice(WORD - 16, bytes + 32).fill(SENTINEL);
                        setWord(bytes, WORD, initial);
                        final long[] expected = model(op, bytes, initial, value, cond);
                        final String what = op + " bytes=" + bytes + " word=" + initial + " value=" + value + " cond=" + cond;
                        final long returned = HeapAtomics.apply(heap, op, bytes, WORD, value, cond);
                        assertEquals(expected[0], word(bytes, WORD), what + ": the word after");
                        if (fetches(op))
                        {
                            assertEquals(expected[1], returned, what + ": the value returned");
                        }
                        assertNeighboursUntouched(bytes, what);
                    }
                }
            }
        }
    }

    @Test
    void fourByteResultsAreSignExtendedAndOperandsTruncated()
    {
        heap.set(ValueLayout.JAVA_INT, 8, 0xFFFF_FFFF);
        assertEquals(-1L, HeapAtomics.apply(heap, AtomicOp.FETCH, 4, 8, 0, 0));
        heap.set(ValueLayout.JAVA_INT, 8, Integer.MIN_VALUE);
        assertEquals(Integer.MIN_VALUE, HeapAtomics.apply(heap, AtomicOp.SWAP, 4, 8, 0x7_0000_0005L, 0), "old sign-extended");
        assertEquals(5, heap.get(ValueLayout.JAVA_INT, 8), "the high half of a 4-byte operand is dropped");
        assertEquals(5, HeapAtomics.apply(heap, AtomicOp.FETCH_ADD, 4, 8, 0x1_0000_0001L, 0));
        assertEquals(6, heap.get(ValueLayout.JAVA_INT, 8));
        assertEquals(6, HeapAtomics.apply(heap, AtomicOp.COMPARE_SWAP, 4, 8, 9, 0xF_0000_0006L), "the comparand is truncated too");
        assertEquals(9, heap.get(ValueLayout.JAVA_INT, 8));
        heap.set(ValueLayout.JAVA_INT, 8, Integer.MAX_VALUE);
        HeapAtomics.apply(heap, AtomicOp.INC, 4, 8, 1, 0);
        assertEquals(Integer.MIN_VALUE, heap.get(ValueLayout.JAVA_INT, 8), "4-byte adds wrap at 32 bits");
        heap.set(ValueLayout.JAVA_LONG, 16, Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, HeapAtomics.apply(heap, AtomicOp.FETCH_INC, 8, 16, 1, 0));
        assertEquals(Long.MIN_VALUE, heap.get(ValueLayout.JAVA_LONG, 16), "8-byte adds wrap at 64 bits");
    }

    @Test
    void misalignedAndOutOfHeapOffsetsAreRefusedAndChangeNothing()
    {
        final byte[] before = heap.toArray(ValueLayout.JAVA_BYTE);
        for (final AtomicOp op : AtomicOp.values())
        {
            for (final long offset : new long[] {1, 2, 3, 4, 5, 6, 7})
            {
                assertThrows(IllegalArgumentException.class, () -> HeapAtomics.apply(heap, op, 8, offset, 1, 0), op + " 8 bytes at " + offset);
            }
            for (final long offset : new long[] {1, 2, 3, 6})
            {
                assertThrows(IllegalArgumentException.class, () -> HeapAtomics.apply(heap, op, 4, offset, 1, 0), op + " 4 bytes at " + offset);
            }
            assertThrows(IndexOutOfBoundsException.class, () -> HeapAtomics.apply(heap, op, 8, heap.byteSize(), 1, 0), op + " past the end");
            assertThrows(IndexOutOfBoundsException.class, () -> HeapAtomics.apply(heap, op, 4, heap.byteSize() - 2, 1, 0),
                op + " straddling the end");
            assertThrows(IndexOutOfBoundsException.class, () -> HeapAtomics.apply(heap, op, 8, -8, 1, 0), op + " before the start");
        }
        assertThrows(IllegalArgumentException.class, () -> HeapAtomics.signal(heap, 4, 1, SignalOp.SET));
        assertThrows(IllegalArgumentException.class, () -> HeapAtomics.signal(heap, 12, 1, SignalOp.ADD));
        assertThrows(IndexOutOfBoundsException.class, () -> HeapAtomics.signal(heap, heap.byteSize(), 1, SignalOp.ADD));
        assertTrue(Arrays.equals(before, heap.toArray(ValueLayout.JAVA_BYTE)), "a refused atomic wrote into the heap");
    }

    @Test
    void signalsSetOrAddTheWholeWord()
    {
        heap.set(ValueLayout.JAVA_LONG, 24, 40);
        HeapAtomics.signal(heap, 24, 2, SignalOp.ADD);
        assertEquals(42, heap.get(ValueLayout.JAVA_LONG, 24));
        HeapAtomics.signal(heap, 24, -1L << 40, SignalOp.SET);
        assertEquals(-1L << 40, heap.get(ValueLayout.JAVA_LONG, 24));
        HeapAtomics.signal(heap, 24, 1L << 40, SignalOp.ADD);
        assertEquals(0, heap.get(ValueLayout.JAVA_LONG, 24), "adds carry across the 32-bit halves");
        assertEquals(0, heap.get(ValueLayout.JAVA_LONG, 16));
        assertEquals(0, heap.get(ValueLayout.JAVA_LONG, 32));
    }

    @Test
    void storeWritesTheFetchedValueAtTheDestinationsWidthWhereverItIs()
    {
        final MemorySegment bytes = MemorySegment.ofArray(new byte[16]);
        HeapAtomics.store(bytes.asSlice(3, 8), 0x0102_0304_0506_0708L);
        assertEquals(0x0102_0304_0506_0708L, bytes.get(ValueLayout.JAVA_LONG_UNALIGNED, 3), "8 bytes, unaligned");
        assertEquals(0, bytes.get(ValueLayout.JAVA_BYTE, 2));
        assertEquals(0, bytes.get(ValueLayout.JAVA_BYTE, 11));
        final MemorySegment four = MemorySegment.ofArray(new byte[8]);
        HeapAtomics.store(four.asSlice(1, 4), -2L);
        assertEquals(-2, four.get(ValueLayout.JAVA_INT_UNALIGNED, 1), "4 bytes: the low half");
        assertEquals(0, four.get(ValueLayout.JAVA_BYTE, 0));
        assertEquals(0, four.get(ValueLayout.JAVA_BYTE, 5));
    }

    // ------------------------------------------------------------------ concurrency

    private static final int THREADS = 4;
    private static final int PER_THREAD = 20_000;

    interface Worker
    {
        void run(int thread) throws Exception;
    }

    /** Runs the workers together; rethrows the first failure; a thread still running after a minute is a failure. */
    private static void together(final Worker worker) throws Exception
    {
        final CountDownLatch go = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++)
        {
            final int id = t;
            threads.add(Thread.ofPlatform().name("atomics-" + t).start(() ->
            {
                try
                {
                    go.await();
                    worker.run(id);
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                }
            }));
        }
        go.countDown();
        for (final Thread t : threads)
        {
            t.join(60_000);
            assertFalse(t.isAlive(), t.getName() + " did not finish");
        }
        if (failure.get() != null)
        {
            throw new AssertionError("a thread failed", failure.get());
        }
    }

    @Test
    void concurrentFetchAddsHandOutEveryTicketOnce() throws Exception
    {
        for (final int bytes : new int[] {4, 8})
        {
            final long[][] tickets = new long[THREADS][PER_THREAD];
            together(t ->
            {
                for (int i = 0; i < PER_THREAD; i++)
                {
                    tickets[t][i] = HeapAtomics.apply(heap, AtomicOp.FETCH_ADD, bytes, 128, 1, 0);
                }
            });
            final long[] all = Arrays.stream(tickets).flatMapToLong(Arrays::stream).sorted().toArray();
            for (int i = 0; i < all.length; i++)
            {
                assertEquals(i, all[i], bytes + "-byte ticket " + i + " (duplicates or gaps)");
            }
            assertEquals(THREADS * PER_THREAD, word(bytes, 128));
            setWord(8, 128, 0);
        }
    }

    @Test
    void concurrentCompareSwapIncrementsAreExact() throws Exception
    {
        together(t ->
        {
            for (int i = 0; i < PER_THREAD; i++)
            {
                long seen = HeapAtomics.apply(heap, AtomicOp.FETCH, 8, 256, 0, 0);
                while (true)
                {
                    final long witness = HeapAtomics.apply(heap, AtomicOp.COMPARE_SWAP, 8, 256, seen + 1, seen);
                    if (witness == seen)
                    {
                        break;
                    }
                    seen = witness;
                }
            }
        });
        assertEquals(THREADS * PER_THREAD, heap.get(ValueLayout.JAVA_LONG, 256));
    }

    @Test
    void concurrentFourByteAddsOnBothHalvesOfALongStayInTheirHalf() throws Exception
    {
        together(t ->
        {
            // threads 0, 2 add to the low word, 1, 3 subtract from the high one: a borrow leaking across would show
            final long offset = 512 + 4L * (t & 1);
            for (int i = 0; i < PER_THREAD; i++)
            {
                HeapAtomics.apply(heap, AtomicOp.ADD, 4, offset, (t & 1) == 0 ? 1 : -1, 0);
            }
        });
        assertEquals(2 * PER_THREAD, heap.get(ValueLayout.JAVA_INT, 512));
        assertEquals(-2 * PER_THREAD, heap.get(ValueLayout.JAVA_INT, 516));
        assertEquals(0, heap.get(ValueLayout.JAVA_LONG, 520));
    }

    @Test
    void concurrentBitwiseOpsLoseNoBit() throws Exception
    {
        // each thread owns 16 bits of each word: it sets them one by one with fetch_or, toggles them twice with
        // xor and clears half with and; every old value it sees must show its own bits as it left them
        together(t ->
        {
            for (int round = 0; round < PER_THREAD / 64; round++)
            {
                for (int b = 0; b < 16; b++)
                {
                    final long bit = 1L << (16 * t + b);
                    final long old = HeapAtomics.apply(heap, AtomicOp.FETCH_OR, 8, 1024, bit, 0);
                    assertEquals(0, old & bit, "thread " + t + " bit " + b + " was already set");
                    HeapAtomics.apply(heap, AtomicOp.XOR, 8, 1024, bit, 0);
                    HeapAtomics.apply(heap, AtomicOp.XOR, 8, 1024, bit, 0);
                }
                final long mine = 0xFFFFL << (16 * t);
                final long old = HeapAtomics.apply(heap, AtomicOp.FETCH_AND, 8, 1024, ~mine, 0);
                assertEquals(mine, old & mine, "thread " + t + " lost a bit");
                final int bit32 = 1 << (8 * t + round % 8);
                final long old32 = HeapAtomics.apply(heap, AtomicOp.FETCH_OR, 4, 1032, bit32, 0);
                assertEquals(0, old32 & bit32);
                HeapAtomics.apply(heap, AtomicOp.AND, 4, 1032, ~bit32, 0);
            }
        });
        assertEquals(0, heap.get(ValueLayout.JAVA_LONG, 1024));
        assertEquals(0, heap.get(ValueLayout.JAVA_INT, 1032));
    }
}
