package io.jshmem.runtime;

import io.jshmem.Cmp;
import io.jshmem.HeapExhaustedException;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;


import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runtime with PEs as threads of one JVM: real bootstrap sockets, real /dev/shm heaps. */
class RuntimeThreadsTest
{
    @Test
    void putRightBarrierCheckLeftAndAtomics() throws Exception
    {
        ThreadPes.run(3, Map.of(), shmem -> {
            final int me = shmem.myPe();
            final int n = shmem.nPes();
            final SymmetricLongs box = shmem.allocateLongs(8);
            assertEquals(0L, box.getLocal(0), "allocateLongs zeroes"); // nobody writes index 0 before the next barrier
            final long[] src = {me * 10L, me * 10L + 1};
            shmem.put(box, 2, src, 0, 2, (me + 1) % n);
            shmem.barrierAll();
            final int left = (me + n - 1) % n;
            assertEquals(left * 10L, box.getLocal(2));
            assertEquals(left * 10L + 1, box.getLocal(3));

            shmem.atomicAdd(box, 0, me + 1L, 0);
            shmem.barrierAll();
            if (me == 0)
            {
                assertEquals(6L, box.getLocal(0));
            }
            final long old = shmem.atomicCompareSwap(box, 1, 0L, 100L + me, 0);
            shmem.barrierAll();
            final long winner = shmem.g(box, 1, 0);
            assertTrue(winner >= 100 && winner < 100 + n);
            assertEquals(old == 0, winner == 100 + me);
            shmem.free(box);
        });
    }

    @Test
    void signalsAndWaits() throws Exception
    {
        ThreadPes.run(2, Map.of(), shmem -> {
            final int me = shmem.myPe();
            final SymmetricLongs sig = shmem.allocateLongs(2);
            final SymmetricDoubles data = shmem.allocateDoubles(4);
            if (me == 0)
            {
                shmem.putSignal(data, 0, new double[] {1.5, 2.5}, 0, 2, sig, 0, -1L, SignalOp.SET, 1); // > Long.MAX unsigned
            }
            else
            {
                final long v = sig.signalWaitUntil(0, Cmp.GT, Long.MAX_VALUE);
                assertEquals(-1L, v);
                assertEquals(2.5, data.getLocal(1));
            }
            shmem.barrierAll();
            final SymmetricInts flags = shmem.allocateInts(4);
            final int[] status = {1, 1, 1, 1};
            assertEquals(-1, flags.waitUntilAny(status, Cmp.EQ, 7));
            assertEquals(0, flags.waitUntilSome(new int[4], status, Cmp.EQ, 7));
            flags.waitUntilAll(status, Cmp.EQ, 7);
            assertTrue(flags.testAll(status, Cmp.EQ, 7));
            shmem.atomicSet(flags, 2, 7, 1 - me);
            assertEquals(2, flags.waitUntilAny(null, Cmp.EQ, 7));
            shmem.barrierAll();
            shmem.free(flags);
            shmem.free(data);
            shmem.free(sig);
        });
    }

    @Test
    void argumentErrorsNameOperandsAndPe() throws Exception
    {
        ThreadPes.run(2, Map.of(), shmem -> {
            final SymmetricLongs box = shmem.allocateLongs(8);
            final IndexOutOfBoundsException badPe = assertThrows(IndexOutOfBoundsException.class, () -> shmem.p(box, 0, 1L, 2));
            assertTrue(badPe.getMessage().contains("pe=2") && badPe.getMessage().contains("[pe " + shmem.myPe() + "/2]"), badPe.getMessage());
            final IndexOutOfBoundsException badIndex = assertThrows(IndexOutOfBoundsException.class,
                () -> shmem.put(box, 6, new long[4], 0, 4, 0));
            assertTrue(badIndex.getMessage().contains("index=6 length=4 capacity=8"), badIndex.getMessage());
            final SymmetricMemory raw = shmem.malloc(64);
            final IllegalArgumentException misaligned = assertThrows(IllegalArgumentException.class,
                () -> shmem.atomicFetchAdd(raw.slice(1, 16).asLongs(), 0, 1L, 0));
            assertTrue(misaligned.getMessage().contains("misaligned"), misaligned.getMessage());
            assertNull(shmem.malloc(0));
            final HeapExhaustedException ex = assertThrows(HeapExhaustedException.class, () -> shmem.malloc(1L << 30));
            assertTrue(ex.getMessage().contains("SHMEM_SYMMETRIC_SIZE"), ex.getMessage());
            shmem.free(raw);
            shmem.free(box);
            final IllegalArgumentException freed = assertThrows(IllegalArgumentException.class, () -> shmem.p(box, 0, 1L, 0));
            assertTrue(freed.getMessage().contains("freed"), freed.getMessage());
        });
    }

    @Test
    void reallocKeepsPrefixAndPtrSeesPeer() throws Exception
    {
        ThreadPes.run(2, Map.of(), shmem -> {
            final int me = shmem.myPe();
            SymmetricMemory m = shmem.malloc(16);
            m.asLongs().setLocal(0, 42 + me);
            m.asLongs().setLocal(1, 43 + me);
            final SymmetricMemory filler = shmem.malloc(64); // forces the growth to move
            m = shmem.realloc(m, 4096);
            assertEquals(42 + me, m.asLongs().getLocal(0));
            assertEquals(43 + me, m.asLongs().getLocal(1));
            final MemorySegment peer = shmem.ptr(m, 1 - me);
            assertEquals(42 + (1 - me), peer.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
            try (Arena arena = Arena.ofConfined())
            {
                final MemorySegment seg = arena.allocate(32);
                seg.fill((byte)me);
                shmem.barrierAll();
                shmem.putmem(m, 100, seg, 1 - me);
                shmem.barrierAll();
                final byte[] got = new byte[32];
                MemorySegment.copy(m.segment(), ValueLayout.JAVA_BYTE, 100, got, 0, 32);
                final byte[] want = new byte[32];
                java.util.Arrays.fill(want, (byte)(1 - me));
                assertArrayEquals(want, got);
            }
            shmem.free(filler);
            shmem.free(m);
        });
    }

    @Test
    void debugDetectsMismatchedAllocationOnEveryPe() throws Exception
    {
        ThreadPes.run(3, Map.of("SHMEM_DEBUG", "1"), shmem -> {
            final io.jshmem.CollectiveMismatchException ex = assertThrows(io.jshmem.CollectiveMismatchException.class,
                () -> shmem.malloc(shmem.myPe() == 2 ? 128 : 64));
            assertTrue(ex.getMessage().contains("pe 2 malloc(bytes=128)") && ex.getMessage().contains("malloc(bytes=64)"), ex.getMessage());
        });
    }

    @Test
    void noHeapFileOutlivesTheJob() throws Exception
    {
        ThreadPes.run(2, Map.of(), shmem -> shmem.barrierAll());
        try (var files = Files.list(Path.of("/dev/shm")))
        {
            assertEquals(0, files.filter(p -> p.getFileName().toString().startsWith("jshmem-")).count());
        }
    }
}
