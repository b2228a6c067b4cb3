package io.jshmem.team;

import io.jshmem.CollectiveMismatchException;
import io.jshmem.ShmemTimeoutException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A team's messaging over its slot, with {@link Loopback} members: rank-to-WORLD numbering, the signal
 * word encoding, scratch halves, the arrived word, the small exchange, the SHMEM_DEBUG call check, and
 * the timeout messages that name the members behind.
 */
class ChannelTest
{
    private static final long SCRATCH = 1000;

    private static Channel channel(final Loopback world, final Triplet team, final int rank, final long timeoutNs)
    {
        final Loopback.Pe pe = world.pes[team.pe(rank)];
        final TeamSlot slot = TeamSlot.of(pe.memory(0, TeamSlot.slotBytes(world.pes.length, SCRATCH)), 0, world.pes.length, SCRATCH);
        return new Channel(pe.ctx, slot, team.start(), team.stride(), team.size(), rank, "[pe " + pe.me + "] ", timeoutNs, "team" + team);
    }

    private static Loopback world(final int n)
    {
        return new Loopback(n, TeamSlot.slotBytes(n, SCRATCH));
    }

    private static int[] members(final Triplet team)
    {
        final int[] m = new int[team.size()];
        for (int i = 0; i < m.length; i++)
        {
            m[i] = team.pe(i);
        }
        return m;
    }

    @Test
    void ranksMapToWorldThroughTheTriplet()
    {
        final Loopback world = world(9);
        final Channel c = channel(world, new Triplet(8, -3, 3), 1, 0);
        assertEquals(8, c.world(0));
        assertEquals(5, c.world(1));
        assertEquals(2, c.world(2));
    }

    @Test
    void signalsCarryThePhaseAboveTwentyStepBitsIntoTheSendersWord()
    {
        final Loopback world = world(4);
        final Triplet team = new Triplet(3, -1, 4); // rank r is WORLD 3 - r
        final Channel sender = channel(world, team, 1, 0);
        sender.next();
        sender.next();
        sender.next();
        sender.signal(3, 5);
        final Channel receiver = channel(world, team, 3, TimeUnit.MILLISECONDS.toNanos(20));
        // rank 3 is WORLD 0; the word is indexed by the sender's rank (1), not its WORLD number (2)
        assertEquals((3L << 20) | 5, receiver.sig.getLocal(1));
        assertEquals(0, receiver.sig.getLocal(2));
        receiver.next();
        receiver.next();
        receiver.next();
        receiver.await(1, 5); // satisfied: returns without waiting
        receiver.await(1, 4); // an earlier step of the same phase, also satisfied
        receiver.next();
        assertThrows(ShmemTimeoutException.class, () -> receiver.await(1, 0), "the next phase's first message has not come");
    }

    @Test
    void scratchPhasesAlternateBetweenTwoCacheLineAlignedHalves()
    {
        final Channel c = channel(world(2), new Triplet(0, 1, 2), 0, 0);
        assertEquals(1024, c.scratch.length(), "the slot pads 1000 bytes to 1024");
        assertEquals(512, c.halfBytes());
        assertEquals(512, c.nextScratch(), "the first phase is odd");
        assertEquals(0, c.nextScratch());
        assertEquals(512, c.nextScratch());
        assertEquals(512, c.bufferBytes(1));
        assertEquals(168, c.bufferBytes(3), "512 / 3 = 170, rounded down to 8 bytes");
        assertEquals(0, c.bufferBytes(100), "5 bytes per buffer is none");
        for (int b = 1; b <= 70; b++)
        {
            final long bytes = c.bufferBytes(b);
            assertEquals(0, bytes % 8);
            assertTrue(bytes * b <= c.halfBytes(), b + " buffers fit a half");
        }
    }

    @Test
    void beginPublishesTheFirstPhaseOfTheCollective()
    {
        final Loopback world = world(2);
        final Channel c = channel(world, new Triplet(0, 1, 2), 1, 0);
        final long arrivedOffset = TeamSlot.sigBytes(2);
        c.begin("barrier");
        assertEquals(1, world.pes[1].heap.get(ValueLayout.JAVA_LONG, arrivedOffset));
        c.next();
        c.next();
        assertEquals(1, world.pes[1].heap.get(ValueLayout.JAVA_LONG, arrivedOffset), "phases do not move it");
        c.begin("broadcast");
        assertEquals(3, world.pes[1].heap.get(ValueLayout.JAVA_LONG, arrivedOffset));
        assertEquals(0, world.pes[0].heap.get(ValueLayout.JAVA_LONG, arrivedOffset), "only this PE's copy");
    }

