package io.jshmem.transport;

import io.jshmem.ShmemInitException;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.bootstrap.BootstrapRoot;
import io.jshmem.bootstrap.BootstrapSettings;
import io.jshmem.bootstrap.Bootstraps;
import io.jshmem.bootstrap.UniqueId;
import io.jshmem.config.ShmemConfig;
import io.jshmem.heap.HeapFile;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry and the per-PE dispatch: how {@code SHMEM_TRANSPORT} resolves, which transport each PE is
 * reached by, which context slots a PE holds, and what init says when the list is wrong. Three PEs as
 * threads on this host, each with its own bootstrap, heap and transports.
 */
class TransportSetTest
{
    private static final int N = 3;
    /** The notices the PEs' transports wrote (TransportSetup.log), cleared before every test. */
    private static final java.util.Queue<String> LOG = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private static Map<String, String> extraEnv = Map.of();
    /** More variables for one rank ({@link #each}): a PE configured unlike the others. */
    private static IntFunction<Map<String, String>> rankEnv = rank -> Map.of();

    @org.junit.jupiter.api.BeforeEach
    void clear()
    {
        LOG.clear();
        extraEnv = Map.of();
        rankEnv = rank -> Map.of();
    }

    interface Body
    {
        void run(int me, TransportSet set, Bootstrap bootstrap) throws Exception;
    }

    @Test
    void autoIsP2pThenTheProvidersInTheirAutoOrder() throws Exception
    {
        each(rank -> "auto", (me, set, b) ->
        {
            final List<String> expected = new ArrayList<>(List.of("p2p"));
            final TransportSetup setup = new TransportSetup(b, null, HeapFile.DEFAULT_DIRECTORY, ShmemConfig.of(Map.of(), null, null),
                c -> c, s -> { });
            ServiceLoader.load(TransportProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.autoOrder(setup) >= 0)
                .sorted(Comparator.comparingInt((TransportProvider p) -> p.autoOrder(setup)))
                .forEach(p -> expected.add(p.name()));
            assertEquals(expected, set.names());
            assertTrue(set.names().contains("proxy"), "the proxy is always in the automatic list: " + set.names());
            // one node: p2p maps everyone, so no remote transport is used and contexts hold no slot
            assertTrue(set.used().isEmpty(), set.used()::toString);
            assertNull(set.newContexts(false));
            assertEquals(List.of("p2p: reaches 2 of 2 other PEs", "proxy: reaches 0 of 2 other PEs"), set.describe().subList(0, 2));
            for (int pe = 0; pe < N; pe++)
            {
                assertNull(set.remoteOf(pe));
                assertEquals(-1, set.slotOf(pe));
                assertNotNull(set.p2p().heapOf(pe));
            }
        });
    }

    @Test
    void proxyAloneReachesEveryOtherPeThroughOneSlot() throws Exception
    {
        each(rank -> "proxy", (me, set, b) ->
        {
            final int right = (me + 1) % N;
            for (int pe = 0; pe < N; pe++)
            {
                assertEquals(pe == me ? ReachabilityMap.P2P : ReachabilityMap.PROXY, set.map().transport(me, pe));
                assertEquals(pe == me ? -1 : 0, set.slotOf(pe));
                assertEquals(pe == me ? null : "proxy", pe == me ? null : set.remoteOf(pe).name());
            }
            assertNull(set.p2p().heapOf(right), "p2p maps no peer when it is not listed");
            assertEquals(1, set.used().size(), "one remote transport: one context slot");
            ringPut(me, set, b, 1000);
        });
    }

    @Test
    void anUnknownNameIsRefusedNamingTheKnownOnes()
    {
        final Exception ex = assertThrows(Exception.class, () -> each(rank -> "p2p,verbs", (me, set, b) -> { }));
        final Throwable cause = rootInit(ex);
        assertTrue(cause.getMessage().contains("'verbs' is not a transport (known: p2p, proxy"), cause.getMessage());
        assertTrue(cause.getMessage().startsWith("[pe "), cause.getMessage());
    }

    @Test
    void autoStandsAlone()
    {
        final Exception ex = assertThrows(Exception.class, () -> each(rank -> "auto,proxy", (me, set, b) -> { }));
        assertTrue(rootInit(ex).getMessage().contains("'auto' stands alone"), rootInit(ex).getMessage());
    }

