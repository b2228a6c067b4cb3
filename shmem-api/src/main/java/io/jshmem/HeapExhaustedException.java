package io.jshmem;

/**
 * The symmetric heap has no room for a request. The message states the requested, used and free
 * bytes and names {@code SHMEM_SYMMETRIC_SIZE}, the option to raise. Recoverable: the heap is unchanged.
 */
public class HeapExhaustedException extends ShmemException
{
    private static final long serialVersionUID = 1L;

    /** The bytes the failed allocation asked for. */
    private final long requestedBytes;
    /** The heap's bytes in use when it failed. */
    private final long usedBytes;
    /** The heap's bytes free when it failed. */
    private final long freeBytes;

    /**
     * Makes the exception.
     *
     * @param message        what was asked and what is left, naming {@code SHMEM_SYMMETRIC_SIZE}.
     * @param requestedBytes the bytes the allocation asked for.
     * @param usedBytes      the heap's bytes in use.
     * @param freeBytes      the heap's bytes free.
     */
    public HeapExhaustedException(
        final String message, final long requestedBytes, final long usedBytes, final long freeBytes)
    {
        super(message);
        this.requestedBytes = requestedBytes;
        this.usedBytes = usedBytes;
        this.freeBytes = freeBytes;
    }

    /** {@return the bytes the failed allocation asked for} */
    public long requestedBytes()
    {
        return requestedBytes;
    }

    /** {@return the heap's bytes in use when the allocation failed} */
    public long usedBytes()
    {
        return usedBytes;
    }

    /** {@return the heap's bytes free when the allocation failed} */
    public long freeBytes()
    {
        return freeBytes;
    }
}
