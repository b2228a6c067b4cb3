package io.jshmem;

/**
 * Root of every exception jshmem throws for a failure (expected outcomes, such as a
 * {@code test} that is not yet satisfied, are return values instead).
 * <p>
 * Messages name the PE that raised them ({@code [pe 3/8] ...}) and every operand involved.
 * Argument errors use the JDK's {@link IndexOutOfBoundsException} and
 * {@link IllegalArgumentException}, which are not subclasses of this type.
 */
public class ShmemException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** How bad a failure is, after Aeron's categories. */
    public enum Category
    {
        /** The job cannot go on: a peer died, the job was aborted, the bootstrap broke. */
        FATAL,
        /** This call failed; the library stays usable. */
        ERROR,
        /** Something worth saying that did not stop the call. */
        WARN
    }

    /** How bad the failure is. */
    private final Category category;

    /**
     * Makes an exception of category ERROR.
     *
     * @param message what failed, naming the PE and the operands.
     */
    public ShmemException(final String message)
    {
        this(Category.ERROR, message, null);
    }

    /**
     * Makes an exception of category ERROR with a cause.
     *
     * @param message what failed, naming the PE and the operands.
     * @param cause   the underlying failure, or null.
     */
    public ShmemException(final String message, final Throwable cause)
    {
        this(Category.ERROR, message, cause);
    }

    /**
     * Makes an exception.
     *
     * @param category how bad the failure is.
     * @param message  what failed, naming the PE and the operands.
     * @param cause    the underlying failure, or null.
     */
    public ShmemException(final Category category, final String message, final Throwable cause)
    {
        super(message, cause);
        this.category = category;
    }

    /** {@return how bad this failure is} */
    public Category category()
    {
        return category;
    }

    /**
     * Formats the standard message prefix naming a PE.
     *
     * @param pe   the PE, or -1 when it is not known yet.
     * @param nPes the number of PEs, or -1 when it is not known yet.
     * @return {@code "[pe 3/8] "}, or {@code "[pe ?] "} when unknown.
     */
    public static String pePrefix(final int pe, final int nPes)
    {
        return pe < 0 ? "[pe ?] " : "[pe " + pe + "/" + nPes + "] ";
    }
}
