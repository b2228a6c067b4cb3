package io.jshmem.runtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Times the steps of one PE's init: each {@link #mark} closes the phase that ran since the previous mark
 * (or since construction). Used by one thread, the one running {@link ShmemRuntime#start}; the phases it
 * hands out are an immutable copy, so the runtime can publish them to any thread.
 */
final class InitClock
{
    /** {@code config.validate}: every option resolved and parsed. */
    static final String OPTIONS = "options";
    /** {@code Bootstraps.fromConfig}: the job formed, ranks, node ranks and host identities known. */
    static final String BOOTSTRAP = "bootstrap";
    /** The heap size agreed on (an allgather), stale heap files swept, this PE's heap file created and mapped. */
    static final String HEAP = "heap";
    /** {@code TransportSet.open}: endpoints exchanged, the reachability map gathered, connections made. */
    static final String TRANSPORTS = "transports";
    /** The runtime object: RMA engine, allocator, the team slot pool and WORLD, SHARED, NODE. */
    static final String TEAMS = "teams";
    /** The closing bootstrap barrier and WORLD's team sync. */
    static final String BARRIER = "barrier";

    private final LinkedHashMap<String, Long> phases = new LinkedHashMap<>();
    private long lastNs = System.nanoTime();

    /**
     * Ends the phase {@code name} now.
     *
     * @param name the phase that just ran; a name marked again adds to its time.
     */
    void mark(final String name)
    {
        final long now = System.nanoTime();
        phases.merge(name, now - lastNs, Long::sum);
        lastNs = now;
    }

    /** {@return the phases marked so far, in order, name to nanoseconds, immutable} */
    Map<String, Long> phases()
    {
        return Collections.unmodifiableSequencedMap(new LinkedHashMap<>(phases));
    }

    /**
     * @param phases phases as {@link #phases()} returns them.
     * @return one line: {@code "options 0.4 ms, bootstrap 812.0 ms, ... (total 1204.7 ms)"}.
     */
    static String format(final Map<String, Long> phases)
    {
        final StringBuilder sb = new StringBuilder();
        long total = 0;
        for (final Map.Entry<String, Long> e : phases.entrySet())
        {
            sb.append(sb.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(String.format("%.1f ms", e.getValue() / 1e6));
            total += e.getValue();
        }
        return sb.append(String.format(" (total %.1f ms)", total / 1e6)).toString();
    }
}
