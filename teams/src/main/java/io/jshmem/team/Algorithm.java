package io.jshmem.team;

import io.jshmem.ConfigurationException;
import io.jshmem.config.Option;
import io.jshmem.config.ShmemConfig;

import java.util.Locale;

/**
 * The algorithms of each collective, one enum per collective, parsed once per PE from
 * {@code SHMEM_<COLLECTIVE>_ALGORITHM}. {@code AUTO} lets {@link Choice} pick by team size, bytes and
 * node layout. The option text of a constant is its name in lower case ({@code scatter_allgather}).
 */
final class Algorithm
{
    private Algorithm()
    {
    }

    /** Team sync, barrier_all, sync_all ({@code SHMEM_BARRIER_ALGORITHM}). */
    enum Sync
    {
        AUTO, LINEAR, DISSEMINATION, HIERARCHICAL
    }

    /** Broadcast ({@code SHMEM_BROADCAST_ALGORITHM}). */
    enum Broadcast
    {
        AUTO, LINEAR, TREE, SCATTER_ALLGATHER, HIERARCHICAL
    }

    /** Collect and fcollect ({@code SHMEM_COLLECT_ALGORITHM}, {@code SHMEM_FCOLLECT_ALGORITHM}). */
    enum Allgather
    {
        AUTO, LINEAR, RING, RECURSIVE_DOUBLING, HIERARCHICAL
    }

    /** Alltoall and alltoalls ({@code SHMEM_ALLTOALL_ALGORITHM}). */
    enum Alltoall
    {
        AUTO, LINEAR, PAIRWISE, HIERARCHICAL, AGGREGATE
    }

    /** Reductions ({@code SHMEM_REDUCE_ALGORITHM}). */
    enum Reduce
    {
        AUTO, LINEAR, RECURSIVE_DOUBLING, RING, DIRECT, HIERARCHICAL, SPLIT
    }

    /** Inclusive and exclusive scans ({@code SHMEM_SCAN_ALGORITHM}). */
    enum Scan
    {
        AUTO, LINEAR, RECURSIVE_DOUBLING
    }

    /** @return the option text of an algorithm ({@code scatter_allgather}). */
    static String text(final Enum<?> algorithm)
    {
        return algorithm.name().toLowerCase(Locale.ROOT);
    }

    /**
     * @return the algorithm the option names.
     * @throws ConfigurationException naming the variable, its value and every accepted name, for a name
     *                                that is not one of the enum's.
     */
    static <E extends Enum<E>> E parse(final ShmemConfig config, final Option<String> option, final Class<E> type)
    {
        return parse(option.envName(), config.get(option), type);
    }

    static <E extends Enum<E>> E parse(final String variable, final String text, final Class<E> type)
    {
        final String wanted = text == null ? "" : text.strip();
        final StringBuilder accepted = new StringBuilder();
        for (final E e : type.getEnumConstants())
        {
            if (text(e).equalsIgnoreCase(wanted))
            {
                return e;
            }
            accepted.append(accepted.isEmpty() ? "" : ", ").append(text(e));
        }
        throw new ConfigurationException(variable, variable + "='" + text + "' is not an algorithm of this collective; accepted: " +
            accepted);
    }
}
