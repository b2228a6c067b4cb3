package io.jshmem.team;

import io.jshmem.ConfigurationException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Nodes from host identities and from the test layout; p2p only within a node; per-node leaders of the two-level collectives. */
class NodeLayoutTest
{
    @Test
    void nodesAreNumberedInOrderOfFirstAppearance()
    {
        assertArrayEquals(new int[] {0, 1, 0, 1, 2}, NodeLayout.nodes(new String[] {"b", "a", "b", "a", "c"}));
        assertArrayEquals(new int[] {0, 0, 1, 1}, NodeLayout.parseTest("2,2", 4));
        assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1}, NodeLayout.parseTest(" 3, 3 ", 6));
        assertArrayEquals(new int[] {0, 0, 0, 1}, NodeLayout.parseTest("3,1", 4));
        assertArrayEquals(new int[] {0, 1, 0, 1, 0, 1}, NodeLayout.parseTest("cyclic:2", 6));
        assertArrayEquals(new int[] {0, 1, 2, 0, 1}, NodeLayout.parseTest(" cyclic: 3 ", 5));
    }

    @Test
    void badTestLayoutsAreConfigurationErrors()
    {
        for (final String bad : new String[] {"2,x", "0,4", "2,1", "3,3", "", "cyclic:", "cyclic:x", "cyclic:0", "cyclic:5"})
        {
            final ConfigurationException ex = assertThrows(ConfigurationException.class, () -> NodeLayout.parseTest(bad, 4), bad);
            assertEquals(NodeLayout.TEST_VARIABLE, ex.optionName());
            assertTrue(ex.getMessage().contains("'" + bad + "'"), ex.getMessage());
        }
    }

    @Test
    void p2pOnlyWithinANodeAndWhereTheTransportReaches()
    {
        final NodeLayout layout = new NodeLayout(NodeLayout.parseTest("3,1", 4), (a, b) -> !(a == 1 && b == 2));
        assertTrue(layout.p2p(0, 2));
        assertFalse(layout.p2p(1, 2), "the transport does not reach");
        assertTrue(layout.p2p(2, 1));
        assertFalse(layout.p2p(0, 3), "another node");
        assertFalse(layout.p2p(3, 0), "another node");
        assertTrue(layout.p2p(3, 3));
        assertEquals(1, layout.node(3));
    }

    @Test
    void leadersAreTheLowestTeamPeOfEachNode()
    {
        for (final String text : new String[] {"2,2", "3,3", "3,1", "1,3", "1,1,1,1", "4"})
        {
            final int[] nodes = NodeLayout.parseTest(text, text.chars().filter(Character::isDigit).map(c -> c - '0').sum());
            checkLeaders(text, nodes);
        }
        checkLeaders("round robin", NodeLayout.nodes(new String[] {"a", "b", "a", "b", "a", "b"}));
        checkLeaders("irregular", NodeLayout.nodes(new String[] {"a", "b", "b", "c", "a", "a", "c"}));
    }

    private static void checkLeaders(final String what, final int[] nodes)
    {
        final int n = nodes.length;
        final List<Integer> leaders = new ArrayList<>();
        for (int r = 0; r < n; r++)
        {
            boolean first = true;
            for (int q = 0; q < r; q++)
            {
                first &= nodes[q] != nodes[r];
            }
            if (first)
            {
                leaders.add(r);
            }
        }
        for (int me = 0; me < n; me++)
        {
            final Hierarchy h = Hierarchy.of(n, me, r -> nodes[r]);
            assertEquals(leaders, java.util.Arrays.stream(h.leaders()).boxed().toList(), what);
            final List<Integer> group = new ArrayList<>();
            for (int r = 0; r < n; r++)
            {
                if (nodes[r] == nodes[me])
                {
                    group.add(r);
                }
            }
            assertEquals(group, java.util.Arrays.stream(h.group()).boxed().toList(), what + " group of " + me);
            assertEquals(group.get(0), h.leaderOf()[me]);
            assertEquals(me, h.group()[h.myIndex()]);
            assertEquals(me == group.get(0) ? leaders.indexOf(me) : -1, h.leaderIndex());
            assertEquals(leaders.size() > 1 && group.size() > 1 || leaders.size() > 1 && h.maxGroup() > 1, h.isTwoLevel());
        }
    }
}
