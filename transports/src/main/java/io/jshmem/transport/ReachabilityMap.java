package io.jshmem.transport;

import io.jshmem.ShmemException;
import io.jshmem.ShmemInitException;
import io.jshmem.bootstrap.Bootstrap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The npes × npes map of which PE reaches which by which transport (init step 5): each PE contributes
 * its row, an allgather assembles the matrix, so every PE holds the same map.
 */
public final class ReachabilityMap
{
    /** Transport ids stored in the map. */
    public static final byte NONE = 0;
    /** Reached by load/store into a mapped heap. */
    public static final byte P2P = 1;
    /** Reached through the CPU proxy over TCP. */
    public static final byte PROXY = 2;
    /** Reached through UCX (RDMA verbs on clusters, tcp or shared memory otherwise). */
    public static final byte UCX = 3;
    /** Reached through the proxy and UCX both, chosen per operation ({@code io.jshmem.transport.hybrid}). */
    public static final byte HYBRID = 4;

    /** @return the name of a transport id, for messages (the registry's name for it). */
    public static String name(final byte id)
    {
        return Transports.nameOf(id);
    }

    private final byte[][] map;

    private ReachabilityMap(final byte[][] map)
    {
        this.map = map;
    }

    /**
     * Collective: gathers every PE's row.
     *
     * @param bootstrap the job's bootstrap.
     * @param myRow     the transport id reaching each PE from this PE.
     * @return the job's map.
     * @throws ShmemInitException on every PE when some PE's row does not have one entry per PE, naming that PE.
     */
    public static ReachabilityMap gather(final Bootstrap bootstrap, final byte[] myRow)
    {
        final byte[][] rows = bootstrap.allgather(myRow);
        for (int pe = 0; pe < rows.length; pe++)
        {
            // checked after the gather, so that every PE fails alike instead of one leaving the others in the collective
            if (rows[pe].length != rows.length)
            {
                throw new ShmemInitException(ShmemException.pePrefix(bootstrap.rank(), rows.length) + "reachability map: pe " + pe +
                    " contributed a row of " + rows[pe].length + " entries for " + rows.length + " PEs");
            }
        }
        return new ReachabilityMap(rows);
    }

    /** @return the transport id PE {@code from} uses to reach PE {@code to}. */
    public byte transport(final int from, final int to)
    {
        return map[from][to];
    }

    /**
     * @return this map with every entry {@code from} read as {@code to}: what a transport composed of others gives each
     *         of them, so that it connects the pairs the composite serves.
     */
    public ReachabilityMap replacing(final byte from, final byte to)
    {
        final byte[][] rows = new byte[map.length][];
        for (int i = 0; i < map.length; i++)
        {
            rows[i] = map[i].clone();
            for (int j = 0; j < rows[i].length; j++)
            {
                if (rows[i][j] == from)
                {
                    rows[i][j] = to;
                }
            }
        }
        return new ReachabilityMap(rows);
    }

    /** @return the number of PEs. */
    public int size()
    {
        return map.length;
    }

    /** @return for each PE, the PEs it cannot reach by any transport (empty lists when fully connected). */
    public List<String> unreachablePairs(final int limit)
    {
        final List<String> pairs = new ArrayList<>();
        for (int from = 0; from < map.length && pairs.size() < limit; from++)
        {
            for (int to = 0; to < map.length && pairs.size() < limit; to++)
            {
                if (map[from][to] == NONE)
                {
                    pairs.add(from + "->" + to);
                }
            }
        }
        return pairs;
    }

    /** @return the PEs {@code pe} reaches by p2p (including itself), in increasing order. */
    public int[] p2pPeers(final int pe)
    {
        return java.util.stream.IntStream.range(0, map.length).filter(q -> map[pe][q] == P2P).toArray();
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder();
        for (final byte[] row : map)
        {
            sb.append(Arrays.toString(row)).append('\n');
        }
        return sb.toString();
    }
}
