package io.jshmem.examples.isx;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code isx --trace-exchange}: where each iteration's key exchange goes on this PE. Per iteration: when the exchange
 * started (the monotonic clock, {@link System#nanoTime()}, which PEs on one machine share), the fetch-adds and puts,
 * the quiet that completes the puts, the barrier that waits for the other PEs, and when the iteration began (its first
 * barrier returned: the local phases run between the two); after the exchange, how long zeroing the histogram, the local
 * sort and the iteration's last barrier took (the rest of ISx's TOTAL); per destination, how long its
 * fetch-add took and when it returned. At the iteration's barriers (when its first barrier returned, before and after the
 * barrier after the exchange, before and after its last barrier) it also reads how long this thread has waited for a
 * core so far (the kernel's {@code /proc/thread-self/schedstat}, second field; -1 where it cannot be read), so that a
 * PE leaving a barrier late can be told apart from one that was not running. Recorded in arrays during the run and
 * printed to standard error once the job is over, so the timed phases pay two clock reads per step, and a read of that
 * file at each barrier. Without {@code --trace-exchange} ISx holds {@link #OFF}, whose calls do nothing.
 * {@code benchmarks/plot/isx_exchange.py} summarises the lines of a job.
 * <pre>
 *   EXCHANGE pe P it I start NS exchange US quiet US barrier US began NS zero US sort US last US ended NS
 *       rq_began NS rq_quieted NS rq_done NS rq_sorted NS rq_ended NS
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
    /** This thread's run-queue wait so far (ns) at {@link #began}, {@link #quieted}, {@link #done}, {@link #sorted}, {@link #ended}. */
    private final long[][] waited;
    private final RunQueueWait runQueue;
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
        this.waited = new long[5][rounds];
        this.runQueue = on ? new RunQueueWait() : null;
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

    /** {@link #stamp}, then this thread's run-queue wait so far into {@code waited[which]}. */
    private void stamp(final long[] at, final int which)
    {
        if (on)
        {
            at[iteration] = System.nanoTime();
            waited[which][iteration] = runQueue.nanos();
        }
    }

    /** Iteration {@code it}'s first barrier returned. */
    void began(final int it)
    {
        iteration = it;
        stamp(began, 0);
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
        stamp(quieted, 1);
    }

    void done()
    {
        stamp(done, 2);
    }

    /** The histogram is zeroed (after {@link #done}). */
    void zeroed()
    {
        stamp(zeroed);
    }

    /** The local sort is over. */
    void sorted()
    {
        stamp(sorted, 3);
    }

    /** The iteration's last barrier returned (ISx's TOTAL stops). */
    void ended()
    {
        stamp(ended, 4);
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
                " last %.1f ended %d rq_began %d rq_quieted %d rq_done %d rq_sorted %d rq_ended %d%n", me, it, start[it],
                (exchanged[it] - start[it]) / 1e3, (quieted[it] - exchanged[it]) / 1e3, (done[it] - quieted[it]) / 1e3, began[it],
                (zeroed[it] - done[it]) / 1e3, (sorted[it] - zeroed[it]) / 1e3, (ended[it] - sorted[it]) / 1e3, ended[it],
                waited[0][it], waited[1][it], waited[2][it], waited[3][it], waited[4][it]));
            for (int k = 1; k < n; k++)
            {
                final int at = it * (n - 1) + k - 1;
                b.append(String.format(Locale.ROOT, "FADD pe %d it %d step %d target %d us %.1f end %d%n", me, it, k, target[at],
                    faddNs[at] / 1e3, faddEnd[at]));
            }
        }
        err.print(b);
        err.flush();
        runQueue.close();
    }

    /**
     * The calling thread's time runnable but not running, from {@code /proc/thread-self/schedstat} (opened by the thread
     * that traces, ISx's main thread, and read again from its start each time: no allocation per read).
     */
    private static final class RunQueueWait
    {
        private final FileChannel file;
        private final ByteBuffer buf = ByteBuffer.allocate(128);

        RunQueueWait()
        {
            FileChannel f = null;
            try
            {
                f = FileChannel.open(Path.of("/proc/thread-self/schedstat"));
            }
            catch (final IOException | UnsupportedOperationException ex)
            {
                // not Linux, or no procfs: every reading is -1
            }
            this.file = f;
        }

        void close()
        {
            if (file != null)
            {
                try
                {
                    file.close();
                }
                catch (final IOException ex)
                {
                    // a read-only procfs file: nothing was written that could be lost
                }
            }
        }

        /** @return nanoseconds this thread has waited for a core since it started, or -1 where unknown. */
        long nanos()
        {
            if (file == null)
            {
                return -1;
            }
            try
            {
                buf.clear();
                final int read = file.read(buf, 0);
                // "on-cpu-ns run-queue-wait-ns timeslices\n"
                int i = 0;
                while (i < read && buf.get(i) != ' ')
                {
                    i++;
                }
                long value = 0;
                boolean digits = false;
                for (i++; i < read && buf.get(i) >= '0' && buf.get(i) <= '9'; i++)
                {
                    value = value * 10 + (buf.get(i) - '0');
                    digits = true;
                }
                return digits ? value : -1;
            }
            catch (final IOException ex)
            {
                return -1;
            }
        }
    }
}
