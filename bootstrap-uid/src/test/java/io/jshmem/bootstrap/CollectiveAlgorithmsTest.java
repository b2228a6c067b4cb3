package io.jshmem.bootstrap;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bootstrap's collective algorithms on every N from 1 to 40, PEs as threads over in-memory links that
 * count rounds and messages: results checked block by block (distinct lengths per PE and peer, empty ones
 * included), and the round count is ⌈log2 N⌉.
 */
class CollectiveAlgorithmsTest
{
    private static final int MAX_N = 40;

    /** In-memory point-to-point messages keyed by (src, dst, round); counts what each PE sends. */
    private static final class Net
    {
        final Map<String, BlockingQueue<byte[]>> queues = new ConcurrentHashMap<>();
        final AtomicInteger messages = new AtomicInteger();
        final int[] maxRound;
        final List<java.util.Set<Integer>> peers = new ArrayList<>();

        Net(final int n)
        {
            maxRound = new int[n];
            for (int i = 0; i < n; i++)
            {
                peers.add(ConcurrentHashMap.newKeySet());
            }
        }

        BlockingQueue<byte[]> q(final int src, final int dst, final int round)
        {
            return queues.computeIfAbsent(src + ">" + dst + "#" + round, k -> new LinkedBlockingQueue<>());
        }

        Collectives.Links links(final int me, final int n)
        {
            return new Collectives.Links()
            {
                @Override
                public void send(final int peer, final int round, final byte[] data)
                {
                    assertTrue(peer >= 0 && peer < n && peer != me, "PE " + me + " sends to " + peer + " (N " + n + ")");
                    messages.incrementAndGet();
                    maxRound[me] = Math.max(maxRound[me], round + 1);
                    peers.get(me).add(peer);
                    q(me, peer, round).add(data.clone());
                }

                @Override
                public byte[] recv(final int src, final int round)
                {
                    try
                    {
                        final byte[] b = q(src, me, round).poll(10, TimeUnit.SECONDS);
                        assertTrue(b != null, "PE " + me + " waited for PE " + src + " round " + round + " (N " + n + ")");
                        return b;
                    }
                    catch (final InterruptedException ex)
                    {
                        throw new AssertionError(ex);
                    }
                }
            };
        }
    }

