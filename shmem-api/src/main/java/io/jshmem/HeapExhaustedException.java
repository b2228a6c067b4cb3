package io.jshmem;

/**
 * The symmetric heap has no room for a request. The message states the requested, used and free
 * bytes and names {@code SHMEM_SYMMETRIC_SIZE}, the option to raise. Recoverable: the heap is unchanged.
 */
public class HeapExhaustedException extends ShmemException
{
    private static final long serialVersionUID = 1L;

    private final long requestedBytes;
    private final long usedBytes;
    private final long freeBytes;

    public HeapExhaustedException(
        final String message, final long requestedBytes, final long usedBytes, final long freeBytes)
    {
        super(message);
        this.requestedBytes = requestedBytes;
        this.usedBytes = usedBytes;
        this.freeBytes = freeBytes;
    }

    public long requestedBytes()
    {
        return requestedBytes;
    }

    public long usedBytes()
    {
        return usedBytes;
    }

    public long freeBytes()
    {
        return freeBytes;
    }
}