    @Test
    void explicitListsThatDifferBetweenPesFailNamingThem()
    {
        final Exception ex = assertThrows(Exception.class, () -> each(rank -> rank == 1 ? "proxy" : "p2p,proxy", (me, set, b) -> { }));
        final String msg = rootInit(ex).getMessage();
        assertTrue(msg.contains("SHMEM_TRANSPORT differs between PEs (pe 0: p2p,proxy; pe 1: proxy)"), msg);
    }

    @Test
    void theRegistryKnowsEveryProviderByNameAndId()
    {
        assertEquals("p2p", Transports.names().get(0));
        assertTrue(Transports.names().contains("proxy"));
        assertSame(Transports.provider("proxy").getClass(), io.jshmem.transport.proxy.ProxyProvider.class);
        assertNull(Transports.provider("p2p"), "p2p is built in");
        assertEquals("proxy", ReachabilityMap.name(ReachabilityMap.PROXY));
        assertEquals("p2p", ReachabilityMap.name(ReachabilityMap.P2P));
        assertEquals("none", ReachabilityMap.name(ReachabilityMap.NONE));
        assertArrayEquals(new String[] {"p2p", "proxy"}, Transports.resolve(List.of("p2p", "proxy"), null).toArray());
        assertTrue(Transports.names().contains("ucx"));
        assertSame(Transports.provider("ucx").getClass(), io.jshmem.transport.ucx.UcxProvider.class);
        assertEquals("ucx", ReachabilityMap.name(ReachabilityMap.UCX));
    }

    @Test
    void ucxAloneReachesEveryOtherPeAndSaysWhichUcx() throws Exception
    {
        each(rank -> "ucx", (me, set, b) ->
        {
            for (int pe = 0; pe < N; pe++)
            {
                assertEquals(pe == me ? ReachabilityMap.P2P : ReachabilityMap.UCX, set.map().transport(me, pe));
            }
            assertTrue(set.describe().get(0).startsWith("ucx: reaches 2 of 2 other PEs (UCX 1."), set.describe()::toString);
            ringPut(me, set, b, 2000);
        });
    }

    @Test
    void ucxListedWithoutItsLibraryIsOneLineAndTheNextListedIsUsed() throws Exception
    {
        extraEnv = Map.of("SHMEM_UCX_LIBRARY", "/nonexistent/libucp.so.0");
        each(rank -> "ucx,proxy", (me, set, b) ->
        {
            for (int pe = 0; pe < N; pe++)
            {
                assertEquals(pe == me ? ReachabilityMap.P2P : ReachabilityMap.PROXY, set.map().transport(me, pe));
            }
        });
        final List<String> notes = LOG.stream().filter(l -> l.contains("not using 'ucx'")).toList();
        assertEquals(1, notes.size(), LOG::toString); // from the node's first PE only
        assertTrue(notes.get(0).contains("/nonexistent/libucp.so.0") && notes.get(0).contains("libucx0") &&
            notes.get(0).endsWith("using proxy"), notes.get(0));
    }

    /**
     * The proxy listed after ucx, which reaches every peer, would carry nothing where every PE made ucx: it is not made
     * at all (no ring, thread or listener to make and close), and SHMEM_INFO's line says why.
     */
    @Test
    void aTransportListedAfterOneThatReachesEveryPeerIsNotMadeWhereEveryPeMadeThatOne() throws Exception
    {
        each(rank -> "ucx,proxy", (me, set, b) ->
        {
            for (int pe = 0; pe < N; pe++)
            {
                assertEquals(pe == me ? ReachabilityMap.P2P : ReachabilityMap.UCX, set.map().transport(me, pe));
            }
            assertEquals("proxy: not made (every PE made ucx, which reaches every other PE)", set.describe().get(1));
            assertEquals(1, set.used().size(), set.used()::toString);
        });
    }

    /**
     * One PE cannot make ucx (its library is missing there): the others make the proxy after the endpoints show it, in a
     * second exchange, and reach that PE through it while they reach each other through ucx; data goes round both ways.
     */
    @Test
    void aPeWithoutTheFirstTransportIsReachedThroughTheDeferredOne() throws Exception
    {
        final int odd = N - 1;
        rankEnv = rank -> rank == odd ? Map.of("SHMEM_UCX_LIBRARY", "/nonexistent/libucp.so.0") : Map.of();
        each(rank -> "ucx,proxy", (me, set, b) ->
        {
            for (int pe = 0; pe < N; pe++)
            {
                final byte expected = pe == me ? ReachabilityMap.P2P : me == odd || pe == odd ? ReachabilityMap.PROXY : ReachabilityMap.UCX;
                assertEquals(expected, set.map().transport(me, pe), "pe " + me + " to " + pe);
            }
            ringPut(me, set, b, 3000);
        });
    }