    private static <T> List<T> runAll(final int n, final IntFunction<T> body) throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(n);
        try
        {
            final List<Future<T>> fs = new ArrayList<>();
            for (int r = 0; r < n; r++)
            {
                final int rank = r;
                fs.add(pool.submit(() -> body.apply(rank)));
            }
            final List<T> out = new ArrayList<>();
            for (final Future<T> f : fs)
            {
                out.add(f.get(30, TimeUnit.SECONDS));
            }
            return out;
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    private static int log2Ceil(final int n)
    {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    /** PE r's allgather block: (r * 13) % 29 bytes (0 for r = 0), each naming r. */
    private static byte[] block(final int r, final int salt)
    {
        final byte[] b = new byte[(r * 13 + salt) % 29];
        for (int i = 0; i < b.length; i++)
        {
            b[i] = (byte)(r * 31 + i + salt);
        }
        return b;
    }

    @Test
    void allgatherOnEveryNFromOneToForty() throws Exception
    {
        for (int n = 1; n <= MAX_N; n++)
        {
            final int size = n;
            final Net net = new Net(n);
            final List<byte[][]> results = runAll(n, r -> Collectives.allgather(r, size, block(r, size), net.links(r, size)));
            for (int r = 0; r < n; r++)
            {
                assertEquals(n, results.get(r).length);
                for (int j = 0; j < n; j++)
                {
                    assertArrayEquals(block(j, n), results.get(r)[j], "N " + n + ": PE " + r + "'s block from PE " + j);
                }
                assertEquals(log2Ceil(n), net.maxRound[r], "N " + n + ": rounds of PE " + r);
                assertTrue(net.peers.get(r).size() <= log2Ceil(n), "N " + n + ": PE " + r + " sent to " + net.peers.get(r));
            }
            assertEquals(n * log2Ceil(n), net.messages.get(), "N " + n + ": messages");
            assertTrue(net.queues.values().stream().allMatch(BlockingQueue::isEmpty), "N " + n + ": a message was left unread");
        }
    }

    /** PE r's block for PE j: (r * 7 + j * 3) % 23 bytes naming both. */
    private static byte[] personal(final int r, final int j)
    {
        final byte[] b = new byte[(r * 7 + j * 3) % 23];
        for (int i = 0; i < b.length; i++)
        {
            b[i] = (byte)(r * 17 + j * 5 + i);
        }
        return b;
    }

    @Test
    void alltoallOnEveryNFromOneToForty() throws Exception
    {
        for (int n = 1; n <= MAX_N; n++)
        {
            final int size = n;
            final Net net = new Net(n);
            final List<byte[][]> results = runAll(n, r ->
            {
                final byte[][] to = new byte[size][];
                for (int j = 0; j < size; j++)
                {
                    to[j] = personal(r, j);
                }
                final byte[][] copy = Arrays.stream(to).map(byte[]::clone).toArray(byte[][]::new);
                final byte[][] got = Collectives.alltoall(r, size, to, net.links(r, size));
                for (int j = 0; j < size; j++)
                {
                    assertArrayEquals(copy[j], to[j], "N " + size + ": alltoall changed PE " + r + "'s input");
                }
                return got;
            });
            for (int r = 0; r < n; r++)
            {
                for (int j = 0; j < n; j++)
                {
                    assertArrayEquals(personal(j, r), results.get(r)[j], "N " + n + ": PE " + r + "'s block from PE " + j);
                }
                assertEquals(log2Ceil(n), net.maxRound[r], "N " + n + ": rounds of PE " + r);
            }
            assertTrue(net.queues.values().stream().allMatch(BlockingQueue::isEmpty), "N " + n + ": a message was left unread");
        }
    }

    @Test
    void broadcastAndBarrierOnEveryNFromOneToForty() throws Exception
    {
        for (int n = 1; n <= MAX_N; n++)
        {
            final int size = n;
            for (final int root : new int[] {0, n / 2, n - 1})
            {
                final Net net = new Net(n);
                final List<byte[]> got = runAll(n, r -> Collectives.broadcast(r, size, r == root ? block(root, 7) : null, root,
                    net.links(r, size)));
                for (int r = 0; r < n; r++)
                {
                    assertArrayEquals(block(root, 7), got.get(r), "N " + n + " root " + root + ": PE " + r);
                }
                assertEquals(n - 1, net.messages.get(), "N " + n + ": a broadcast sends N-1 messages");
            }
            final Net net = new Net(n);
            runAll(n, r ->
            {
                Collectives.barrier(r, size, net.links(r, size));
                return null;
            });
            for (int r = 0; r < n; r++)
            {
                assertEquals(log2Ceil(n), net.maxRound[r], "N " + n + ": barrier rounds of PE " + r);
            }
        }
    }

    @Test
    void aMalformedMessageNamesItsSender()
    {
        final byte[][] into = new byte[4][];
        final byte[] two = Collectives.pack(new byte[][] {{1}, {2, 3}}, 0, 2);
        Collectives.unpack(two, into, 1, 2, "allgather", 5);
        assertArrayEquals(new byte[] {2, 3}, into[2]);
        final IllegalStateException wrongCount = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
            () -> Collectives.unpack(two, into, 0, 3, "allgather", 5));
        assertEquals("allgather: PE 5 sent 2 blocks, expected 3", wrongCount.getMessage());
        final byte[] cut = Arrays.copyOf(two, two.length - 1);
        final IllegalStateException truncated = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
            () -> Collectives.unpack(cut, into, 0, 2, "alltoall", 6));
        assertTrue(truncated.getMessage().startsWith("alltoall: PE 6 sent a block of 2 bytes with 1 left"), truncated.getMessage());
    }
}
