package io.jshmem.transport;

import io.jshmem.ShmemInitException;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.jfr.Jfr;
import io.jshmem.jfr.TransportEvent;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One PE's transports, connected, and the per-PE dispatch the runtime uses (init steps 4-6 of
 * ARCHITECTURE.md). {@link #open} resolves {@code SHMEM_TRANSPORT} through the registry
 * ({@link Transports}), makes the transports, exchanges their endpoints in one allgather, builds this PE's
 * row of the {@link ReachabilityMap} (for each PE, the first listed transport that reaches it), gathers
 * the map and connects every transport in the listed order.
 * <p>
 * Dispatch: {@link #remoteOf(int)} is the transport reaching a PE that p2p does not map, and
 * {@link #slotOf(int)} its index among {@link #used()}, the remote transports this PE sends through; a
 * context holds one {@link TransportContext} per used transport ({@link #newContexts(boolean)}), so a hot-path
 * operation is two array loads. A transport that neither reaches a PE from here nor is used by any PE to
 * reach this one is closed right after connect (an idle progress thread or listener costs nothing then). Where every
 * PE is on one node and p2p is listed first, p2p takes every pair, so no remote transport is made at all. A remote
 * transport listed after one that reaches every peer ({@link TransportProvider#reachesEveryPeer}) is made only where
 * some PE published none of those earlier ones, with its endpoints in a second allgather ({@code makeDeferred}).
 * <p>
 * Every PE must resolve the same list of transports: {@code auto} may differ between hosts (a host
 * without a native library), so the job uses PE 0's list and a PE that cannot make one of its transports
 * publishes no endpoint for it (no pair then uses it); an explicit list that differs between PEs fails
 * init naming them.
 */
public final class TransportSet implements AutoCloseable
{
    private final P2pTransport p2p;
    private final List<String> names;
    private final Transport[] listed;
    private final Transport[] used;
    private final Transport[] remoteOf;
    private final int[] slotOf;
    private final ReachabilityMap map;
    private final Map<String, Integer> reached;
    private final Map<String, String> unavailable;
    /** Listed transports this PE did not make because no pair would use them ({@link #open}'s deferred ones), and why. */
    private final Map<String, String> notMade;

    private TransportSet(final P2pTransport p2p, final List<String> names, final Transport[] listed, final Transport[] used,
        final Transport[] remoteOf, final int[] slotOf, final ReachabilityMap map, final Map<String, Integer> reached,
        final Map<String, String> unavailable, final Map<String, String> notMade)
    {
        this.p2p = p2p;
        this.names = names;
        this.listed = listed;
        this.used = used;
        this.remoteOf = remoteOf;
        this.slotOf = slotOf;
        this.map = map;
        this.reached = reached;
        this.unavailable = unavailable;
        this.notMade = notMade;
    }

    /**
     * Makes and connects this PE's transports. Collective: every PE of the job calls it.
     *
     * @param setup      what the transports are made from.
     * @param configured the parsed {@code SHMEM_TRANSPORT}.
     * @return the connected set.
     * @throws ShmemInitException when a pair of PEs is reached by no transport, a forced transport cannot be
     *         used here, or PEs were configured with different lists.
     */
    public static TransportSet open(final TransportSetup setup, final List<String> configured)
    {
        final Bootstrap bootstrap = setup.bootstrap();
        final String prefix = setup.prefix();
        final int me = bootstrap.rank();
        final int n = bootstrap.size();
        final boolean auto = configured.equals(List.of(Transports.AUTO));
        final List<String> names = agreeOnNames(bootstrap, prefix, auto, resolve(configured, setup, prefix));
        final Transport[] listed = new Transport[names.size()];
        final Map<String, String> unavailable = new LinkedHashMap<>();
        P2pTransport p2p = null;
        try
        {
            p2p = new P2pTransport(bootstrap, setup.heap(), setup.directory(), names.contains(Transports.P2P));
            // every PE on one node with p2p preferred: p2p takes every pair, so no remote transport would be used by
            // anyone; none is made (the proxy's ring, thread and listening socket cost a PE about 30 ms of init)
            final boolean p2pTakesEveryPair = names.indexOf(Transports.P2P) == 0 && bootstrap.nodeSize() == n;
            boolean anyRemote = false;
            // a remote transport listed after one that reaches every peer (hybrid or ucx before the proxy) would reach
            // nobody wherever that one is made: it is made only once the endpoints show a PE without any such (deferred)
            final boolean[] deferred = new boolean[listed.length];
            for (int i = 0; i < listed.length; i++)
            {
                final String name = names.get(i);
                if (Transports.P2P.equals(name))
                {
                    listed[i] = p2p;
                    continue;
                }
                final TransportProvider provider = Transports.provider(name);
                final String why = provider.unavailableReason(setup);
                deferred[i] = !p2pTakesEveryPair && !covering(names, i).isEmpty(); // by name alone: every PE defers alike
                if (why == null)
                {
                    listed[i] = p2pTakesEveryPair || deferred[i] ? null : create(provider, setup, auto && i < listed.length - 1, unavailable);
                    anyRemote |= p2pTakesEveryPair || deferred[i] || listed[i] != null;
                }
                else
                {
                    unavailable.put(name, why);
                }
            }
            if (!auto && !anyRemote && !unavailable.isEmpty())
            {
                throw new ShmemInitException(prefix + "SHMEM_TRANSPORT=" + String.join(",", configured) + ": " + describe(unavailable));
            }
            // steps 4-5: one allgather of every listed transport's endpoint (empty where this PE has not made it)
            final byte[][][] endpoints = decode(bootstrap.allgather(encode(listed)), names.size(), prefix);
            final Map<String, String> notMade = makeDeferred(setup, names, listed, deferred, endpoints, auto, unavailable);
            if (!unavailable.isEmpty() && bootstrap.nodeRank() == 0 && !auto)
            {
                setup.log().accept(prefix + "not using " + describe(unavailable) + "; using " + String.join(",", namesOf(listed, names)));
            }
            final byte[] row = new byte[n];
            for (int pe = 0; pe < n; pe++)
            {
                for (int i = 0; i < listed.length && row[pe] == ReachabilityMap.NONE; i++)
                {
                    final Transport t = listed[i];
                    if (t != null && (t == p2p || endpoints[i][pe].length > 0) && t.canReach(pe))
                    {
                        row[pe] = t.id();
                    }
                }
            }
            row[me] = ReachabilityMap.P2P;
            final ReachabilityMap map = ReachabilityMap.gather(bootstrap, row);
            final List<String> unreachable = map.unreachablePairs(8);
            if (!unreachable.isEmpty())
            {
                throw new ShmemInitException(prefix + "PEs cannot reach each other (" + String.join(", ", unreachable) +
                    (unreachable.size() == 8 ? ", ..." : "") + "; hosts " + Arrays.toString(bootstrap.hostOfRank()) +
                    "): no transport in SHMEM_TRANSPORT=" + String.join(",", configured) + " reaches them" +
                    (unavailable.isEmpty() ? " (PEs on other nodes need 'proxy' or 'ucx')" : "; " + describe(unavailable)));
            }
            // step 6: connections, collective, in the same order on every PE
            final TransportEvent event = connecting();
            p2p.connect(map, endpoints[Math.max(0, names.indexOf(Transports.P2P))]);
            connected(event, me, p2p, map);
            for (int i = 0; i < listed.length; i++)
            {
                if (listed[i] != null && listed[i] != p2p)
                {
                    final TransportEvent e = connecting();
                    listed[i].connect(map, endpoints[i]);
                    connected(e, me, listed[i], map);
                }
            }
            return dispatch(p2p, names, listed, map, me, unavailable, notMade);
        }
        catch (final RuntimeException ex)
        {
            for (final Transport t : listed)
            {
                closeQuietly(t);
            }
            closeQuietly(p2p);
            throw ex;
        }
    }

    /**
     * Makes one listed transport. Where {@code auto} chose it and a later one in the list can stand in for it, a failure
     * to make it (UCX finding no usable interface, say) is one line on stderr and the pairs go to the next one: the
     * default must not fail where the proxy alone would have worked.
     */
    static Transport create(final TransportProvider provider, final TransportSetup setup, final boolean fallBack,
        final Map<String, String> unavailable)
    {
        if (!fallBack)
        {
            return provider.create(setup);
        }
        try
        {
            return provider.create(setup);
        }
        catch (final RuntimeException ex)
        {
            unavailable.put(provider.name(), "could not be made: " + ex.getMessage());
            setup.log().accept(setup.prefix() + "SHMEM_TRANSPORT=auto: not using " + provider.name() + " (" + ex.getMessage() +
                "); the next transport in the list takes its peers");
            return null;
        }
    }

    /**
     * The deferred transports of {@link #open}: where some PE published an endpoint for no earlier transport that reaches
     * every peer (one could not be made there), every PE makes the deferred ones it can and a second allgather exchanges
     * their endpoints into {@code endpoints}; otherwise none is made (nobody would use them). Every PE decides alike, from
     * the same gathered endpoints.
     *
     * @return the deferred transports left unmade, each with why (for {@link #describe}).
     */
    private static Map<String, String> makeDeferred(final TransportSetup setup, final List<String> names, final Transport[] listed,
        final boolean[] deferred, final byte[][][] endpoints, final boolean auto, final Map<String, String> unavailable)
    {
        final int n = setup.bootstrap().size();
        final List<Integer> needed = new ArrayList<>();
        final Map<String, String> notMade = new LinkedHashMap<>();
        for (int j = 0; j < listed.length; j++)
        {
            if (!deferred[j])
            {
                continue;
            }
            final List<Integer> covering = covering(names, j);
            boolean someoneLacks = false;
            for (int pe = 0; pe < n && !someoneLacks; pe++)
            {
                boolean covered = false;
                for (final int i : covering)
                {
                    covered |= endpoints[i][pe].length > 0;
                }
                someoneLacks = !covered;
            }
            if (someoneLacks)
            {
                needed.add(j);
            }
            else if (!unavailable.containsKey(names.get(j)))
            {
                notMade.put(names.get(j), "every PE made " + String.join(" or ", covering.stream().map(names::get).toList()) +
                    ", which reaches every other PE");
            }
        }
        if (needed.isEmpty())
        {
            return notMade;
        }
        final Transport[] second = new Transport[needed.size()];
        for (int k = 0; k < second.length; k++)
        {
            final int j = needed.get(k);
            if (!unavailable.containsKey(names.get(j)))
            {
                listed[j] = create(Transports.provider(names.get(j)), setup, auto && j < listed.length - 1, unavailable);
                second[k] = listed[j];
            }
        }
        final byte[][][] more = decode(setup.bootstrap().allgather(encode(second)), second.length, setup.prefix());
        for (int k = 0; k < second.length; k++)
        {
            endpoints[needed.get(k)] = more[k];
        }
        return notMade;
    }

    /** @return the indices of the remote transports listed before index {@code j} that reach every peer. */
    private static List<Integer> covering(final List<String> names, final int j)
    {
        final List<Integer> covering = new ArrayList<>();
        for (int i = 0; i < j; i++)
        {
            if (!Transports.P2P.equals(names.get(i)) && Transports.provider(names.get(i)).reachesEveryPeer())
            {
                covering.add(i);
            }
        }
        return covering;
    }

    private static TransportEvent connecting()
    {
        return Jfr.transportBegun();
    }

    /** JFR's jshmem.Transport "connected": the transport's connection step on this PE and the peers it reaches. */
    private static void connected(final TransportEvent event, final int me, final Transport t, final ReachabilityMap map)
    {
        if (event == null)
        {
            return;
        }
        event.end();
        if (event.shouldCommit())
        {
            int peers = 0;
            for (int pe = 0; pe < map.size(); pe++)
            {
                peers += pe != me && map.transport(me, pe) == t.id() ? 1 : 0;
            }
            event.pe = me;
            event.transport = Transports.nameOf(t.id());
            event.what = "connected";
            event.peer = -1;
            event.peers = peers;
            event.detail = "";
            event.commit();
        }
    }

    private static List<String> resolve(final List<String> configured, final TransportSetup setup, final String prefix)
    {
        try
        {
            return Transports.resolve(configured, setup);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ShmemInitException(prefix + ex.getMessage(), ex);
        }
    }

    /** Every PE must use the same list: PE 0's where it was resolved automatically, an error otherwise. */
    private static List<String> agreeOnNames(final Bootstrap bootstrap, final String prefix, final boolean auto, final List<String> mine)
    {
        final byte[][] all = bootstrap.allgather(String.join(",", mine).getBytes(StandardCharsets.UTF_8));
        final String first = new String(all[0], StandardCharsets.UTF_8);
        final List<String> differ = new ArrayList<>();
        for (int pe = 1; pe < all.length; pe++)
        {
            final String theirs = new String(all[pe], StandardCharsets.UTF_8);
            if (!theirs.equals(first))
            {
                differ.add("pe " + pe + ": " + theirs);
            }
        }
        if (!differ.isEmpty() && !auto)
        {
            throw new ShmemInitException(prefix + "SHMEM_TRANSPORT differs between PEs (pe 0: " + first + "; " +
                String.join("; ", differ.subList(0, Math.min(4, differ.size()))) + (differ.size() > 4 ? "; ..." : "") + ")");
        }
        return List.of(first.split(","));
    }

    private static TransportSet dispatch(final P2pTransport p2p, final List<String> names, final Transport[] listed,
        final ReachabilityMap map, final int me, final Map<String, String> unavailable, final Map<String, String> notMade)
    {
        final int n = map.size();
        final Transport[] remoteOf = new Transport[n];
        final int[] slotOf = new int[n];
        Arrays.fill(slotOf, -1);
        final List<Transport> used = new ArrayList<>();
        final Map<String, Integer> reached = new LinkedHashMap<>();
        for (int i = 0; i < listed.length; i++)
        {
            final Transport t = listed[i];
            if (t == null)
            {
                continue;
            }
            int count = 0;
            boolean usedByAnyone = false;
            for (int from = 0; from < n; from++)
            {
                for (int to = 0; to < n; to++)
                {
                    if (from != to && map.transport(from, to) == t.id() && (from == me || to == me))
                    {
                        usedByAnyone = true;
                        count += from == me ? 1 : 0;
                    }
                }
            }
            reached.put(names.get(i), count);
            if (t == p2p)
            {
                continue;
            }
            if (!usedByAnyone)
            {
                closeQuietly(t);
                listed[i] = null;
                continue;
            }
            if (count > 0)
            {
                final int slot = used.size();
                used.add(t);
                for (int pe = 0; pe < n; pe++)
                {
                    if (pe != me && map.transport(me, pe) == t.id())
                    {
                        remoteOf[pe] = t;
                        slotOf[pe] = slot;
                    }
                }
            }
        }
        return new TransportSet(p2p, List.copyOf(names), listed, used.toArray(Transport[]::new), remoteOf, slotOf, map,
            reached, unavailable, notMade);
    }

    private static String describe(final Map<String, String> unavailable)
    {
        final StringBuilder sb = new StringBuilder();
        unavailable.forEach((name, why) -> sb.append(sb.isEmpty() ? "" : "; ").append("'").append(name).append("': ").append(why));
        return sb.toString();
    }

    private static List<String> namesOf(final Transport[] listed, final List<String> names)
    {
        final List<String> made = new ArrayList<>();
        for (int i = 0; i < listed.length; i++)
        {
            if (listed[i] != null)
            {
                made.add(names.get(i));
            }
        }
        return made;
    }

    /** [count][length, bytes]... of the listed transports' endpoints, empty for a transport not made here. */
    private static byte[] encode(final Transport[] listed)
    {
        final byte[][] eps = new byte[listed.length][];
        int size = 4;
        for (int i = 0; i < listed.length; i++)
        {
            eps[i] = listed[i] == null ? new byte[0] : listed[i].endpoint();
            size += 4 + eps[i].length;
        }
        final ByteBuffer b = ByteBuffer.allocate(size).putInt(listed.length);
        for (final byte[] ep : eps)
        {
            b.putInt(ep.length).put(ep);
        }
        return b.array();
    }

    /** @return [transport index][pe] endpoint bytes. */
    private static byte[][][] decode(final byte[][] all, final int count, final String prefix)
    {
        final byte[][][] out = new byte[count][all.length][];
        for (int pe = 0; pe < all.length; pe++)
        {
            final ByteBuffer b = ByteBuffer.wrap(all[pe]);
            if (b.remaining() < 4 || b.getInt() != count)
            {
                throw new ShmemInitException(prefix + "pe " + pe + " published endpoints for another list of transports");
            }
            for (int i = 0; i < count; i++)
            {
                final int len = b.getInt();
                if (len < 0 || len > b.remaining())
                {
                    throw new ShmemInitException(prefix + "pe " + pe + " published a malformed endpoint (length " + len + ")");
                }
                out[i][pe] = new byte[len];
                b.get(out[i][pe]);
            }
        }
        return out;
    }

    private static void closeQuietly(final AutoCloseable c)
    {
        if (c == null)
        {
            return;
        }
        try
        {
            c.close();
        }
        catch (final Exception ignored)
        {
            // teardown goes on: the first failure was already reported
        }
    }

    /** @return the load/store transport (the first tier: this PE and the peers whose heaps are mapped here). */
    public P2pTransport p2p()
    {
        return p2p;
    }

    /** @return the job's reachability map. */
    public ReachabilityMap map()
    {
        return map;
    }

    /** @return the remote transport that reaches {@code pe}, or null when p2p maps it (or it is this PE). */
    public Transport remoteOf(final int pe)
    {
        return remoteOf[pe];
    }

    /** @return the index of {@code pe}'s transport among {@link #used()}, -1 where p2p maps it. */
    public int slotOf(final int pe)
    {
        return slotOf[pe];
    }

    /** @return the per-PE dispatch arrays (shared, not copied: the runtime's hot path reads them). */
    public Transport[] remoteOfAll()
    {
        return remoteOf;
    }

    /** @return see {@link #slotOf(int)} (shared, not copied). */
    public int[] slotOfAll()
    {
        return slotOf;
    }

    /** @return the remote transports this PE sends through, in the order of {@link #slotOf}. */
    public List<Transport> used()
    {
        return List.of(used);
    }

    /** @return whether this PE reaches some PE through a remote transport. */
    public boolean usesRemote()
    {
        return used.length > 0;
    }

    /** @return the transport names in the job's order of preference. */
    public List<String> names()
    {
        return names;
    }

    /**
     * @param collective true: the contexts of the library's collectives ({@link Transport#createCollectiveContext()}).
     * @return one context slot per used transport (null when this PE uses none: the p2p tier has no
     *         per-context state).
     */
    public TransportContext[] newContexts(final boolean collective)
    {
        if (used.length == 0)
        {
            return null;
        }
        final TransportContext[] tcs = new TransportContext[used.length];
        for (int i = 0; i < used.length; i++)
        {
            tcs[i] = collective ? used[i].createCollectiveContext() : used[i].createContext();
        }
        return tcs;
    }

    /** Orders the context's operations on every used transport. */
    public void fence(final TransportContext[] tcs)
    {
        for (int i = 0; i < used.length; i++)
        {
            used[i].fence(tcs[i]);
        }
    }

    /** Completes the context's operations on every used transport. */
    public void quiet(final TransportContext[] tcs)
    {
        for (int i = 0; i < used.length; i++)
        {
            used[i].quiet(tcs[i]);
        }
    }

    /**
     * @return what a PE's waits on heap words run on each poll: {@link Transport#progress()} of every open transport
     *         with {@link Transport.Capability#PROGRESS_FROM_WAITS} (whether this PE sends through it or only
     *         receives), or null when none has it.
     */
    public Runnable waitProgress()
    {
        return eachPolled(Transport::progress);
    }

    /**
     * @return what a PE's wait runs when it stops polling and parks: {@link Transport#progressParks()} of the
     *         transports {@link #waitProgress()} progresses, or null when none.
     */
    public Runnable waitParks()
    {
        return eachPolled(Transport::progressParks);
    }

    private Runnable eachPolled(final Consumer<Transport> action)
    {
        final Transport[] polled = Arrays.stream(listed).filter(t -> t != null && t != p2p &&
            t.capabilities().contains(Transport.Capability.PROGRESS_FROM_WAITS)).toArray(Transport[]::new);
        if (polled.length == 0)
        {
            return null;
        }
        if (polled.length == 1)
        {
            final Transport only = polled[0];
            return () -> action.accept(only);
        }
        return () ->
        {
            for (final Transport t : polled)
            {
                action.accept(t);
            }
        };
    }

    /**
     * @return whether every open remote transport serves its peers in this PE's progress calls
     *         ({@link Transport.Capability#PROGRESS_FROM_WAITS}): no proxy thread needs a core to serve the peers the PE
     *         waits for (one may still need one to send, {@link #threadSends()}).
     */
    public boolean waitsServeEveryRemote()
    {
        return Arrays.stream(listed).filter(t -> t != null && t != p2p)
            .allMatch(t -> t.capabilities().contains(Transport.Capability.PROGRESS_FROM_WAITS));
    }

    /**
     * @return whether an open remote transport sends from a thread of its own ({@link Transport.Capability#THREAD_SENDS}):
     *         where PEs outnumber cores, waits that keep their core would starve it.
     */
    public boolean threadSends()
    {
        return Arrays.stream(listed).anyMatch(t -> t != null && t != p2p &&
            t.capabilities().contains(Transport.Capability.THREAD_SENDS));
    }

    /**
     * Completes live contexts' operations on every used transport.
     *
     * @param collectives false: the program's contexts only, not the collectives' (barrier_all: see
     *                    {@link Transport#createCollectiveContext()}); true: every context (finalize).
     */
    public void quietAll(final boolean collectives)
    {
        for (final Transport t : used)
        {
            t.quietAll(collectives);
        }
    }

    /** Releases a context's slots (after its final quiet). */
    public static void closeContexts(final TransportContext[] tcs)
    {
        if (tcs != null)
        {
            for (final TransportContext tc : tcs)
            {
                tc.close();
            }
        }
    }

    /** Finalize has passed its last barrier: peers closing their connections is expected from now on. */
    public void quiesce()
    {
        for (final Transport t : listed)
        {
            if (t != null && t != p2p)
            {
                t.quiesce();
            }
        }
    }

    /**
     * @return one line per listed transport: its name and how many PEs this PE reaches through it, or why
     *         it is not used (for {@code SHMEM_INFO}).
     */
    public List<String> describe()
    {
        final List<String> lines = new ArrayList<>();
        for (final String name : names)
        {
            if (unavailable.containsKey(name))
            {
                lines.add(name + ": unavailable (" + unavailable.get(name) + ")");
            }
            else if (notMade.containsKey(name))
            {
                lines.add(name + ": not made (" + notMade.get(name) + ")");
            }
            else
            {
                final Transport t = listed[names.indexOf(name)];
                final String info = t == null ? "" : t.info();
                lines.add(name + ": reaches " + reached.getOrDefault(name, 0) + " of " + (map.size() - 1) + " other PEs" +
                    (info.isEmpty() ? "" : " (" + info + ")"));
            }
        }
        return lines;
    }

    /** Closes every transport (remote ones first, then p2p's mappings). Idempotent. */
    @Override
    public void close()
    {
        for (final Transport t : listed)
        {
            if (t != p2p)
            {
                closeQuietly(t);
            }
        }
        closeQuietly(p2p);
    }
}
