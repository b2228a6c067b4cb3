package io.jshmem.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A symmetric heap operation on this PE: an allocation ({@code malloc}, {@code calloc}, {@code align},
 * {@code realloc}), a {@code free}, or an allocation the heap had no room for ({@code exhausted}). Its
 * duration is this PE's allocator work (the collective call's barriers are not in it). calloc and the
 * typed {@code allocate*} shortcuts, which zero, show as {@code calloc}.
 */
@Name("jshmem.Heap")
@Label("Symmetric Heap")
@Category({"jshmem", "Heap"})
@Description("A symmetric allocation, free or exhaustion on this PE: bytes, offset, heap use")
public final class HeapEvent extends Event
{
    /** The emitting PE's WORLD number. */
    @Label("PE")
    public int pe;

    /** {@code malloc}, {@code calloc}, {@code align}, {@code realloc}, {@code free} or {@code exhausted}. */
    @Label("Operation")
    public String operation;

    /** The bytes asked for (freed, for free). */
    @Label("Bytes")
    @DataAmount
    public long bytes;

    /** The object's heap offset, -1 when none was made. */
    @Label("Offset")
    public long offset;

    /** The heap's bytes in use after the operation. */
    @Label("Heap Used")
    @DataAmount
    public long usedBytes;

    /** The heap's bytes free after the operation. */
    @Label("Heap Free")
    @DataAmount
    public long freeBytes;

    /** Makes an event; the runtime fills the fields and commits it. */
    public HeapEvent()
    {
    }
}
