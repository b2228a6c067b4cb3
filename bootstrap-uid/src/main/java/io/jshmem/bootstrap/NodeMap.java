package io.jshmem.bootstrap;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Node identity from the allgathered host identities: which node each rank is on (numbered in order
 * of first rank), each rank's index on its node, PEs per node, and the placement pattern.
 */
record NodeMap(int[] nodeOfRank, int[] nodeRankOf, int[] nodeSizes, String placement)
{
    static NodeMap of(final String[] hosts)
    {
        final int n = hosts.length;
        final Map<String, Integer> nodes = new LinkedHashMap<>();
        final int[] nodeOf = new int[n];
        final int[] nodeRank = new int[n];
        final List<Integer> counts = new ArrayList<>();
        for (int r = 0; r < n; r++)
        {
            final int node = nodes.computeIfAbsent(hosts[r], h -> nodes.size());
            if (node == counts.size())
            {
                counts.add(0);
            }
            nodeOf[r] = node;
            nodeRank[r] = counts.get(node);
            counts.set(node, counts.get(node) + 1);
        }
        final int[] sizes = counts.stream().mapToInt(Integer::intValue).toArray();
        return new NodeMap(nodeOf, nodeRank, sizes, placement(nodeOf, sizes.length));
    }

    /** @return "single node", "block", "round-robin" or "irregular". */
    static String placement(final int[] nodeOf, final int nodes)
    {
        if (nodes == 1)
        {
            return "single node";
        }
        boolean block = true;
        boolean roundRobin = true;
        for (int r = 0; r < nodeOf.length; r++)
        {
            block &= r == 0 || nodeOf[r] == nodeOf[r - 1] || nodeOf[r] == nodeOf[r - 1] + 1;
            roundRobin &= nodeOf[r] == r % nodes;
        }
        return block ? "block" : roundRobin ? "round-robin" : "irregular";
    }

    boolean uniform()
    {
        for (final int s : nodeSizes)
        {
            if (s != nodeSizes[0])
            {
                return false;
            }
        }
        return true;
    }

    String describe()
    {
        return nodeSizes.length + " node(s), placement " + placement + ", PEs per node " + java.util.Arrays.toString(nodeSizes)
            + (uniform() ? "" : " (PEs per node differ)");
    }
}
