package io.jshmem.team;

import io.jshmem.ConfigurationException;
import io.jshmem.transport.ReachabilityMap;

import java.util.Arrays;

/**
 * Where the job's PEs are, as the teams module sees it: the node (host identity) of every WORLD PE,
 * numbered in order of first appearance, and which ordered pairs of PEs reach each other by p2p
 * (load/store on the mapped heap). NODE and the node-aware collectives' groups come from the nodes;
 * SHARED and the one-round algorithms that read peers' heaps come from the p2p pairs.
 * <p>
 * {@value #TEST_VARIABLE} (tests only, read from the job's environment): a comma-separated list of PE
 * counts, e.g. {@code 2,2} or {@code 3,1}, places consecutive WORLD PEs on pretend nodes of those
 * sizes; PEs on different pretend nodes are then not p2p for the teams module, although the transport
 * still maps them. That runs the multi-node choices and algorithms with every PE in one JVM.
 * {@code cyclic:K} places WORLD PE i on pretend node {@code i mod K} instead (round-robin, as a launcher
 * mapping ranks by node does), so a node's members are not consecutive ranks.
 */
final class NodeLayout
{
    /** The test hook's variable. */
    static final String TEST_VARIABLE = "JSHMEM_TEST_NODE_LAYOUT";

    /** The test hook's round-robin form: {@code cyclic:K}. */
    static final String CYCLIC = "cyclic:";

    /** Which ordered pairs of WORLD PEs the transports connect by p2p. */
    interface Reach
    {
        boolean p2p(int from, int to);
    }

    private final int[] nodeOfWorld;
    private final Reach reach;

    NodeLayout(final int[] nodeOfWorld, final Reach reach)
    {
        this.nodeOfWorld = nodeOfWorld;
        this.reach = reach;
    }

    /** The layout of the job: the hosts and the reachability map, or the test layout when {@code testLayout} is set. */
    static NodeLayout of(final String[] hostOfRank, final ReachabilityMap map, final String testLayout)
    {
        final Reach reach = (a, b) -> map.transport(a, b) == ReachabilityMap.P2P;
        if (testLayout != null && !testLayout.isBlank())
        {
            return new NodeLayout(parseTest(testLayout, hostOfRank.length), reach);
        }
        return new NodeLayout(nodes(hostOfRank), reach);
    }

    /** @return the node number of every PE: equal host identities get equal numbers, in order of first appearance. */
    static int[] nodes(final String[] hostOfRank)
    {
        final java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        final int[] nodes = new int[hostOfRank.length];
        for (int pe = 0; pe < hostOfRank.length; pe++)
        {
            nodes[pe] = seen.computeIfAbsent(hostOfRank[pe], h -> seen.size());
        }
        return nodes;
    }

    static int[] parseTest(final String text, final int nPes)
    {
        final int[] nodes = new int[nPes];
        final String trimmed = text.strip();
        if (trimmed.startsWith(CYCLIC))
        {
            final String k = trimmed.substring(CYCLIC.length()).strip();
            final int count;
            try
            {
                count = Integer.parseInt(k);
            }
            catch (final NumberFormatException ex)
            {
                throw new ConfigurationException(TEST_VARIABLE, TEST_VARIABLE + "='" + text + "' does not name a number of nodes after '" +
                    CYCLIC + "'");
            }
            if (count < 1 || count > nPes)
            {
                throw new ConfigurationException(TEST_VARIABLE, TEST_VARIABLE + "='" + text + "' asks for " + count +
                    " nodes; the job has " + nPes + " PEs");
            }
            for (int pe = 0; pe < nPes; pe++)
            {
                nodes[pe] = pe % count;
            }
            return nodes;
        }
        int pe = 0;
        int node = 0;
        try
        {
            for (final String part : text.split(","))
            {
                final int count = Integer.parseInt(part.strip());
                if (count < 1)
                {
                    throw new NumberFormatException("a node of " + count + " PEs");
                }
                for (int i = 0; i < count; i++, pe++)
                {
                    if (pe < nPes)
                    {
                        nodes[pe] = node;
                    }
                }
                node++;
            }
        }
        catch (final NumberFormatException ex)
        {
            throw new ConfigurationException(TEST_VARIABLE, TEST_VARIABLE + "='" + text + "' is not a list of PE counts per node (" +
                ex.getMessage() + ")");
        }
        if (pe != nPes)
        {
            throw new ConfigurationException(TEST_VARIABLE, TEST_VARIABLE + "='" + text + "' places " + pe + " PEs, the job has " + nPes);
        }
        return nodes;
    }

    /** @return the node of a WORLD PE. */
    int node(final int worldPe)
    {
        return nodeOfWorld[worldPe];
    }

    /** @return whether WORLD PE a reaches WORLD PE b by p2p (same node, and p2p in the reachability map). */
    boolean p2p(final int a, final int b)
    {
        return a == b || nodeOfWorld[a] == nodeOfWorld[b] && reach.p2p(a, b);
    }

    @Override
    public String toString()
    {
        return "nodes " + Arrays.toString(nodeOfWorld);
    }
}