    @Test
    void ucxForcedWithoutItsLibraryFailsInitNamingTheLibraryAndThePackage()
    {
        extraEnv = Map.of("SHMEM_UCX_LIBRARY", "/nonexistent/libucp.so.0");
        final Exception ex = assertThrows(Exception.class, () -> each(rank -> "ucx", (me, set, b) -> { }));
        final String msg = rootInit(ex).getMessage();
        assertTrue(msg.startsWith("[pe ") && msg.contains("SHMEM_TRANSPORT=ucx") && msg.contains("cannot load /nonexistent/libucp.so.0") &&
            msg.contains("apt-get install libucx0"), msg);
    }

    private static Throwable rootInit(final Throwable ex)
    {
        for (Throwable t = ex; t != null; t = t.getCause())
        {
            if (t instanceof ShmemInitException)
            {
                return t;
            }
        }
        throw new AssertionError("no ShmemInitException in " + ex, ex);
    }

    /** Runs body on N PEs (threads), each with SHMEM_TRANSPORT from {@code list}; rethrows the first failure. */
    /** Each PE puts {@code base + me} to its right neighbour through the transport reaching it; each checks its left's arrived. */
    private static void ringPut(final int me, final TransportSet set, final Bootstrap b, final long base)
    {
        final int right = (me + 1) % N;
        final TransportContext[] tcs = set.newContexts(false);
        final long[] v = {base + me};
        set.remoteOf(right).put(tcs[set.slotOf(right)], right, 64, MemorySegment.ofArray(v), false);
        set.quiet(tcs);
        b.barrier();
        assertEquals(base + (me + N - 1) % N, set.p2p().heapOf(me).get(ValueLayout.JAVA_LONG, 64));
        b.barrier();
        TransportSet.closeContexts(tcs);
    }

    private static void each(final IntFunction<String> list, final Body body) throws Exception
    {
        final ShmemConfig rootConfig = ShmemConfig.of(Map.of("SHMEM_BOOTSTRAP_TIMEOUT", "20s"), null, null);
        try (BootstrapRoot root = UniqueId.createRoot(rootConfig))
        {
            final ExecutorService pool = Executors.newFixedThreadPool(N, r -> Thread.ofPlatform().daemon().name("set-pe").unstarted(r));
            try
            {
                final List<Future<?>> futures = new ArrayList<>();
                for (int rank = 0; rank < N; rank++)
                {
                    final Map<String, String> env = new HashMap<>();
                    env.put("JSHMEM_RANK", Integer.toString(rank));
                    env.put("JSHMEM_SIZE", Integer.toString(N));
                    env.put("SHMEM_BOOTSTRAP_UID", root.uniqueId().toText());
                    env.put("SHMEM_BOOTSTRAP_TIMEOUT", "20s");
                    env.put("SHMEM_TRANSPORT", list.apply(rank));
                    env.putAll(extraEnv);
                    env.putAll(rankEnv.apply(rank));
                    final ShmemConfig config = ShmemConfig.of(env, null, null);
                    futures.add(pool.submit(() -> {
                        runPe(config, body);
                        return null;
                    }));
                }
                Exception first = null;
                for (final Future<?> f : futures)
                {
                    try
                    {
                        f.get(60, TimeUnit.SECONDS);
                    }
                    catch (final Exception ex)
                    {
                        if (first == null)
                        {
                            first = ex;
                        }
                    }
                }
                if (first != null)
                {
                    throw first;
                }
            }
            finally
            {
                pool.shutdownNow();
            }
        }
    }

    private static void runPe(final ShmemConfig config, final Body body) throws Exception
    {
        try (Bootstrap b = Bootstraps.fromConfig(config, BootstrapSettings.from(config).withExitOnFailure(false));
            HeapFile heap = HeapFile.create(HeapFile.DEFAULT_DIRECTORY, b.jobId(), b.rank(), b.size(), 1L << 20))
        {
            final TransportSetup setup = new TransportSetup(b, heap, HeapFile.DEFAULT_DIRECTORY, config,
                TransportContractTest.idleOf(b), LOG::add);
            try (TransportSet set = TransportSet.open(setup, config.get(io.jshmem.config.ShmemOptions.TRANSPORT)))
            {
                body.run(b.rank(), set, b);
                b.barrier();
                set.quiesce();
                b.barrier();
            }
        }
    }
}
