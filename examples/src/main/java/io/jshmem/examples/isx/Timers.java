package io.jshmem.examples.isx;

/**
 * Seconds per phase and iteration, and the keys sent to other PEs per iteration, for one PE. ISx starts a fresh
 * set after the burn-in iteration, so only the timed iterations are in it. Monotonic clock ({@link System#nanoTime}).
 */
final class Timers
{
    private final double[][] seconds;
    private final int[] laps;
    private final long[] started = new long[Phase.values().length];
    private final long[] sent;
    private int counts;

    Timers(final int iterations)
    {
        seconds = new double[Phase.values().length][iterations];
        laps = new int[Phase.values().length];
        sent = new long[iterations];
    }

    void start(final Phase phase)
    {
        started[phase.ordinal()] = System.nanoTime();
    }

    void stop(final Phase phase)
    {
        final long t = System.nanoTime();
        final int p = phase.ordinal();
        seconds[p][laps[p]++] = (t - started[p]) / 1e9;
    }

    void count(final long keysSent)
    {
        sent[counts++] = keysSent;
    }

    /** {@return the seconds of a phase in timed iteration {@code i}} */
    double seconds(final Phase phase, final int i)
    {
        return seconds[phase.ordinal()][i];
    }

    /** {@return keys sent to other PEs in timed iteration {@code i}} */
    long sent(final int i)
    {
        return sent[i];
    }

    /** {@return this PE's means over the iterations: one per phase in {@link Phase} order, then the keys sent} */
    double[] means()
    {
        final double[] m = new double[Phase.COLUMNS];
        for (final Phase ph : Phase.values())
        {
            final int p = ph.ordinal();
            double sum = 0;
            for (int i = 0; i < laps[p]; i++)
            {
                sum += seconds[p][i];
            }
            m[p] = laps[p] == 0 ? 0 : sum / laps[p];
        }
        double s = 0;
        for (int i = 0; i < counts; i++)
        {
            s += sent[i];
        }
        m[Phase.COLUMNS - 1] = counts == 0 ? 0 : s / counts;
        return m;
    }
}
