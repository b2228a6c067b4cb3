package io.jshmem.bootstrap;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The adaptive failure detector on an injected clock: deterministic, no sleeping. */
class PeerWatchTest
{
    private static final long MS = 1_000_000L;
    private static final long FLOOR = 3000 * MS;
    private static final long PERIOD = 375 * MS;

    /** A ticker and a watched peer on a clock the test moves. */
    private static final class Clock
    {
        long now = 1_000_000 * MS;
        final StallClock stalls = new StallClock(PERIOD, now);
        final PeerWatch watch = new PeerWatch(FLOOR, 30 * FLOOR, PERIOD, stalls, now);
        long lastTick = now;

        Clock()
        {
            watch.formed();
        }

        /** Moves to t, ticking every period on time on the way (the ticker ran). */
        void advanceTo(final long t)
        {
            while (lastTick + PERIOD <= t)
            {
                lastTick += PERIOD;
                stalls.tick(lastTick);
            }
            now = t;
        }

        void heartbeatAfter(final long intervalNs)
        {
            advanceTo(now + intervalNs);
            watch.heard(now, true);
        }

        /** The first check past {@code floor}: the time from the last heartbeat to the tick that finds the peer lost. */
        long detectAfterSilence()
        {
            final long from = now;
            for (int i = 0; i < 10_000; i++)
            {
                advanceTo(lastTick + PERIOD);
                if (watch.lost(now))
                {
                    return now - from;
                }
            }
            throw new AssertionError("never lost");
        }
    }

    @Test
    void onAnIdleMachineTheFloorDecidesAndASilentPeerIsFoundWithinThreePointFourSeconds()
    {
        final Clock c = new Clock();
        final Random rnd = new Random(1);
        for (int i = 0; i < 300; i++)
        {
            c.heartbeatAfter(PERIOD + rnd.nextInt(4 * (int)MS) - 2 * MS);
        }
        assertEquals(FLOOR, c.watch.thresholdNs(), "threshold " + c.watch.thresholdNs() / 1e6 + " ms");
        c.advanceTo(c.now + 2900 * MS);
        assertFalse(c.watch.lost(c.now));
        c.advanceTo(c.now + 200 * MS);
        assertTrue(c.watch.lost(c.now), c.watch.describe(c.now));
        final Clock d = new Clock();
        for (int i = 0; i < 300; i++)
        {
            d.heartbeatAfter(PERIOD);
        }
        final long found = d.detectAfterSilence();
        assertTrue(found > FLOOR && found <= FLOOR + PERIOD + MS, "found after " + found / 1e6 + " ms");
    }

    @Test
    void beforeAnyHeartbeatTheFloorDecides()
    {
        final Clock c = new Clock();
        c.advanceTo(c.now + 2999 * MS);
        assertFalse(c.watch.lost(c.now));
        c.advanceTo(c.now + 2 * MS);
        assertTrue(c.watch.lost(c.now));
        assertTrue(c.watch.describe(c.now).startsWith("no heartbeat for 3.0 s (heartbeats every 0.38 s ± 0.00 s, at most 0.00 s,"
            + " over the last 0; this process stalled 0.0 s meanwhile, at most 0.00 s at once lately; SHMEM_BOOTSTRAP_PEER_TIMEOUT 3.0 s)"), c.watch.describe(c.now));
    }

    @Test
    void aPeerWhoseHeartbeatsComeLateAndIrregularlyGetsLongerThanTheFloor()
    {
        final Clock c = new Clock();
        final Random rnd = new Random(7);
        long max = 0;
        for (int i = 0; i < 200; i++)
        {
            // a loaded machine: heartbeats 0.2 .. 2.4 s apart
            final long gap = 200 * MS + (long)(rnd.nextDouble() * 2200 * MS);
            max = Math.max(max, gap);
            c.heartbeatAfter(gap);
        }
        final long threshold = c.watch.thresholdNs();
        System.out.printf("irregular heartbeats (mean %.2f s, max %.2f s): lost after %.2f s of silence%n",
            c.watch.meanNs() / 1e9, max / 1e9, threshold / 1e9);
        assertTrue(threshold > FLOOR + 500 * MS, "threshold " + threshold / 1e9 + " s");
        assertTrue(threshold >= 2 * max, "threshold " + threshold / 1e9 + " s, longest gap " + max / 1e9 + " s");
        c.advanceTo(c.now + 3500 * MS);
        assertFalse(c.watch.lost(c.now), "a silence like those observed is not a loss: " + c.watch.describe(c.now));
        c.advanceTo(c.now - 3500 * MS + threshold + 10 * MS);
        assertTrue(c.watch.lost(c.now), c.watch.describe(c.now));
        // the peer recovers: regular heartbeats shrink the threshold back towards the floor as they fill the window
        for (int i = 0; i <= PeerWatch.WINDOW; i++)
        {
            c.heartbeatAfter(PERIOD);
        }
        assertEquals(FLOOR, c.watch.thresholdNs());
    }

