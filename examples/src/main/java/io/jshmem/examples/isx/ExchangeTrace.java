package io.jshmem.examples.isx;

import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code isx --trace-exchange}: where each iteration's key exchange goes on this PE. Per iteration: when the exchange
 * started (the monotonic clock, {@link System#nanoTime()}, which PEs on one machine share), the fetch-adds and puts,
 * the quiet that completes the puts, the barrier that waits for the other PEs, and when the iteration began (its first
 * barrier returned: the local phases run between the two); after the exchange, how long zeroing the histogram, the local
 * sort and the iteration's last barrier took (the rest of ISx's TOTAL); per destination, how long its
 * fetch-add took and when it returned. Recorded in arrays during the run and printed to standard error once the job is
 * over, so the timed phases pay two clock reads per step and nothing else. Without {@code --trace-exchange} ISx holds
 * {@link #OFF}, whose calls do nothing. {@code benchmarks/plot/isx_exchange.py}
 * summarises the lines of a job.
 * <pre>
 *   EXCHANGE pe P it I start NS exchange US quiet US barrier US began NS zero US sort US last US
 *   FADD pe P it I step K target T us US end NS
 * </pre>
 */
final class ExchangeTrace
{
    /** The trace of a run without {@code --trace-exchange}: records and prints nothing. */
    static final ExchangeTrace OFF = new ExchangeTrace(0, 1, 0, false);

    private final boolean on;
    private final int me;
    private final int n;
    private final long[] began;
    private final long[] start;
    private final long[] exchanged;
    private final long[] quieted;
    private final long[] done;
    private final long[] zeroed;
    private final long[] sorted;
    private final long[] ended;
    private final int[] target;
    private final long[] faddNs;
    private final long[] faddEnd;
    private int iteration;

    ExchangeTrace(final int me, final int n, final int rounds)
    {
        this(me, n, rounds, true);
    }

    private ExchangeTrace(final int me, final int n, final int rounds, final boolean on)
    {
        this.on = on;
        this.me = me;
        this.n = n;
        this.began = new long[rounds];
        this.start = new long[rounds];
        this.exchanged = new long[rounds];
        this.quieted = new long[rounds];
        this.done = new long[rounds];
        this.zeroed = new long[rounds];
        this.sorted = new long[rounds];
        this.ended = new long[rounds];
        this.target = new int[rounds * (n - 1)];
        this.faddNs = new long[rounds * (n - 1)];
        this.faddEnd = new long[rounds * (n - 1)];
    }

    /** @return whether this run traces (ISx's extra quiet before the barrier after the exchange is the trace's). */
    boolean on()
    {
        return on;
    }

    /** @return the clock, or 0 when not tracing: the start of a fetch-add for {@link #fetchAdd}. */
    long now()
    {
        return on ? System.nanoTime() : 0;
    }

    private void stamp(final long[] at)
    {
        if (on)
        {
            at[iteration] = System.nanoTime();
        }
    }

    /** Iteration {@code it}'s first barrier returned. */
    void began(final int it)
    {
        iteration = it;
        stamp(began);
    }

    void start()
    {
        stamp(start);
    }

    /** A remote reservation: the fetch-add of step {@code step} (1 to n - 1) to {@code pe} began at {@code begin} and returned now. */
    void fetchAdd(final int step, final int pe, final long begin)
    {
        if (!on)
        {
            return;
        }
        final long now = System.nanoTime();
        final int at = iteration * (n - 1) + step - 1;
        target[at] = pe;
        faddNs[at] = now - begin;
        faddEnd[at] = now;
    }

    void exchanged()
    {
        stamp(exchanged);
    }

    void quieted()
    {
        stamp(quieted);
    }

    void done()
    {
        stamp(done);
    }

    /** The histogram is zeroed (after {@link #done}). */
    void zeroed()
    {
        stamp(zeroed);
    }

    /** The local sort is over. */
    void sorted()
    {
        stamp(sorted);
    }

    /** The iteration's last barrier returned (ISx's TOTAL stops). */
    void ended()
    {
        stamp(ended);
    }

    void print(final PrintStream err)
    {
        if (!on)
        {
            return;
        }
        final StringBuilder b = new StringBuilder();
        for (int it = 0; it < start.length; it++)
        {
            b.append(String.format(Locale.ROOT, "EXCHANGE pe %d it %d start %d exchange %.1f quiet %.1f barrier %.1f began %d zero %.1f sort %.1f" +
                " last %.1f%n", me, it, start[it], (exchanged[it] - start[it]) / 1e3, (quieted[it] - exchanged[it]) / 1e3,
                (done[it] - quieted[it]) / 1e3, began[it], (zeroed[it] - done[it]) / 1e3, (sorted[it] - zeroed[it]) / 1e3,
                (ended[it] - sorted[it]) / 1e3));
            for (int k = 1; k < n; k++)
            {
                final int at = it * (n - 1) + k - 1;
                b.append(String.format(Locale.ROOT, "FADD pe %d it %d step %d target %d us %.1f end %d%n", me, it, k, target[at],
                    faddNs[at] / 1e3, faddEnd[at]));
            }
        }
        err.print(b);
        err.flush();
    }
}
