package io.jshmem.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Something a transport did with its connections: connected its peers at init (duration: the connection
 * step), lost a peer (the job then fails), dropped a stranger that failed the handshake.
 */
@Name("jshmem.Transport")
@Label("Transport")
@Category({"jshmem", "Transports"})
@Description("A transport connected its peers, lost one, or dropped a stranger")
@StackTrace(false)
public final class TransportEvent extends Event
{
    /** The emitting PE's WORLD number. */
    @Label("PE")
    public int pe;

    /** The transport: {@code p2p}, {@code proxy}, {@code ucx}. */
    @Label("Transport")
    public String transport;

    /** What happened: {@code connected}, {@code lost}, {@code stranger dropped}. */
    @Label("What")
    public String what;

    /** The peer PE (WORLD), or -1 where there is none (connected, a stranger). */
    @Label("Peer PE")
    public int peer;

    /** For {@code connected}: the number of peers this PE reaches through the transport. */
    @Label("Peers")
    public int peers;

    /** Why, for failures: the message the job fails with, or why a stranger was dropped. */
    @Label("Detail")
    public String detail;

    /** Makes an event; the transport fills the fields and commits it. */
    public TransportEvent()
    {
    }

    /**
     * Records a lost peer or a dropped stranger, if any recording wants it.
     *
     * @param pe        the emitting PE's WORLD number.
     * @param transport the transport's name.
     * @param what      {@code lost} or {@code stranger dropped}.
     * @param peer      the peer's WORLD number, or -1.
     * @param detail    why.
     */
    public static void failure(final int pe, final String transport, final String what, final int peer, final String detail)
    {
        final TransportEvent e = new TransportEvent();
        if (e.shouldCommit())
        {
            e.pe = pe;
            e.transport = transport;
            e.what = what;
            e.peer = peer;
            e.detail = detail;
            e.commit();
        }
    }
}
