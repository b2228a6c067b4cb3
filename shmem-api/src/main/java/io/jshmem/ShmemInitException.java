package io.jshmem;

/** Initialization failed: a bad option, a bootstrap that could not form, a heap that could not be mapped. */
public class ShmemInitException extends ShmemException
{
    private static final long serialVersionUID = 1L;

    public ShmemInitException(final String message)
    {
        super(Category.ERROR, message, null);
    }

    public ShmemInitException(final String message, final Throwable cause)
    {
        super(Category.ERROR, message, cause);
    }
}
