package io.jshmem.transport.proxy;

import java.util.Arrays;

/**
 * A debug-only timing harness of the proxy's round trips, on with the system property {@code jshmem.proxy.trace=true}
 * (e.g. {@code -x JAVA_TOOL_OPTIONS=-Djshmem.proxy.trace=true} to bin/shmemrun); a constant when off, so the hooks
 * compile away. Per PE it samples, for blocking gets and fetching atomics (the requester): post to the write that
 * carried the request, that write to the reply's read, the reply's read to the waiter seeing it, and the whole round
 * trip; for the peers' requests it serves (the target): the read that brought the request to the write that carried
 * the reply; for every command, its post to the write that carried it; how long each duty cycle held the agent's lock,
 * on the agent thread and on callers (a cycle the kernel descheduled shows as a long hold); and it counts system calls
 * (reads with and without data, writes, wake-ups, selects) and callers' polls that found the lock taken. Each stage keeps
 * its last 65,536 samples; their median, p90, p99 and maximum, the count and those over 1 ms are printed on stderr when
 * the proxy closes. It also logs, for the first 65,536 signals without data (the collectives' synchronisation), when
 * this PE posted one, when a duty cycle framed it onto its connection (by the proxy thread or a caller), and when it
 * applied one from a peer (and on which thread): printed as {@code SIGNAL} lines after the stages, on the monotonic
 * clock that PEs of one machine share, so that {@code benchmarks/plot/proxy_signals.py} pairs a sender's posts with the
 * target's applies and shows where a late release waited. Agent-lock holders only (the duty cycle), apart from
 * {@link #post}, {@link #done}, {@link #committed}, {@link #signal} and the count of polls locked out (its methods are
 * synchronized).
 * <pre>
 *   SIGNAL pe ME posted|framed TARGET NS agent|caller
 *   SIGNAL pe ME applied SOURCE NS agent|caller
 * </pre>
 */
final class ProxyTrace
{
    static final boolean ON = Boolean.getBoolean("jshmem.proxy.trace");

    static final int POST_TO_WRITTEN = 0;
    static final int WRITTEN_TO_REPLY = 1;
    static final int REPLY_TO_DONE = 2;
    static final int ROUND_TRIP = 3;
    static final int SERVE = 4;
    static final int ANY_POST_TO_WRITTEN = 5;
    static final int AGENT_HOLD = 6;
    static final int CALLER_HOLD = 7;
    private static final String[] STAGES = {"post->request written", "written->reply read", "reply read->waiter done",
        "round trip (post->done)", "target: request read->reply written", "any command: post->written",
        "agent thread's duty cycle (lock held)", "caller's duty cycle (lock held)"};

    static final int READ_DATA = 0;
    static final int READ_EMPTY = 1;
    static final int WRITE = 2;
    static final int WAKEUP = 3;
    static final int SELECT = 4;
    static final int SENT_BY_CALLER = 5;
    static final int SENT_BY_AGENT = 6;
    static final int REPLY_BY_CALLER = 7;
    static final int REPLY_BY_AGENT = 8;
    static final int SERVED_BY_CALLER = 9;
    static final int SERVED_BY_AGENT = 10;
    static final int ROUND_TRIPS = 11;
    static final int CALLER_LOCKED_OUT = 12;
    private static final String[] COUNTERS = {"reads with data", "empty reads", "writes", "wake-ups posted", "selects",
        "requests sent by caller", "by agent", "replies read by caller", "by agent", "requests served by caller", "by agent",
        "round trips", "caller polls that found the lock taken"};

    static final int SIGNAL_POSTED = 0;
    static final int SIGNAL_FRAMED = 1;
    static final int SIGNAL_APPLIED = 2;
    private static final String[] SIGNAL_EVENTS = {"posted", "framed", "applied"};

