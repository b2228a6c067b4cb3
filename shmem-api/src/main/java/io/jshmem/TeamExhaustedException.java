package io.jshmem;

/**
 * A team could not be created because every team slot reserved at init is in use by some PE of the
 * parent ({@code SHMEM_TEAMS_MAX}). Thrown on every PE of the parent; nothing changed, so destroying
 * teams and splitting again works.
 */
public class TeamExhaustedException extends ShmemException
{
    private static final long serialVersionUID = 1L;

    /**
     * Makes the exception.
     *
     * @param message which team could not be made, naming the slots in use and {@code SHMEM_TEAMS_MAX}.
     */
    public TeamExhaustedException(final String message)
    {
        super(Category.ERROR, message, null);
    }
}
