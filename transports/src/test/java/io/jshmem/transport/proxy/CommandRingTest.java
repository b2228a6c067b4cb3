package io.jshmem.transport.proxy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The proxy's many-to-one command ring: publication order, wrap with padding, a full ring, refusal, producers racing. */
class CommandRingTest
{
    private CommandRing ring = new CommandRing(4096);

    @AfterEach
    void close()
    {
        ring.close();
    }

    private boolean offer(final int type, final long value, final int bodyLength)
    {
        final long body = ring.tryClaim(bodyLength);
        if (body < 0)
        {
            return false;
        }
        ring.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, body, value);
        ring.commit(body, type, bodyLength);
        return true;
    }

    private List<Long> drain(final int limit)
    {
        final List<Long> seen = new ArrayList<>();
        ring.read((type, buffer, offset, length) ->
        {
            seen.add(buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, offset));
            return true;
        }, limit);
        return seen;
    }

    @Test
    void capacityMustBeAPowerOfTwoOfAtLeastFourKiB()
    {
        assertThrows(IllegalArgumentException.class, () -> new CommandRing(2048));
        assertThrows(IllegalArgumentException.class, () -> new CommandRing(6144));
        assertThrows(IllegalArgumentException.class, () -> ring.tryClaim(ring.maxBody() + 1));
        assertThrows(IllegalArgumentException.class, () -> ring.tryClaim(-1));
    }

    @Test
    void recordsComeOutOnceInTheOrderPublished()
    {
        for (long i = 0; i < 10; i++)
        {
            assertTrue(offer(7, i, 8 + (int)i));
        }
        assertEquals(List.of(0L, 1L, 2L, 3L), drain(4));
        assertEquals(List.of(4L, 5L, 6L, 7L, 8L, 9L), drain(100));
        assertTrue(ring.isEmpty());
        assertEquals(List.of(), drain(100));
    }

    @Test
    void aFullRingIsReadExactlyOnce()
    {
        // 16-byte records (8 header + 8 body): 256 fill 4 KiB to the last byte
        int offered = 0;
        while (offer(1, offered, 8))
        {
            offered++;
        }
        assertEquals(4096 / 16, offered, "records that fit");
        final List<Long> seen = drain(Integer.MAX_VALUE);
        assertEquals(offered, seen.size(), "every record once, the first not read again after one lap");
        for (int i = 0; i < offered; i++)
        {
            assertEquals(i, seen.get(i));
        }
        assertTrue(ring.isEmpty());
        assertTrue(offer(1, 99, 8), "the ring takes records again");
        assertEquals(List.of(99L), drain(10));
    }

    @Test
    void aRecordThatWouldCrossTheEndStartsAtZeroBehindPadding()
    {
        // 40-byte records: 102 of them leave 16 bytes at the end, too few for the next
        for (long i = 0; i < 102; i++)
        {
            assertTrue(offer(2, i, 32));
        }
        assertEquals(102, drain(Integer.MAX_VALUE).size());
        assertTrue(offer(2, 1000, 32));
        assertTrue(offer(2, 1001, 32));
        final List<Long> seen = drain(Integer.MAX_VALUE);
        assertEquals(List.of(1000L, 1001L), seen, "padding is skipped, not handed to the handler");
    }

    @Test
    void aRefusedRecordStaysForTheNextRead()
    {
        assertTrue(offer(3, 1, 8));
        assertTrue(offer(3, 2, 8));
        final int n = ring.read((type, buffer, offset, length) -> false, 10);
        assertEquals(0, n);
        assertFalse(ring.isEmpty());
        assertEquals(List.of(1L, 2L), drain(10));
    }

    @Test
    void claimedButUnpublishedRecordsHoldBackTheOnesBehindThem()
    {
        final long first = ring.tryClaim(8);
        assertTrue(offer(4, 2, 8));
        assertEquals(List.of(), drain(10), "the consumer stops at a record not yet published");
        ring.buffer().set(ValueLayout.JAVA_LONG_UNALIGNED, first, 1L);
        ring.commit(first, 4, 8);
        assertEquals(List.of(1L, 2L), drain(10));
    }

    @Test
    void racingProducersLoseNothing() throws Exception
    {
        ring.close();
        ring = new CommandRing(1 << 16);
        final int producers = 4;
        final int each = 50_000;
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final long base = (long)p << 32;
            threads.add(Thread.ofPlatform().start(() ->
            {
                try
                {
                    start.await();
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
                for (int i = 0; i < each; i++)
                {
                    while (!offer(5, base | i, 8 + (i & 31)))
                    {
                        Thread.onSpinWait();
                    }
                }
            }));
        }
        final long[] next = new long[producers];
        final AtomicLong total = new AtomicLong();
        start.countDown();
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (total.get() < (long)producers * each)
        {
            assertTrue(System.nanoTime() < deadline, "drained " + total.get() + " records in 60 s");
            ring.read((type, buffer, offset, length) ->
            {
                final long v = buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
                final int p = (int)(v >>> 32);
                assertEquals(next[p], v & 0xffffffffL, "producer " + p + "'s records in its order, none lost or doubled");
                assertEquals(8 + ((int)next[p] & 31), length);
                next[p]++;
                total.incrementAndGet();
                return true;
            }, 64);
        }
        for (final Thread t : threads)
        {
            t.join();
        }
        assertTrue(ring.isEmpty());
    }
}
