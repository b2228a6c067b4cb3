package io.jshmem.transport;

import io.jshmem.ShmemInitException;
import io.jshmem.bootstrap.Bootstrap;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The map assembled from every PE's row: entries read back as contributed, the names of the ids, the
 * unreachable pairs and p2p peers, and rows that do not fit the job refused naming the PE. The
 * bootstrap is a stand-in at the test's edge whose allgather returns given rows (the real allgather is
 * tested in bootstrap-uid and through {@link TransportSetTest}).
 */
class ReachabilityMapTest
{
    private static final byte N = ReachabilityMap.NONE;
    private static final byte P = ReachabilityMap.P2P;
    private static final byte X = ReachabilityMap.PROXY;
    private static final byte U = ReachabilityMap.UCX;

    /** A bootstrap of PE {@code rank} whose allgather answers {@code rows} (checking that this PE's row is among them). */
    static Bootstrap gathering(final int rank, final byte[][] rows)
    {
        return (Bootstrap)Proxy.newProxyInstance(ReachabilityMapTest.class.getClassLoader(), new Class<?>[] {Bootstrap.class},
            (proxy, method, args) -> switch (method.getName())
            {
                case "rank" -> rank;
                case "size" -> rows.length;
                case "largestMachineSize" -> rows.length; // every PE on this machine (auto's hybrid choice asks)
                case "allgather" ->
                {
                    assertArrayEquals(rows[rank], (byte[])args[0], "the row this PE contributed");
                    final byte[][] copy = new byte[rows.length][];
                    for (int i = 0; i < rows.length; i++)
                    {
                        copy[i] = rows[i].clone();
                    }
                    yield copy;
                }
                case "toString" -> "test bootstrap of pe " + rank;
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }

    private static ReachabilityMap map(final int rank, final byte[][] rows)
    {
        return ReachabilityMap.gather(gathering(rank, rows), rows[rank].clone());
    }

    @Test
    void everyEntryReadsBackAsItsPeContributedIt()
    {
        final byte[][] rows = {
            {P, P, X, U},
            {P, P, U, X},
            {X, U, P, N},
            {U, X, N, P},
        };
        for (int rank = 0; rank < rows.length; rank++)
        {
            final ReachabilityMap map = map(rank, rows);
            assertEquals(4, map.size());
            for (int from = 0; from < 4; from++)
            {
                for (int to = 0; to < 4; to++)
                {
                    assertEquals(rows[from][to], map.transport(from, to), "pe " + rank + " reads " + from + "->" + to);
                }
            }
            assertArrayEquals(new int[] {0, 1}, map.p2pPeers(0));
            assertArrayEquals(new int[] {0, 1}, map.p2pPeers(1));
            assertArrayEquals(new int[] {2}, map.p2pPeers(2), "a PE reaches itself by p2p");
            assertEquals(List.of("2->3", "3->2"), map.unreachablePairs(8));
            assertEquals(List.of("2->3"), map.unreachablePairs(1), "the list stops at the limit");
            assertEquals(List.of(), map.unreachablePairs(0));
        }
    }

    @Test
    void aFullyConnectedMapHasNoUnreachablePairsAndPrintsItsRows()
    {
        final byte[][] rows = {{P, X, X}, {X, P, X}, {X, X, P}};
        final ReachabilityMap map = map(2, rows);
        assertTrue(map.unreachablePairs(100).isEmpty());
        assertEquals("[1, 2, 2]\n[2, 1, 2]\n[2, 2, 1]\n", map.toString());
        final ReachabilityMap single = map(0, new byte[][] {{P}});
        assertEquals(1, single.size());
        assertArrayEquals(new int[] {0}, single.p2pPeers(0));
        assertTrue(single.unreachablePairs(8).isEmpty());
    }

    @Test
    void idsHaveTheRegistrysNames()
    {
        assertEquals("none", ReachabilityMap.name(N));
        assertEquals("p2p", ReachabilityMap.name(P));
        assertEquals("proxy", ReachabilityMap.name(X));
        assertEquals("transport#42", ReachabilityMap.name((byte)42), "an id no provider has is still printable");
        // the ids are distinct: the map stores one byte per pair
        assertEquals(4, java.util.stream.IntStream.of(N, P, X, U).distinct().count());
        assertNotEquals(ReachabilityMap.name(U), ReachabilityMap.name(X));
    }

    @Test
    void aRowThatDoesNotFitTheJobIsRefusedNamingThePe()
    {
        final byte[][] rows = {{P, X, X}, {X, P}, {X, X, P}};
        for (int rank = 0; rank < 3; rank++)
        {
            final int me = rank;
            final ShmemInitException ex = assertThrows(ShmemInitException.class, () -> map(me, rows), "pe " + rank);
            assertTrue(ex.getMessage().startsWith("[pe " + rank + "/3] "), ex.getMessage());
            assertTrue(ex.getMessage().contains("pe 1 contributed a row of 2 entries for 3 PEs"), ex.getMessage());
        }
        final byte[][] longRow = {{P, X, X, X}, {X, P, X}, {X, X, P}};
        final ShmemInitException ex = assertThrows(ShmemInitException.class, () -> map(1, longRow));
        assertTrue(ex.getMessage().contains("pe 0 contributed a row of 4 entries for 3 PEs"), ex.getMessage());
    }
}