    @Test
    void timeThisProcessDidNotRunIsNotThePeersSilence()
    {
        final Clock c = new Clock();
        for (int i = 0; i < 100; i++)
        {
            c.heartbeatAfter(PERIOD);
        }
        // this JVM stalls 6 s (no tick ran), then the ticker wakes: raw silence 6.675 s, the peer's own 0.675 s
        c.advanceTo(c.now + 300 * MS);
        final long stalledTick = c.lastTick + PERIOD + 6000 * MS;
        assertEquals(6000 * MS, c.stalls.tick(stalledTick));
        c.lastTick = stalledTick;
        c.now = stalledTick;
        assertFalse(c.watch.lost(c.now), c.watch.describe(c.now));
        assertTrue(c.watch.describe(c.now).contains("this process stalled 6.0 s meanwhile, at most 6.00 s at once lately"),
            c.watch.describe(c.now));
        assertEquals(6000 * MS, c.stalls.maxLateNs());
        // a process that stalls 6 s lives on a loaded machine: its peers get the floor plus twice that
        final long grace = FLOOR + PeerWatch.LOAD_FACTOR * 6000 * MS;
        assertEquals(grace, c.watch.thresholdNs(), 2 * MS);
        c.advanceTo(c.now - 675 * MS + grace - 10 * MS);
        assertFalse(c.watch.lost(c.now), c.watch.describe(c.now));
        c.advanceTo(c.now + 400 * MS);
        assertTrue(c.watch.lost(c.now), c.watch.describe(c.now));
        // the interval sampled is the peer's own silence, not the one that includes this process's stall
        final long before = c.now;
        c.watch.heard(c.now, true);
        assertTrue(c.watch.maxIntervalNs() < before - (stalledTick - 6675 * MS) - 5900 * MS, "interval " + c.watch.maxIntervalNs() / 1e9);
        // once the stall leaves the window (200 ticks on time), the floor is back, or twice the longest interval
        for (int i = 0; i <= StallClock.WINDOW; i++)
        {
            c.heartbeatAfter(PERIOD);
        }
        assertEquals(0, c.stalls.recentMaxNs());
        for (int i = 0; i <= PeerWatch.WINDOW; i++)
        {
            c.heartbeatAfter(PERIOD);
        }
        assertEquals(FLOOR, c.watch.thresholdNs());
    }

    @Test
    void theLongerThisProcessStallsLatelyTheLongerPeersGet()
    {
        final Clock idle = new Clock();
        final Clock loaded = new Clock();
        for (int i = 0; i < 100; i++)
        {
            idle.heartbeatAfter(PERIOD);
            loaded.heartbeatAfter(PERIOD);
            // the loaded process's ticker is 2 ms late on idle ticks and 800 ms late once in a while
            loaded.stalls.tick(loaded.lastTick + PERIOD + (i % 20 == 0 ? 800 * MS : 2 * MS));
            loaded.lastTick = loaded.lastTick + PERIOD + (i % 20 == 0 ? 800 * MS : 2 * MS);
            loaded.now = loaded.lastTick;
            loaded.watch.heard(loaded.now, true);
        }
        assertEquals(FLOOR, idle.watch.thresholdNs());
        assertEquals(FLOOR + PeerWatch.LOAD_FACTOR * 800 * MS, loaded.watch.thresholdNs(), 2 * MS);
    }

    @Test
    void anyFrameProvesThePeerAliveButOnlyHeartbeatsAreSampled()
    {
        final Clock c = new Clock();
        for (int i = 0; i < 10; i++)
        {
            c.heartbeatAfter(PERIOD);
        }
        c.advanceTo(c.now + 2000 * MS);
        c.watch.heard(c.now, false); // a store request
        c.advanceTo(c.now + 2000 * MS);
        assertFalse(c.watch.lost(c.now), "silent 2 s since its last frame");
        assertEquals(PERIOD, c.watch.maxIntervalNs());
        c.heartbeatAfter(PERIOD);
        assertEquals(4000 * MS + PERIOD, c.watch.maxIntervalNs());
    }

    @Test
    void whileTheJobFormsTheStartUpDeadlineIsTheFloor()
    {
        final StallClock stalls = new StallClock(PERIOD, 0);
        final PeerWatch w = new PeerWatch(FLOOR, 30_000 * MS, PERIOD, stalls, 0);
        for (long t = PERIOD; t <= 10 * PERIOD; t += PERIOD)
        {
            stalls.tick(t);
            w.heard(t, true);
        }
        final long last = 10 * PERIOD;
        assertFalse(w.lost(last + 3900 * MS), "a root stalled 3.9 s while 64 JVMs start is not lost");
        assertTrue(w.lost(last + 30_001 * MS));
        assertTrue(w.describe(last + 30_001 * MS).endsWith("job forming: SHMEM_BOOTSTRAP_HANDSHAKE_TIMEOUT 30.0 s)"), w.describe(last + 30_001 * MS));
        w.formed();
        assertTrue(w.lost(last + 3100 * MS), w.describe(last + 3100 * MS));
    }

    @Test
    void phiGrowsWithSilence()
    {
        final Clock c = new Clock();
        for (int i = 0; i < 50; i++)
        {
            c.heartbeatAfter(PERIOD);
        }
        double last = -1;
        for (long t = 0; t <= 3000 * MS; t += 100 * MS)
        {
            final double phi = c.watch.phi(t);
            assertTrue(phi >= last, "phi(" + t / 1e6 + " ms) = " + phi + " after " + last);
            last = phi;
        }
        assertTrue(c.watch.phi(PERIOD) < 1, "phi at the mean " + c.watch.phi(PERIOD));
        assertTrue(c.watch.phi(FLOOR) > PeerWatch.PHI_THRESHOLD, "phi at the floor " + c.watch.phi(FLOOR));
    }
}
