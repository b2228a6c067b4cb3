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
    private final long periodNs;
    private long lastTickNs;
    private volatile long totalNs;
    private volatile long maxLateNs;

    /** @param periodNs the ticker's sleep between ticks. */
    StallClock(final long periodNs, final long nowNs)
    {
        this.periodNs = periodNs;
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

    /** @return the latest any one tick has been. */
    long maxLateNs()
    {
        return maxLateNs;
    }
}