    private static final int MAX = 1 << 16;
    private final long[] signalNs = new long[MAX];
    /** Per logged signal event: {@code peer << 3 | kind << 1 | 1 when on the proxy thread}. */
    private final int[] signalEvent = new int[MAX];
    private int signals;
    private final long[][] samples = new long[STAGES.length][MAX];
    private final long[] sampleTotal = new long[STAGES.length];
    private final long[] overOneMs = new long[STAGES.length];
    private final long[] counters = new long[COUNTERS.length];
    /** The last blocking request's post time (its API thread). */
    volatile long postNs;
    /** When the last reply read arrived (for the waiter). */
    volatile long replyNs;
    /** The oldest post not yet framed onto a connection (any command: puts, signals, requests), else 0. */
    volatile long pendingNs;

    /** A command was posted (any API thread): stamps it unless an older one is still pending. */
    void committed()
    {
        if (pendingNs == 0)
        {
            pendingNs = System.nanoTime();
        }
    }

    /** @return the oldest pending post's time, now taken by the connection it is framed onto (duty cycle). */
    long takePending()
    {
        final long t = pendingNs;
        pendingNs = 0;
        return t;
    }

    void post()
    {
        postNs = System.nanoTime();
    }

    /** Keeps the last {@link #MAX} samples of each stage (the job's steady end); counts every one, and those over 1 ms. */
    synchronized void sample(final int stage, final long ns)
    {
        if (ns >= 0)
        {
            samples[stage][(int)(sampleTotal[stage] % MAX)] = ns;
            sampleTotal[stage]++;
            if (ns > 1_000_000L)
            {
                overOneMs[stage]++;
            }
        }
    }

    /**
     * Logs a signal without data: {@link #SIGNAL_POSTED} (the API thread, at commit), {@link #SIGNAL_FRAMED} (the duty
     * cycle that copied it onto {@code peer}'s connection) or {@link #SIGNAL_APPLIED} (the duty cycle that applied one
     * from {@code peer}); {@code agentThread}: that thread was the proxy's own.
     */
    synchronized void signal(final int kind, final int peer, final boolean agentThread)
    {
        if (signals < MAX)
        {
            signalNs[signals] = System.nanoTime();
            signalEvent[signals] = peer << 3 | kind << 1 | (agentThread ? 1 : 0);
            signals++;
        }
    }

    synchronized void count(final int counter)
    {
        counters[counter]++;
    }

    /** The waiter saw its reply. */
    void done(final long postedNs)
    {
        final long now = System.nanoTime();
        sample(REPLY_TO_DONE, now - replyNs);
        sample(ROUND_TRIP, now - postedNs);
        count(ROUND_TRIPS);
    }

    /**
     * @param prefix the PE's message prefix ({@code [pe 3/8] }).
     * @param me     this PE (each {@code SIGNAL} line names it: PEs' lines may interleave in the launcher's output).
     */
    synchronized String report(final String prefix, final int me)
    {
        final StringBuilder b = new StringBuilder(prefix).append("proxy trace (median/p90/p99/max us of the last 65536, samples, over 1 ms):");
        for (int s = 0; s < STAGES.length; s++)
        {
            final int n = (int)Math.min(MAX, sampleTotal[s]);
            if (n == 0)
            {
                continue;
            }
            final long[] v = Arrays.copyOf(samples[s], n);
            Arrays.sort(v);
            b.append(String.format("%n  %-40s %8.2f %8.2f %8.2f %9.2f %9d %6d", STAGES[s], v[n / 2] / 1e3, v[n * 9 / 10] / 1e3,
                v[(int)(n * 99L / 100)] / 1e3, v[n - 1] / 1e3, sampleTotal[s], overOneMs[s]));
        }
        b.append(String.format("%n  counts:"));
        for (int c = 0; c < COUNTERS.length; c++)
        {
            b.append(' ').append(COUNTERS[c]).append('=').append(counters[c]);
        }
        for (int i = 0; i < signals; i++)
        {
            final int e = signalEvent[i];
            b.append(String.format("%nSIGNAL pe %d %s %d %d %s", me, SIGNAL_EVENTS[e >> 1 & 3], e >>> 3, signalNs[i],
                (e & 1) != 0 ? "agent" : "caller"));
        }
        return b.toString();
    }
}
