package io.jshmem.bootstrap;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The ticker's own lateness: what each tick adds, and how long the recent maximum is remembered. */
class StallClockTest
{
    private static final long MS = 1_000_000L;

    @Test
    void aTickLateBeyondThePeriodAddsItsLatenessAndTheWindowForgetsIt()
    {
        final long period = 94 * MS; // the root's silence checks at the default peer timeout
        long now = 0;
        final StallClock clock = new StallClock(period, 4, now);
        now += period + 30 * MS;
        assertEquals(30 * MS, clock.tick(now), "30 ms late");
        now += period / 2;
        assertEquals(0, clock.tick(now), "early is not late");
        assertEquals(30 * MS, clock.totalNs());
        assertEquals(30 * MS, clock.recentMaxNs());
        for (int tick = 3; tick <= 4; tick++)
        {
            now += period;
            clock.tick(now);
            assertEquals(30 * MS, clock.recentMaxNs(), "the late tick is among the last 4 at tick " + tick);
        }
        now += period;
        clock.tick(now);
        assertEquals(0, clock.recentMaxNs(), "tick 5: the late tick 1 left the window of 4");
        assertEquals(30 * MS, clock.maxLateNs(), "the longest ever stays");
        assertEquals(30 * MS, clock.totalNs());
    }

    @Test
    void theRootChecksSilenceFourTimesPerHeartbeat()
    {
        final BootstrapSettings s = BootstrapSettings.defaults();
        assertEquals(375 * MS, s.heartbeatNs(), "an eighth of the default 3 s peer timeout");
        assertEquals(93_750_000L, s.silenceCheckNs());
        assertEquals(2_500_000L, s.withPeerTimeoutNs(80 * MS).silenceCheckNs(), "a quarter of the 10 ms heartbeat floor");
    }
}
