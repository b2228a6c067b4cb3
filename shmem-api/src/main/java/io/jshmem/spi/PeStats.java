package io.jshmem.spi;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * One PE's counters for {@code SHMEM_STATS=1}: one-sided operations and their bytes per transport class
 * (the reachability map's transport id of the target: p2p, proxy, ucx) and kind, waits and the time they
 * blocked, collectives by name. The runtime makes one only when the option is set, and every place that
 * counts holds a null reference otherwise, so counting costs one null check when it is off. Safe from
 * any thread (striped {@link LongAdder}s). Not for applications.
 */
public final class PeStats
{
    /** Kind: put, put_nbi, p, iput/ibput blocks, putmem. */
    public static final int PUT = 0;
    /** Kind: get, get_nbi, g, iget/ibget blocks, getmem. */
    public static final int GET = 1;
    /** Kind: an atomic, fetching or not, blocking or nbi. */
    public static final int AMO = 2;
    /** Kind: put-with-signal, signal_add, signal_set (its data bytes, if any). */
    public static final int SIGNAL = 3;

    private static final String[] KIND_NAMES = {"put", "get", "amo", "signal"};
    private static final int KINDS = KIND_NAMES.length;
    /** Transport ids are small (ReachabilityMap: 1 p2p, 2 proxy, 3 ucx); room for a few more. */
    private static final int CLASSES = 16;

    private final LongAdder[] ops = new LongAdder[CLASSES * KINDS];
    private final LongAdder[] bytes = new LongAdder[CLASSES * KINDS];
    private final Map<String, LongAdder[]> waits = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> collectives = new ConcurrentHashMap<>();

    /** Makes zeroed counters. */
    public PeStats()
    {
        for (int i = 0; i < ops.length; i++)
        {
            ops[i] = new LongAdder();
            bytes[i] = new LongAdder();
        }
    }

    /**
     * Counts one operation.
     *
     * @param transportId the target's transport id in the reachability map (p2p, proxy, ucx).
     * @param kind        {@link #PUT}, {@link #GET}, {@link #AMO} or {@link #SIGNAL}.
     * @param byteCount   the data bytes it moved.
     */
    public void op(final int transportId, final int kind, final long byteCount)
    {
        final int i = (transportId & (CLASSES - 1)) * KINDS + kind;
        ops[i].increment();
        bytes[i].add(byteCount);
    }

    /**
     * Counts a wait that blocked (one that was satisfied at once is not counted).
     *
     * @param kind      {@code wait_until}, {@code signal_wait_until}, {@code quiet}, ...
     * @param blockedNs how long it blocked.
     */
    public void waited(final String kind, final long blockedNs)
    {
        final LongAdder[] w = waits.computeIfAbsent(kind, k -> new LongAdder[] {new LongAdder(), new LongAdder()});
        w[0].increment();
        w[1].add(blockedNs);
    }

    /**
     * Counts a collective.
     *
     * @param name the collective ({@code sync}, {@code broadcast}, ...).
     */
    public void collective(final String name)
    {
        collectives.computeIfAbsent(name, k -> new LongAdder()).increment();
    }

    /**
     * The counters as one line, for the finalize printout: per transport class with traffic, each kind's
     * operations and bytes; then blocked waits with their total time; then collectives by name.
     *
     * @param transportName the name of a transport id ({@code Transports.nameOf}).
     * @return e.g. {@code p2p: put 12 ops 96 B, amo 4 ops 32 B; waits: wait_until 3 (1.204 ms); collectives: 5 (sync 4, reduce 1)}.
     */
    public String format(final IntFunction<String> transportName)
    {
        final StringBuilder sb = new StringBuilder();
        for (int c = 0; c < CLASSES; c++)
        {
            final StringBuilder cls = new StringBuilder();
            for (int k = 0; k < KINDS; k++)
            {
                final long n = ops[c * KINDS + k].sum();
                if (n > 0)
                {
                    cls.append(cls.isEmpty() ? "" : ", ").append(KIND_NAMES[k]).append(' ').append(n).append(" ops ")
                        .append(bytes[c * KINDS + k].sum()).append(" B");
                }
            }
            if (!cls.isEmpty())
            {
                sb.append(transportName.apply(c)).append(": ").append(cls).append("; ");
            }
        }
        if (sb.isEmpty())
        {
            sb.append("no one-sided operations; ");
        }
        sb.append("waits:");
        final Map<String, LongAdder[]> w = new TreeMap<>(waits);
        if (w.isEmpty())
        {
            sb.append(" none blocked");
        }
        w.forEach((k, v) -> sb.append(' ').append(k).append(' ').append(v[0].sum())
            .append(String.format(java.util.Locale.ROOT, " (%.3f ms)", v[1].sum() / 1e6)));
        final Map<String, LongAdder> c = new TreeMap<>(collectives);
        long total = 0;
        final StringBuilder names = new StringBuilder();
        for (final Map.Entry<String, LongAdder> e : c.entrySet())
        {
            total += e.getValue().sum();
            names.append(names.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue().sum());
        }
        sb.append("; collectives: ").append(total);
        if (total > 0)
        {
            sb.append(" (").append(names).append(')');
        }
        return sb.toString();
    }
}
