package io.jshmem.runtime;

import io.jshmem.JobFailedException;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricLongs;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 10 on a running job (PEs as threads): strided transfers whose span overflows a long are
 * exceptions and leave the neighbouring objects alone; the team of a destroyed context is an error; a
 * PE whose body throws inside try-with-resources makes the others fail at once instead of hanging.
 */
class ApiChecksThreadsTest
{
    private static final long HUGE_STRIDE = (1L << 61) - 8; // 8 * HUGE_STRIDE + 80 wraps to 16

    /** A PE used after its close(): each call names the operation and the finalize, nothing touches the unmapped heap. */
    @Test
    void everyUseOfAFinalizedPeIsAClearError() throws Exception
    {
        final java.util.List<Object[]> kept = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        ThreadPes.run(2, Map.of(), shmem -> kept.add(new Object[] {shmem, shmem.allocateLongs(4), shmem.createContext(),
            shmem.teamWorld().splitStrided(0, 1, 2, null)}));
        assertEquals(2, kept.size());
        for (final Object[] k : kept)
        {
            final io.jshmem.Shmem pe = (io.jshmem.Shmem)k[0];
            final SymmetricLongs box = (SymmetricLongs)k[1];
            final ShmemContext ctx = (ShmemContext)k[2];
            final io.jshmem.Team team = (io.jshmem.Team)k[3];
            final java.util.List<org.junit.jupiter.api.function.Executable> uses = java.util.List.of(
                pe::barrierAll, pe::syncAll, pe::quiet, pe::fence, () -> pe.allocateLongs(2), () -> pe.free(box),
                () -> pe.p(box, 0, 1L, 0), () -> pe.g(box, 0, 0), () -> pe.atomicFetchInc(box, 0, 0), pe::createContext,
                ctx::quiet, () -> ctx.p(box, 0, 1L, 0), () -> pe.teamWorld().sync(), team::sync,
                () -> pe.teamWorld().broadcast(box, box, 1, 0));
            for (final org.junit.jupiter.api.function.Executable use : uses)
            {
                final IllegalStateException ex = assertThrows(IllegalStateException.class, use);
                assertTrue(ex.getMessage().startsWith("[pe " + pe.myPe() + "/2] ") && ex.getMessage().contains("after this PE's close() "
                    + "(shmem_finalize)"), ex.getMessage());
            }
            assertTrue(!box.isLive(), "an object outlived its PE's finalize");
        }
    }

    @Test
    void stridedTransfersThatOverflowAreRejectedAndTouchNothing() throws Exception
    {
        ThreadPes.run(2, Map.of(), shmem -> {
            final SymmetricLongs before = shmem.allocateLongs(16);
            final SymmetricLongs target = shmem.allocateLongs(16);
            final SymmetricLongs after = shmem.allocateLongs(16);
            for (int i = 0; i < 16; i++)
            {
                before.setLocal(i, -1);
                target.setLocal(i, -2);
                after.setLocal(i, -3);
            }
            shmem.barrierAll();
            final int peer = 1 - shmem.myPe();
            final long[] src = new long[720];
            java.util.Arrays.fill(src, 42);
            final IndexOutOfBoundsException put = assertThrows(IndexOutOfBoundsException.class,
                () -> shmem.ibput(target, 0, HUGE_STRIDE, src, 0, 80, 80, 9, peer));
            assertTrue(put.getMessage().contains("capacity=16") && put.getMessage().contains("[pe " + shmem.myPe() + "/2]"),
                put.getMessage());
            final long[] dest = new long[720];
            assertThrows(IndexOutOfBoundsException.class, () -> shmem.ibget(dest, 0, 80, target, 0, HUGE_STRIDE, 80, 9, peer));
            assertThrows(IndexOutOfBoundsException.class, () -> shmem.iput(target, 0, 1, src, 0, Long.MAX_VALUE, 3, peer));
            assertThrows(IndexOutOfBoundsException.class, () -> shmem.iget(dest, 0, Long.MAX_VALUE, target, 0, 1, 3, peer));
            assertThrows(IndexOutOfBoundsException.class, () -> shmem.iput(target, 0, HUGE_STRIDE * 4 + 1, src, 0, 1, 5, peer));
            assertEquals(0L, java.util.Arrays.stream(dest).filter(v -> v != 0).count(), "ibget wrote nothing");
            shmem.iput(target, 1, 5, new long[] {7, 8, 9}, 0, 1, 3, peer); // a valid shape still works
            shmem.barrierAll();
            final long[] expected = new long[16];
            java.util.Arrays.fill(expected, -2);
            expected[1] = 7;
            expected[6] = 8;
            expected[11] = 9;
            final long[] got = new long[16];
            shmem.get(got, 0, target, 0, 16, shmem.myPe());
            assertArrayEquals(expected, got);
            for (int i = 0; i < 16; i++)
            {
                assertEquals(-1L, before.getLocal(i), "object before, element " + i);
                assertEquals(-3L, after.getLocal(i), "object after, element " + i);
            }
            shmem.barrierAll();
            shmem.free(after);
            shmem.free(target);
            shmem.free(before);
        });
    }

    @Test
    void teamOfAClosedContextIsAnError() throws Exception
    {
        ThreadPes.run(1, Map.of(), shmem -> {
            final ShmemContext ctx = shmem.createContext();
            assertEquals(shmem.teamWorld(), ctx.team());
            ctx.close();
            final IllegalStateException ex = assertThrows(IllegalStateException.class, ctx::team);
            assertTrue(ex.getMessage().contains("closed"), ex.getMessage());
        });
    }

    @Test
    void aPeLeavingByAnExceptionFailsTheOthersAtOnce()
    {
        final long start = System.nanoTime();
        final ExecutionException ex = assertThrows(ExecutionException.class, () -> ThreadPes.run(3, Map.of(), shmem -> {
            if (shmem.myPe() == 1)
            {
                throw new IllegalStateException("pe 1 failed on purpose");
            }
            shmem.barrierAll();
            throw new AssertionError("pe " + shmem.myPe() + " passed a barrier pe 1 never entered");
        }));
        final double seconds = (System.nanoTime() - start) / 1e9;
        final StringBuilder all = new StringBuilder(ex.toString());
        int failedOthers = 0;
        for (final Throwable t : java.util.stream.Stream.concat(java.util.stream.Stream.of(ex), java.util.Arrays.stream(ex.getSuppressed())).toList())
        {
            final Throwable cause = t.getCause();
            all.append('\n').append(cause);
            if (cause instanceof JobFailedException jf && jf.getMessage().contains("PE 1"))
            {
                failedOthers++;
            }
            assertTrue(!(cause instanceof AssertionError), cause.toString());
        }
        assertEquals(2, failedOthers, "PEs 0 and 2 fail naming PE 1: " + all);
        assertTrue(all.toString().contains("pe 1 failed on purpose"), all.toString());
        assertTrue(seconds < 15, "the job ended after " + seconds + " s");
        System.out.printf("ApiChecksThreadsTest: the other PEs failed %.1f s after start%n", seconds);
    }
}
