package io.jshmem.jfr;

import jdk.jfr.FlightRecorder;

/**
 * Whether this JVM runs JDK Flight Recorder, asked before an event of this package is made.
 * <p>
 * The first load of an event class starts JFR's metadata and the instrumentation of the JDK's own event classes, whether
 * or not anything records: on the JDK 25 of this project that took 160-190 ms of a PE's main thread and about 0.3 s of
 * CPU time, with some 500 methods compiled for it (docs/library.md, "Observing a job"). Where PEs share a node, every
 * PE paid it at once during init. So jshmem makes its events only once JFR has started in the JVM, at start-up
 * ({@code -XX:StartFlightRecording}, {@code shmemrun --jfr}) or later ({@code jcmd PID JFR.start}): from then on they are
 * recorded as before.
 */
public final class Jfr
{
    private Jfr()
    {
    }

    /**
     * Whether JFR has started in this JVM: a volatile read that loads none of JFR's machinery.
     *
     * @return true once JFR has started (a recording may want jshmem's events).
     */
    public static boolean started()
    {
        return FlightRecorder.isInitialized();
    }

    // One factory per event type, each naming its own class: a shared one taking or returning jdk.jfr.Event would make the
    // verifier load the caller's event class (to check it is an Event) when it verifies the caller, JFR or not.

    /**
     * Makes and begins a {@link WaitEvent} where JFR has started.
     *
     * @return the event, or null where JFR has not started.
     */
    public static WaitEvent waitBegun()
    {
        if (!started())
        {
            return null;
        }
        final WaitEvent e = new WaitEvent();
        e.begin();
        return e;
    }

    /**
     * Makes and begins a {@link TransferEvent} where JFR has started.
     *
     * @return the event, or null where JFR has not started.
     */
    public static TransferEvent transferBegun()
    {
        if (!started())
        {
            return null;
        }
        final TransferEvent e = new TransferEvent();
        e.begin();
        return e;
    }

    /**
     * Makes and begins a {@link HeapEvent} where JFR has started.
     *
     * @return the event, or null where JFR has not started.
     */
    public static HeapEvent heapBegun()
    {
        if (!started())
        {
            return null;
        }
        final HeapEvent e = new HeapEvent();
        e.begin();
        return e;
    }

    /**
     * Makes and begins a {@link TransportEvent} where JFR has started.
     *
     * @return the event, or null where JFR has not started.
     */
    public static TransportEvent transportBegun()
    {
        if (!started())
        {
            return null;
        }
        final TransportEvent e = new TransportEvent();
        e.begin();
        return e;
    }

    /**
     * Makes and begins a {@link CollectiveEvent} where JFR has started and a recording has the event enabled.
     *
     * @return the event, or null.
     */
    public static CollectiveEvent collectiveBegun()
    {
        if (!started())
        {
            return null;
        }
        final CollectiveEvent e = new CollectiveEvent();
        if (!e.isEnabled())
        {
            return null;
        }
        e.begin();
        return e;
    }

    /**
     * Records a transport's lost peer, failed dial or dropped stranger ({@code jshmem.Transport}) where JFR has started.
     *
     * @param pe        the emitting PE's WORLD number.
     * @param transport the transport's name.
     * @param what      {@code lost}, {@code connect failed} or {@code stranger dropped}.
     * @param peer      the peer's WORLD number, or -1.
     * @param detail    why.
     * @see TransportEvent#failure
     */
    public static void transportFailure(final int pe, final String transport, final String what, final int peer, final String detail)
    {
        if (started())
        {
            TransportEvent.failure(pe, transport, what, peer, detail);
        }
    }
}
