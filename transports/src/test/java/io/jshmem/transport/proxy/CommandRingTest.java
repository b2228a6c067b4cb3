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
        assertThrows(IllegalArgumentException.class, () -> ring.tryClaim(3), "a body holds at least its stream's key");
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

    /** A record whose body's first int (its stream's key) is {@code stream} and second int {@code seq}. */
    private boolean offerTo(final int stream, final int seq)
    {
        return offer(6, (long)seq << 32 | stream, 8);
    }

    /** Reads, refusing the streams in {@code full}; @return "stream:seq" of each record consumed, in order. */
    private List<String> drainRefusing(final java.util.Set<Integer> full)
    {
        return drainRefusing(full::contains);
    }

    /** Reads, refusing a record where {@code refuse} says so for its stream; @return "stream:seq" of each record consumed. */
    private List<String> drainRefusing(final java.util.function.IntPredicate refuse)
    {
        final List<String> seen = new ArrayList<>();
        ring.read((type, buffer, offset, length) ->
        {
            final long v = buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
            final int stream = (int)v;
            if (refuse.test(stream))
            {
                return false;
            }
            seen.add(stream + ":" + (v >>> 32));
            return true;
        }, 1000);
        return seen;
    }

    @Test
    void aRefusedStreamHoldsBackOnlyItsOwnRecords()
    {
        // a large put to PE 1 (three pieces), a fetch-add to PE 2, a put to PE 3, more to PE 1 and PE 2
        assertTrue(offerTo(1, 0));
        assertTrue(offerTo(1, 1));
        assertTrue(offerTo(1, 2));
        assertTrue(offerTo(2, 0));
        assertTrue(offerTo(3, 0));
        assertTrue(offerTo(1, 3));
        assertTrue(offerTo(2, 1));
        assertEquals(List.of("1:0", "2:0", "3:0", "2:1"), consumeFirstThenRefuse(), "other streams pass the refused one, each in its order");
        assertFalse(ring.isEmpty(), "stream 1's records stay");
        assertEquals(List.of("1:1", "1:2", "1:3"), drainRefusing(java.util.Set.of()), "stream 1 in its order; the others are not read twice");
        assertTrue(ring.isEmpty());
        assertTrue(offerTo(4, 0), "the space of records consumed out of order is free again");
        assertEquals(List.of("4:0"), drainRefusing(java.util.Set.of()));
    }

    /** Consumes stream 1's first record, then refuses stream 1 (its connection is full). */
    private List<String> consumeFirstThenRefuse()
    {
        final int[] ones = {0};
        return drainRefusing(stream -> stream == 1 && ones[0]++ > 0);
    }

    @Test
    void theConsumerLooksOnlySoFarPastARefusedRecord()
    {
        assertTrue(offerTo(1, 0));
        for (int i = 0; i < CommandRing.LOOKAHEAD; i++)
        {
            assertTrue(offerTo(1, i + 1));
        }
        assertTrue(offerTo(2, 0));
        assertEquals(List.of(), drainRefusing(java.util.Set.of(1)), "stream 2 lies past the lookahead");
        final List<String> rest = drainRefusing(java.util.Set.of());
        assertEquals(CommandRing.LOOKAHEAD + 2, rest.size());
        assertEquals("1:0", rest.get(0));
        assertEquals("2:0", rest.get(rest.size() - 1));
        assertTrue(ring.isEmpty());
    }

    @Test
    void theConsumerStopsOnceTooManyStreamsAreRefused()
    {
        final java.util.Set<Integer> full = new java.util.HashSet<>();
        for (int s = 1; s <= CommandRing.MAX_LEFT + 1; s++)
        {
            assertTrue(offerTo(s, 0));
            full.add(s);
        }
        assertTrue(offerTo(100, 0));
        assertEquals(List.of(), drainRefusing(full), "past MAX_LEFT refused streams the read stops");
        full.remove(CommandRing.MAX_LEFT + 1);
        assertEquals(List.of((CommandRing.MAX_LEFT + 1) + ":0", "100:0"), drainRefusing(full),
            "MAX_LEFT streams refused: the read goes on past them");
        final List<String> rest = drainRefusing(java.util.Set.of());
        assertEquals(CommandRing.MAX_LEFT, rest.size());
        for (int s = 1; s <= CommandRing.MAX_LEFT; s++)
        {
            assertEquals(s + ":0", rest.get(s - 1));
        }
        assertTrue(ring.isEmpty());
    }

    @Test
    void outOfOrderConsumptionSurvivesTheWrap()
    {
        // stream 1 refused while stream 2's records go by, many laps of a 4 KiB ring (16-byte records)
        int seq1 = 0;
        int read1 = 0;
        for (int lap = 0; lap < 20; lap++)
        {
            assertTrue(offerTo(1, seq1++));
            int n2 = 0;
            while (offerTo(2, n2))
            {
                n2++;
            }
            final List<String> seen = drainRefusing(java.util.Set.of(1));
            assertEquals(Math.min(n2, CommandRing.LOOKAHEAD), seen.size(), "lap " + lap);
            for (int i = 0; i < seen.size(); i++)
            {
                assertEquals("2:" + i, seen.get(i));
            }
            final List<String> rest = drainRefusing(java.util.Set.of());
            assertEquals("1:" + read1++, rest.get(0), "lap " + lap + ": stream 1 first, where it was left");
            for (int i = 1; i < rest.size(); i++)
            {
                assertEquals("2:" + (seen.size() + i - 1), rest.get(i), "lap " + lap);
            }
            assertTrue(ring.isEmpty(), "lap " + lap);
        }
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
