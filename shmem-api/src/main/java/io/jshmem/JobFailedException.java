package io.jshmem;

/**
 * The job cannot go on: a PE died or became unreachable, the bootstrap lost its root, or another PE
 * ended the job. Every blocking operation that waits on another process throws this (or a subclass)
 * instead of waiting forever.
 */
public class JobFailedException extends ShmemException
{
    private static final long serialVersionUID = 1L;

    /** The lost PE (world numbering), or -1. */
    private final int lostPe;

    /**
     * Makes the exception (category FATAL).
     *
     * @param message what failed, naming this PE and the lost one.
     * @param lostPe  the PE (world numbering) whose loss caused the failure, or -1 if none is known.
     * @param cause   the underlying failure, or null.
     */
    public JobFailedException(final String message, final int lostPe, final Throwable cause)
    {
        super(Category.FATAL, message, cause);
        this.lostPe = lostPe;
    }

    /** {@return the PE (world numbering) whose loss caused the failure, or -1 if none is known} */
    public int lostPe()
    {
        return lostPe;
    }
}
