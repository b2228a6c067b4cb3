package io.jshmem;

/** Initialization failed: a bad option, a bootstrap that could not form, a heap that could not be mapped. */
public class ShmemInitException extends ShmemException
{
    private static final long serialVersionUID = 1L;

    /**
     * Makes the exception.
     *
     * @param message why initialization failed and what to change.
     */
    public ShmemInitException(final String message)
    {
        super(Category.ERROR, message, null);
    }

    /**
     * Makes the exception with a cause.
     *
     * @param message why initialization failed and what to change.
     * @param cause   the underlying failure.
     */
    public ShmemInitException(final String message, final Throwable cause)
    {
        super(Category.ERROR, message, cause);
    }
}
