package io.jshmem.bootstrap;

/**
 * Decides when a peer that heartbeats (a PE, as the root sees it, or the root, as a PE sees it) is
 * lost, adapting to load. A phi accrual failure detector (Hayashibara et al. 2004, as in Akka and
 * Cassandra) over the heartbeat inter-arrival times actually observed, with two guards:
 * <ul>
 *   <li>a floor: until the job forms, the start-up deadline ({@code SHMEM_BOOTSTRAP_HANDSHAKE_TIMEOUT}, see
 *       {@link #formed()}); then never before {@code floorNs} ({@code SHMEM_BOOTSTRAP_PEER_TIMEOUT}) of silence, which is
 *       when a well-behaved peer on an idle machine is declared lost (its heartbeats come every
 *       {@link BootstrapSettings#heartbeatNs()}, so phi passes the threshold long before the floor);</li>
 *   <li>this process's own stalls ({@link StallClock}): the time this JVM's ticker woke late since the
 *       peer was last heard is not counted as the peer's silence.</li>
 * </ul>
 * A peer is lost when its silence, net of this process's stalls, exceeds the floor, twice the longest
 * interval observed and the floor plus {@link #LOAD_FACTOR} times this process's own longest recent stall
 * <em>and</em> phi of that silence reaches {@link #PHI_THRESHOLD}: on a loaded machine,
 * where heartbeats have been arriving late and irregularly, phi grows slowly and the peer gets
 * correspondingly longer. Intervals are measured net of this process's stalls too.
 * <p>
 * phi(t) = -log10(1 - F(t)), F the normal distribution fitted to the last {@link #WINDOW} intervals
 * (logistic approximation of its CDF, as Akka's), standard deviation at least {@code minStdDevNs}.
 * <p>
 * Threads: {@link #heard} from the thread that reads the peer's connection, the rest from the ticker; all synchronized
 * (a few calls a second).
 */
final class PeerWatch
{
    /** Akka's and Cassandra's default threshold: the odds that a live peer is this late are about 10^-8. */
    static final double PHI_THRESHOLD = 8.0;
    /** Inter-arrival samples kept. */
    static final int WINDOW = 200;

    private final long floorNs;
    private final long startupFloorNs;
    private final long expectedIntervalNs;
    private final long minStdDevNs;
    private final StallClock stalls;
    private final long[] intervals = new long[WINDOW];
    private int count;
    private int next;
    private long lastHeardNs;
    private long lastHeartbeatNs = Long.MIN_VALUE;
    private long stallsAtLastHeardNs;
    private long stallsAtLastHeartbeatNs;
    private boolean formed;

    /**
     * @param floorNs            the least silence that can make the peer lost once the job formed (the peer timeout).
     * @param startupFloorNs     the same while the job forms (at least {@code floorNs}).
     * @param expectedIntervalNs the heartbeat period, assumed until intervals are observed.
     * @param stalls             this process's ticker lateness.
     * @param nowNs              now: the peer counts as heard at its start.
     */
    PeerWatch(final long floorNs, final long startupFloorNs, final long expectedIntervalNs, final StallClock stalls, final long nowNs)
    {
        this.floorNs = floorNs;
        this.startupFloorNs = Math.max(floorNs, startupFloorNs);
        this.expectedIntervalNs = Math.max(1, expectedIntervalNs);
        this.minStdDevNs = Math.max(1, expectedIntervalNs / 2);
        this.stalls = stalls;
        this.lastHeardNs = nowNs;
        this.stallsAtLastHeardNs = stalls.totalNs();
    }

    /**
     * @param settings the floors (peer timeout; while the job forms, the handshake timeout) and heartbeat period.
     */
    static PeerWatch of(final BootstrapSettings settings, final StallClock stalls, final long nowNs)
    {
        return new PeerWatch(settings.peerTimeoutNs(), settings.handshakeTimeoutNs(), settings.heartbeatNs(), stalls, nowNs);
    }

    /**
     * The job formed (every PE joined): from now on the floor is the peer timeout. Until then a start-up
     * deadline decides, as for the handshakes: while a whole job's JVMs start on a loaded machine the root
     * and the PEs stall for seconds (3.8 s measured at 64 PEs on 2 cores), and the formation has its own
     * deadline (SHMEM_BOOTSTRAP_TIMEOUT); a peer that dies closes its connection and is lost at once anyway.
     */
    synchronized void formed()
    {
        formed = true;
    }

    /**
     * The peer was heard at {@code nowNs}: any frame proves it alive; a heartbeat also adds the time since
     * the previous heartbeat to the samples.
     */
    synchronized void heard(final long nowNs, final boolean heartbeat)
    {
        final long stalled = stalls.totalNs();
        lastHeardNs = nowNs;
        stallsAtLastHeardNs = stalled;
        if (heartbeat)
        {
            if (lastHeartbeatNs != Long.MIN_VALUE)
            {
                // net of this process's stalls: the interval says how the peer behaves, not how this JVM ran
                intervals[next] = Math.max(0, nowNs - lastHeartbeatNs - (stalled - stallsAtLastHeartbeatNs));
                next = (next + 1) % WINDOW;
                count = Math.min(count + 1, WINDOW);
            }
            lastHeartbeatNs = nowNs;
            stallsAtLastHeartbeatNs = stalled;
        }
    }