    @Test
    void aTimedOutWaitNamesTheMembersThatHaveNotArrived()
    {
        final Loopback world = world(6);
        final Triplet team = new Triplet(1, 2, 3); // WORLD 1, 3, 5
        final Channel c0 = channel(world, team, 0, TimeUnit.MILLISECONDS.toNanos(50));
        final Channel c2 = channel(world, team, 2, 0);
        c2.begin("reduce"); // rank 2 arrived, rank 1 did not
        c0.begin("reduce");
        c0.next();
        final long t0 = System.nanoTime();
        final ShmemTimeoutException ex = assertThrows(ShmemTimeoutException.class, () -> c0.await(2, 0));
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(50), "not before the deadline");
        assertArrayEquals(new int[] {3}, ex.missingPes());
        final String m = ex.getMessage();
        assertTrue(m.startsWith("[pe 1] reduce on team" + team + " timed out after 50 ms"), m);
        assertTrue(m.contains("team PEs [1] (WORLD PEs [3]) have not arrived"), m);
    }

    /**
     * Issue 24: the diagnosis of a timeout reads every member's arrived word; a member that cannot be read (its PE hung:
     * a get from it never completes) is named within the diagnosis's own deadline instead of hanging the diagnosis.
     */
    @Test
    void aTimedOutWaitNamesAMemberWhoseArrivalCannotBeReadWithinTheDiagnosisDeadline()
    {
        final Loopback world = world(4);
        final Triplet team = new Triplet(0, 1, 4);
        final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(100);
        final Channel c0 = channel(world, team, 0, timeoutNs);
        channel(world, team, 1, 0).begin("barrier"); // rank 1 arrived; rank 2 did not (and answers); rank 3 hung
        world.hung[3] = true;
        c0.begin("barrier");
        c0.next();
        final long t0 = System.nanoTime();
        final ShmemTimeoutException ex = assertTimeoutPreemptively(Duration.ofSeconds(30),
            () -> assertThrows(ShmemTimeoutException.class, () -> c0.await(1, 0)), "the diagnosis waited on the hung PE");
        final long tookNs = System.nanoTime() - t0;
        assertTrue(tookNs >= 2 * timeoutNs, "the wait's deadline, then the diagnosis's: " + tookNs / 1_000_000 + " ms");
        assertTrue(tookNs < TimeUnit.SECONDS.toNanos(10), "took " + tookNs / 1_000_000 + " ms");
        assertArrayEquals(new int[] {2, 3}, ex.missingPes());
        final String m = ex.getMessage();
        assertTrue(m.contains("team PEs [2, 3] (WORLD PEs [2, 3]) have not arrived at it; team PEs [3] (WORLD PEs [3]) did not " +
            "answer the read of their arrival within 100 ms (hung, stopped or unreachable)"), m);
    }

    @Test
    void theDiagnosisDeadlineIsTheCollectiveTimeoutAtMostTwoSeconds()
    {
        final Loopback world = world(2);
        final Triplet team = new Triplet(0, 1, 2);
        assertEquals(TimeUnit.MILLISECONDS.toNanos(300), channel(world, team, 0, TimeUnit.MILLISECONDS.toNanos(300)).diagnosisNs());
        assertEquals(Channel.MAX_DIAGNOSIS_NS, channel(world, team, 0, TimeUnit.SECONDS.toNanos(60)).diagnosisNs());
    }

    @Test
    void aTimedOutWaitAfterEveryoneArrivedNamesTheMissingMessage()
    {
        final Loopback world = world(3);
        final Triplet team = new Triplet(0, 1, 3);
        final Channel[] c = new Channel[3];
        for (int r = 0; r < 3; r++)
        {
            c[r] = channel(world, team, r, r == 0 ? TimeUnit.MILLISECONDS.toNanos(20) : 0);
            c[r].begin("alltoall");
            c[r].next();
        }
        c[1].signal(0, 0); // rank 1's message 0 arrives, rank 2's message 1 never does
        c[0].await(1, 0);
        final ShmemTimeoutException ex = assertThrows(ShmemTimeoutException.class, () -> c[0].await(2, 1));
        assertArrayEquals(new int[] {2}, ex.missingPes());
        assertTrue(ex.getMessage().contains("every member arrived, but team pe 2 (WORLD pe 2) has not sent message 1 of phase 1"),
            ex.getMessage());
    }

    @Test
    void exchangeGivesEveryMemberEveryMembersPairRoundAfterRound() throws InterruptedException
    {
        for (final Triplet team : new Triplet[] {new Triplet(0, 1, 1), new Triplet(0, 1, 2), new Triplet(4, -1, 5), new Triplet(0, 2, 3)})
        {
            final Loopback world = world(5);
            world.run(members(team), pe ->
            {
                final int me = team.indexOf(pe.me);
                final Channel c = channel(world, team, me, TimeUnit.SECONDS.toNanos(30));
                for (int round = 0; round < 50; round++)
                {
                    final long[][] all = c.exchange(1000L * round + me, -me - round);
                    assertEquals(team.size(), all.length);
                    for (int r = 0; r < team.size(); r++)
                    {
                        assertEquals(1000L * round + r, all[r][0], team + " round " + round + " member " + me + " sees " + r);
                        assertEquals(-r - round, all[r][1]);
                    }
                }
            });
        }
    }

    @Test
    void theDebugCheckPassesWhenAllAgreeAndFailsOnEveryMemberNamingTheOddOneOut() throws InterruptedException
    {
        final Triplet team = new Triplet(0, 1, 4);
        final Loopback world = world(4);
        final AtomicInteger failed = new AtomicInteger();
        world.run(members(team), pe ->
        {
            final int me = team.indexOf(pe.me);
            final Channel c = channel(world, team, me, TimeUnit.SECONDS.toNanos(30));
            c.check("barrier", 0xabcL, 0);
            c.check("broadcast", 0x1234L, 10);
            final CollectiveMismatchException ex = assertThrows(CollectiveMismatchException.class,
                () -> c.check("reduce", 0x77L, me == 2 ? 9 : 8));
            final String m = ex.getMessage();
            assertTrue(m.contains("this PE calls reduce (call 0000000000000077 count=" + (me == 2 ? 9 : 8) + ")"), m);
            assertTrue(m.contains("differing: team pe 2 (call 0000000000000077 count=9) ("), m);
            assertTrue(m.contains("team pe 0 has (call 0000000000000077 count=8)"), m);
            failed.incrementAndGet();
            c.check("after the mismatch", 5, 5); // the channel stays usable
        });
        assertEquals(4, failed.get());
    }
}
