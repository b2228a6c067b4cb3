package io.jshmem;

/**
 * {@code shmem_session_config_t} of OpenSHMEM 1.6: what a program expects of a session it starts on a
 * context ({@link ShmemContext#sessionStart}). Hints only; they never change what an operation does.
 *
 * @param totalOps the number of operations the session expects to issue ({@code total_ops},
 *                 {@code SHMEM_SESSION_TOTAL_OPS}); 0 when not given.
 */
public record SessionConfig(long totalOps)
{
    /** No configuration (a config mask of 0). */
    public static final SessionConfig NONE = new SessionConfig(0);

    /**
     * Checks the configuration.
     *
     * @param totalOps expected operations, not negative.
     * @throws IllegalArgumentException if {@code totalOps} is negative.
     */
    public SessionConfig
    {
        if (totalOps < 0)
        {
            throw new IllegalArgumentException("session totalOps=" + totalOps + " is negative");
        }
    }
}