    /** @return the silence since the peer was last heard, less this process's stalls meanwhile. */
    synchronized long silenceNs(final long nowNs)
    {
        return Math.max(0, nowNs - lastHeardNs - (stalls.totalNs() - stallsAtLastHeardNs));
    }

    /** @return the raw silence since the peer was last heard. */
    synchronized long sinceHeardNs(final long nowNs)
    {
        return Math.max(0, nowNs - lastHeardNs);
    }

    /** @return true if the peer is lost at {@code nowNs}. */
    synchronized boolean lost(final long nowNs)
    {
        final long silence = silenceNs(nowNs);
        return silence > minimumNs() && phi(silence) >= PHI_THRESHOLD;
    }

    /**
     * @return the least silence that can make the peer lost: the floor, or twice the longest interval in the
     *         window if that is more. Stalls of a loaded JVM are heavy-tailed, which a normal distribution
     *         underrates: a peer that has been silent for 2.4 s and came back is not lost at 3.1 s.
     */
    private long minimumNs()
    {
        return Math.max(Math.max(formed ? floorNs : startupFloorNs, 2 * maxIntervalNs()), floorNs + LOAD_FACTOR * stalls.recentMaxNs());
    }

    /**
     * How many times this process's own recent longest stall a peer gets on top of the floor: on a loaded machine every
     * JVM stalls (the root's heartbeats came 3.5-3.9 s apart at once to many PEs at 64 PEs on 2 cores while the PEs
     * themselves stalled up to 0.8 s), and a peer's stall cannot be seen from here until its heartbeat arrives; this
     * process's own are the best measure of the load at hand. On an idle machine they are a few ms.
     */
    static final int LOAD_FACTOR = 2;

    /** @return phi of a silence of {@code silenceNs} given the intervals observed. */
    synchronized double phi(final long silenceNs)
    {
        final double mean = meanNs();
        final double std = stdDevNs(mean);
        final double y = (silenceNs - mean) / std;
        final double e = Math.exp(-y * (1.5976 + 0.070566 * y * y));
        if (silenceNs > mean)
        {
            return -Math.log10(e / (1.0 + e));
        }
        return -Math.log10(1.0 - 1.0 / (1.0 + e));
    }

    /** @return the silence at which a peer now starts being lost (floor or phi, whichever is later), for messages and tests. */
    synchronized long thresholdNs()
    {
        long lo = minimumNs();
        if (phi(lo) >= PHI_THRESHOLD)
        {
            return lo;
        }
        long hi = Math.max(2 * lo, 1);
        while (phi(hi) < PHI_THRESHOLD && hi < Long.MAX_VALUE / 4)
        {
            hi *= 2;
        }
        while (hi - lo > 1_000_000)
        {
            final long mid = lo + (hi - lo) / 2;
            if (phi(mid) >= PHI_THRESHOLD)
            {
                hi = mid;
            }
            else
            {
                lo = mid;
            }
        }
        return hi;
    }

    synchronized double meanNs()
    {
        if (count < 2)
        {
            return expectedIntervalNs;
        }
        double sum = 0;
        for (int i = 0; i < count; i++)
        {
            sum += intervals[i];
        }
        return sum / count;
    }

    private double stdDevNs(final double mean)
    {
        if (count < 2)
        {
            return minStdDevNs;
        }
        double sq = 0;
        for (int i = 0; i < count; i++)
        {
            final double d = intervals[i] - mean;
            sq += d * d;
        }
        return Math.max(minStdDevNs, Math.sqrt(sq / count));
    }

    /** @return the largest interval observed in the window (0 before two heartbeats). */
    synchronized long maxIntervalNs()
    {
        long max = 0;
        for (int i = 0; i < count; i++)
        {
            max = Math.max(max, intervals[i]);
        }
        return max;
    }

    /**
     * @return why the peer counts as lost: e.g. {@code no heartbeat for 3.4 s (heartbeats every 0.38 s
     *         ± 0.01 s, at most 0.41 s, over the last 200; this process stalled 0.0 s meanwhile;
     *         SHMEM_BOOTSTRAP_PEER_TIMEOUT 3 s)}.
     */
    synchronized String describe(final long nowNs)
    {
        final double mean = meanNs();
        final double std = count < 2 ? 0 : stdDevNs(mean);
        return String.format("no heartbeat for %.1f s (heartbeats every %.2f s ± %.2f s, at most %.2f s, over the last %d;"
            + " this process stalled %.1f s meanwhile, at most %.2f s at once lately; %s %.1f s)",
            sinceHeardNs(nowNs) / 1e9, mean / 1e9, std / 1e9, maxIntervalNs() / 1e9, count,
            (stalls.totalNs() - stallsAtLastHeardNs) / 1e9, stalls.recentMaxNs() / 1e9, formed ? "SHMEM_BOOTSTRAP_PEER_TIMEOUT" : "job forming: SHMEM_BOOTSTRAP_HANDSHAKE_TIMEOUT",
            (formed ? floorNs : startupFloorNs) / 1e9);
    }
}
