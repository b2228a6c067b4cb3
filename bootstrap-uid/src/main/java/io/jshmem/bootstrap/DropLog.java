package io.jshmem.bootstrap;

import java.util.function.Consumer;

/**
 * The log of a listener's dropped and rejected connections, rate-limited so strangers cannot flood
 * stderr: the first {@link #BURST} lines of each {@link #INTERVAL_NS} interval are printed, the rest
 * only counted, and one summary line gives the count when the interval ends ({@link #tick()} from the
 * listener's ticker, or the next drop). Thread-safe.
 */
final class DropLog
{
    /** Lines printed per interval. */
    static final int BURST = 5;
    /** Length of an interval. */
    static final long INTERVAL_NS = 10_000_000_000L;

    private final Consumer<String> sink;
    private final String where;
    private final long intervalNs;
    private long start = System.nanoTime();
    private int printed;
    private long suppressed;
    private long total;

    /**
     * @param sink  where lines go (already prefixed by the owner).
     * @param where the listener, for the summary ("root", "PE listener").
     */
    DropLog(final Consumer<String> sink, final String where)
    {
        this(sink, where, INTERVAL_NS);
    }

    DropLog(final Consumer<String> sink, final String where, final long intervalNs)
    {
        this.sink = sink;
        this.where = where;
        this.intervalNs = intervalNs;
    }

    /** Logs one dropped connection, or counts it if this interval's lines are spent. */
    synchronized void drop(final String line)
    {
        roll(System.nanoTime());
        total++;
        if (printed < BURST)
        {
            printed++;
            sink.accept(line);
        }
        else
        {
            suppressed++;
        }
    }

    /** Ends the interval if it is over, printing the summary of what it did not print. */
    synchronized void tick()
    {
        roll(System.nanoTime());
    }

    /** @return every drop so far, printed or not. */
    synchronized long total()
    {
        return total;
    }

    private void roll(final long now)
    {
        if (now - start < intervalNs)
        {
            return;
        }
        if (suppressed > 0)
        {
            sink.accept(suppressed + " more connections dropped on the " + where + " in the last "
                + Math.round((now - start) / 1e9) + " s (only the first " + BURST + " of each " + intervalNs / 1_000_000_000L
                + " s are logged)");
        }
        start = now;
        printed = 0;
        suppressed = 0;
    }
}
