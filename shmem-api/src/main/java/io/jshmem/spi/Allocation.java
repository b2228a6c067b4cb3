package io.jshmem.spi;

/**
 * One collective allocation in a PE's symmetric heap, shared by every handle and slice made from it.
 * The runtime marks it freed so that later use of a stale handle fails instead of touching whatever
 * the heap holds there now. Not for applications.
 */
public final class Allocation
{
    private final SymmetricSpace space;
    private final long offset;
    private final long byteSize;
    private final long serial;
    private volatile boolean live = true;

    /**

     * Describes an allocation (runtime use).

     *
     * @param space    the PE whose heap holds it.
     * @param offset   byte offset in the heap.
     * @param byteSize size in bytes.
     * @param serial   the allocation's sequence number (same on every PE).
     */
    public Allocation(final SymmetricSpace space, final long offset, final long byteSize, final long serial)
    {
        this.space = space;
        this.offset = offset;
        this.byteSize = byteSize;
        this.serial = serial;
    }

    /** {@return the PE whose heap holds the allocation} */
    public SymmetricSpace space()
    {
        return space;
    }

    /** {@return the allocation's byte offset in the heap, the same on every PE} */
    public long offset()
    {
        return offset;
    }

    /** {@return the allocation's size in bytes} */
    public long byteSize()
    {
        return byteSize;
    }

    /** {@return the allocation's sequence number, the same on every PE} */
    public long serial()
    {
        return serial;
    }

    /** {@return false once {@link #markFreed()} has been called} */
    public boolean isLive()
    {
        return live;
    }

    /** Called by the runtime when the allocation is freed or moved by realloc. */
    public void markFreed()
    {
        live = false;
    }

    @Override
    public String toString()
    {
        return "allocation#" + serial + "[offset=" + offset + " bytes=" + byteSize + (live ? "" : " FREED") + "]";
    }
}
