package io.jshmem.bootstrap;

/**
 * How long this process's own ticker did not run when it should have: each tick adds its lateness
 * (the time since the previous tick beyond the period). A peer's silence is measured net of it
 * ({@link PeerWatch}): while this JVM was not scheduled, neither was the thread reading the peer's
 * heartbeats, so the peer is not to blame for that time.
 * <p>
 * Threads: {@link #tick} from the one ticker thread; {@link #totalNs()} from any thread.
 */
final class StallClock
{
    /** Ticks whose lateness {@link #recentMaxNs()} remembers by default (30 s at the default 375 ms period). */
    static final int WINDOW = 80;

    private final long periodNs;
    private final long[] recent;
    private int next;
    private volatile long recentMaxNs;
    private long lastTickNs;
    private volatile long totalNs;
    private volatile long maxLateNs;

    /** @param periodNs the ticker's sleep between ticks. */
    StallClock(final long periodNs, final long nowNs)
    {
        this(periodNs, WINDOW, nowNs);
    }

    /**
     * @param periodNs the ticker's sleep between ticks.
     * @param window   ticks whose lateness {@link #recentMaxNs()} remembers.
     */
    StallClock(final long periodNs, final int window, final long nowNs)
    {
        this.periodNs = periodNs;
        this.recent = new long[window];
        this.lastTickNs = nowNs;
    }

    /**
     * Records a tick at {@code nowNs} (ticker thread only).
     *
     * @return how late this tick was (0 if on time).
     */
    long tick(final long nowNs)
    {
        final long lateNs = Math.max(0, nowNs - lastTickNs - periodNs);
        lastTickNs = nowNs;
        final long evicted = recent[next];
        recent[next] = lateNs;
        next = (next + 1) % recent.length;
        if (lateNs >= recentMaxNs)
        {
            recentMaxNs = lateNs;
        }
        else if (evicted == recentMaxNs)
        {
            long max = 0;
            for (final long l : recent)
            {
                max = Math.max(max, l);
            }
            recentMaxNs = max;
        }
        if (lateNs > 0)
        {
            totalNs += lateNs; // one writer: the ticker
            if (lateNs > maxLateNs)
            {
                maxLateNs = lateNs;
            }
        }
        return lateNs;
    }

    /** @return the sum of every tick's lateness so far. */
    long totalNs()
    {
        return totalNs;
    }

    /**
     * @return the latest any of the last ticks of the window has been: how long this process has recently gone
     *         without running, a measure of the machine's load that a peer sharing it (or as loaded) may suffer too.
     */
    long recentMaxNs()
    {
        return recentMaxNs;
    }

    /** @return the latest any one tick has been. */
    long maxLateNs()
    {
        return maxLateNs;
    }
}
