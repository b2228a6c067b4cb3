package io.jshmem.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A wait that blocked: {@code wait_until} and its all/any/some forms, {@code signal_wait_until}, or a
 * quiet that waited for remote completions. Only waits that were not satisfied at once are timed, and
 * only those longer than the threshold (default 1 ms, {@code jshmem.Wait#threshold} in a recording's
 * settings) are recorded.
 */
@Name("jshmem.Wait")
@Label("Wait")
@Category({"jshmem", "Waits"})
@Description("A wait_until, signal wait or quiet on this PE that blocked longer than the threshold")
@Threshold("1 ms")
public final class WaitEvent extends Event
{
    /** The emitting PE's WORLD number. */
    @Label("PE")
    public int pe;

    /** What waited: {@code wait_until}, {@code wait_until_all}, ..., {@code signal_wait_until}, {@code quiet}. */
    @Label("Kind")
    public String kind;

    /** The object waited on ({@code SymmetricLongs[offset=4096 length=8]}) or the context that quieted. */
    @Label("Object")
    public String object;

    /** The element index waited on, -1 for set waits and quiet. */
    @Label("Index")
    public long index;

    /** Makes an event; the waiting code fills the fields and commits it. */
    public WaitEvent()
    {
    }
}
