package io.jshmem;

/**
 * {@code shmem_team_config_t}: what a team is asked to support when it is created.
 *
 * @param numContexts the number of contexts the program intends to create from the team (0 = no
 *                    promise; jshmem creates contexts on any team regardless, as the spec allows).
 */
public record TeamConfig(int numContexts)
{
    /** The default configuration ({@code num_contexts = 0}). */
    public static final TeamConfig DEFAULT = new TeamConfig(0);

    /**
     * Checks the configuration.
     *
     * @param numContexts the number of contexts the program intends to create, not negative.
     * @throws IllegalArgumentException if {@code numContexts} is negative.
     */
    public TeamConfig
    {
        if (numContexts < 0)
        {
            throw new IllegalArgumentException("numContexts=" + numContexts + " is negative");
        }
    }
}
