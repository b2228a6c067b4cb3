package io.jshmem.team;

import io.jshmem.ContextOption;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricArray;
import io.jshmem.Team;
import io.jshmem.spi.PeStats;
import io.jshmem.transport.ReachabilityMap;

import java.lang.foreign.MemorySegment;

/**
 * The narrow view of a PE the teams module needs: the WORLD default context for one-sided operations,
 * identity for messages, the reachability map and hosts for SHARED and NODE, and two callbacks. One per
 * PE, implemented by the runtime.
 */
public interface TeamHost
{
    /** @return the default context; PE numbers are WORLD's. */
    ShmemContext world();

    /**
     * @return the context the team collectives' signals and data travel on (PE numbers are WORLD's): the runtime
     *         gives them one of their own, so that barrier_all's quiet of the program's contexts does not wait
     *         for the acknowledgements of a previous collective's messages (complete once every member left
     *         it); by default the default context.
     */
    default ShmemContext collectives()
    {
        return world();
    }

    /** @return this PE's WORLD number. */
    int myPe();

    /** @return the number of PEs in WORLD. */
    int nPes();

    /** @return the message prefix {@code "[pe 3/8] "}. */
    String prefix();

    /** @return the transport reachability map (for SHARED). */
    ReachabilityMap reachability();

    /** @return the host identity of every WORLD PE (for NODE). */
    String[] hostOfRank();

    /**
     * @return whether a machine of the job runs more PEs than it has cores, counting every PE on its kernel (test hosts
     *         made of namespaces count together, unlike {@link #hostOfRank()}'s hosts); the same answer on every PE (agreed
     *         at init), so a collective across machines that chooses by it chooses alike everywhere; false by default.
     */
    default boolean sharedCores()
    {
        return false;
    }

    /** @return {@code shmem_ptr} with a WORLD PE number. */
    MemorySegment ptr(SymmetricArray<?> object, int worldPe);

    /** @return true once the context (made by {@link #createContext}) is closed. */
    boolean isClosed(ShmemContext context);

    /**
     * Throws if the PE can no longer be used (it finalized): every team operation asks first, so this
     * must cost no more than a field read while the PE is usable.
     *
     * @param what the operation, for the message.
     * @param team the team it was called on, for the message.
     */
    default void checkUsable(final String what, final Team team)
    {
    }

    /** @return the PE's SHMEM_STATS counters (collectives are counted per name), or null when the option is off. */
    default PeStats stats()
    {
        return null;
    }

    /** Creates a context whose PE numbers are the team's. */
    ShmemContext createContext(Team team, ContextOption... options);
}
