package io.jshmem.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A bulk put or get of at least {@link #MIN_BYTES} bytes (smaller transfers are not recorded, so the
 * single-element operations never make one). Its duration is the call's: for a blocking put, until the
 * source may be reused; for a get, until the data is here; for nbi forms, the issue only.
 */
@Name("jshmem.Transfer")
@Label("Bulk Transfer")
@Category({"jshmem", "RMA"})
@Description("A put or get of at least 64 KiB on this PE: target PE, transport, bytes")
public final class TransferEvent extends Event
{
    /** Transfers from this many bytes are recorded. */
    public static final long MIN_BYTES = 64 << 10;

    /** The emitting PE's WORLD number. */
    @Label("PE")
    public int pe;

    /** The target PE (in the context's team). */
    @Label("Target PE")
    public int target;

    /** The operation: {@code put}, {@code get}, {@code put_nbi}, {@code get_nbi}, {@code put_signal}. */
    @Label("Operation")
    public String operation;

    /** The transport that carried it: {@code p2p}, {@code proxy}, {@code ucx}. */
    @Label("Transport")
    public String transport;

    /** The bytes moved. */
    @Label("Bytes")
    @DataAmount
    public long bytes;

    /** Makes an event; the runtime fills the fields and commits it. */
    public TransferEvent()
    {
    }
}
