package io.jshmem;

/**
 * PEs disagreed on a collective call: a different routine, size or sequence on one PE. Detected when
 * {@code SHMEM_DEBUG} is set (and, for allocation sizes, always where it is cheap).
 */
public class CollectiveMismatchException extends ShmemException
{
    private static final long serialVersionUID = 1L;

    /**
     * Makes the exception (category FATAL).
     *
     * @param message what differed, naming the PEs and the values.
     */
    public CollectiveMismatchException(final String message)
    {
        super(Category.FATAL, message, null);
    }
}
