package io.jshmem.config;

import java.util.List;
import java.util.Locale;

/**
 * The one table of jshmem's options (after SOS's {@code shmem_env_defs.h}): name, legacy alias,
 * default, category, description. {@code SHMEM_INFO} prints it with values and sources.
 */
public final class ShmemOptions
{
    private ShmemOptions()
    {
    }

    /** A flag that is "on" when the variable has any value (the spec's rule for SHMEM_DEBUG etc.). */
    private static Boolean anyValue(final String text)
    {
        return Boolean.TRUE;
    }

    static Integer positiveInt(final String text)
    {
        final int v;
        try
        {
            v = Integer.parseInt(text.strip());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not an integer");
        }
        if (v < 0)
        {
            throw new IllegalArgumentException("'" + text + "' is negative");
        }
        return v;
    }

    static String nonEmpty(final String text)
    {
        if (text.isBlank())
        {
            throw new IllegalArgumentException("empty value");
        }
        return text.strip();
    }

    private static String oneOf(final String text, final String... allowed)
    {
        final String v = text.strip().toLowerCase(Locale.ROOT);
        for (final String a : allowed)
        {
            if (a.equals(v))
            {
                return v;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not one of " + String.join(", ", allowed));
    }

    // ---------------------------------------------------------------- runtime (spec options)

    /** Bytes of symmetric heap per PE; the spec's size grammar. */
    public static final Option<Long> SYMMETRIC_SIZE = Option.of("SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE", "128M",
        "runtime", "Bytes of symmetric heap per PE, more than 0: a number with an optional k/m/g/t (powers of 2) suffix, "
            + "e.g. 512M, 1.5g.",
        SizeParser::parsePositive);

    /** Debug messages and extra checks (collective mismatch detection). */
    public static final Option<Boolean> DEBUG = Option.of("SHMEM_DEBUG", "SMA_DEBUG", null,
        "runtime", "Any value: print debugging messages and check collective calls match across PEs.", ShmemOptions::anyValue);

    /** Print this table at start-up. */
    public static final Option<Boolean> INFO = Option.of("SHMEM_INFO", "SMA_INFO", null,
        "runtime", "Any value: print every option, its value and its source at start-up (PE 0).", ShmemOptions::anyValue);

    /** Print the library version at start-up. */
    public static final Option<Boolean> VERSION = Option.of("SHMEM_VERSION", "SMA_VERSION", null,
        "runtime", "Any value: print the library version at start-up (PE 0).", ShmemOptions::anyValue);

    /** Print per-PE counters at finalize. */
    public static final Option<Boolean> STATS = Option.of("SHMEM_STATS", null, null,
        "runtime", "Any value: count one-sided operations and bytes per transport (p2p, proxy, ucx), blocked waits and their "
            + "time, and collectives; each PE prints one line at finalize. Off: nothing is counted.", ShmemOptions::anyValue);

    /** Busy-spin iterations of a wait before it starts yielding; -1 means auto. */
    public static final Option<Integer> WAIT_SPINS = Option.of("SHMEM_WAIT_SPINS", null, "auto",
        "runtime", "Busy-spin polls (~30 ns each) of wait_until/barrier before yielding the core; auto: 1000, or 20 when " +
            "this node runs more PEs than it has cores, 100 in a job that uses the proxy transport.",
        t -> "auto".equalsIgnoreCase(t.strip()) ? Integer.valueOf(-1) : positiveInt(t));

    /** Yields of a wait before it starts parking. */
    public static final Option<Integer> WAIT_YIELDS = Option.of("SHMEM_WAIT_YIELDS", null, "auto",
        "runtime", "Thread.yield polls of a wait after spinning, before short parks; auto: never park while this node runs " +
            "no more PEs than it has cores (a parked PE's core goes idle, which costs wake-up latency and, in a VM, its " +
            "placement), 2000 when it runs more, 50 in a job that uses the proxy transport (its thread needs the core).",
        t -> "auto".equalsIgnoreCase(t.strip()) ? Integer.valueOf(-1) : positiveInt(t));

    // ---------------------------------------------------------------- collectives

    private static Option<String> algorithm(final String collective, final String description, final String... algorithms)
    {
        final String[] allowed = new String[algorithms.length + 1];
        allowed[0] = "auto";
        System.arraycopy(algorithms, 0, allowed, 1, algorithms.length);
        return Option.of("SHMEM_" + collective + "_ALGORITHM", null, "auto", "collectives",
            description + ": auto (by team size and bytes), " + String.join(", ", algorithms) + ".", t -> oneOf(t, allowed));
    }

    /** Team slots reserved at init (each with its sync and scratch region). */
    public static final Option<Integer> TEAMS_MAX = Option.of("SHMEM_TEAMS_MAX", null, "32",
        "collectives", "Team slots reserved in the symmetric heap at init (WORLD, SHARED and NODE use three); " +
            "creating more live teams fails with TeamExhaustedException.", ShmemOptions::positiveInt);

    /** Scratch bytes per team slot for reductions and scans. */
    public static final Option<Long> TEAM_SCRATCH_SIZE = Option.of("SHMEM_TEAM_SCRATCH_SIZE", null, "256K",
        "collectives", "Bytes of scratch per team slot for reductions and scans (larger: fewer pipeline chunks); unset, 256K " +
            "on heaps of 128M or more, else a 512th of SHMEM_SYMMETRIC_SIZE and at least 32K.",
        SizeParser::parse);

    /** Barrier / team sync algorithm. */
    public static final Option<String> BARRIER_ALGORITHM = algorithm("BARRIER", "Team sync and barrier algorithm",
        "linear", "dissemination", "hierarchical");

    /** Grouping of the two-level (node-aware) collectives. */
    public static final Option<Integer> TEAM_GROUP_SIZE = Option.of("SHMEM_TEAM_GROUP_SIZE", null, "0",
        "collectives", "Two-level (hierarchical) collectives group a team's PEs by node (0); a positive value groups " +
            "consecutive team PEs in blocks of this size instead (e.g. per socket) and makes auto choose them.",
        ShmemOptions::positiveInt);

    /** Broadcast algorithm. */
    public static final Option<String> BROADCAST_ALGORITHM = algorithm("BROADCAST", "Broadcast algorithm",
        "linear", "tree", "scatter_allgather", "hierarchical");

    /** Collect (variable counts) algorithm. */
    public static final Option<String> COLLECT_ALGORITHM = algorithm("COLLECT", "Collect algorithm",
        "linear", "ring", "recursive_doubling", "hierarchical");

    /** Fcollect algorithm. */
    public static final Option<String> FCOLLECT_ALGORITHM = algorithm("FCOLLECT", "Fcollect algorithm",
        "linear", "ring", "recursive_doubling", "hierarchical");

    /** Alltoall(s) algorithm. */
    public static final Option<String> ALLTOALL_ALGORITHM = algorithm("ALLTOALL", "Alltoall and alltoalls algorithm",
        "linear", "pairwise", "hierarchical", "aggregate");

    /** Reduction algorithm. */
    public static final Option<String> REDUCE_ALGORITHM = algorithm("REDUCE", "Reduction algorithm",
        "linear", "recursive_doubling", "ring", "direct", "hierarchical", "split");

    /** Scan algorithm. */
    public static final Option<String> SCAN_ALGORITHM = algorithm("SCAN", "Prefix-sum (scan) algorithm",
        "linear", "recursive_doubling");

    /** Deadline of every wait on other PEs inside a collective or barrier; 0 waits forever. */
    public static final Option<Long> COLLECTIVE_TIMEOUT_NS = Option.of("SHMEM_COLLECTIVE_TIMEOUT", null, "5m",
        "collectives", "A collective or barrier whose members have not all arrived after this long fails with " +
            "ShmemTimeoutException naming them, e.g. 30s, 5m; 0 waits forever.",
        DurationParser::parseNs);

    // ---------------------------------------------------------------- bootstrap

    /** Which launch environment to use; auto detects. */
    public static final Option<String> BOOTSTRAP = Option.of("SHMEM_BOOTSTRAP", null, "auto",
        "bootstrap", "Launch environment: auto, shmemrun, uid, torchrun, slurm, mpi, singleton.",
        t -> oneOf(t, "auto", "shmemrun", "uid", "torchrun", "slurm", "mpi", "pmi", "singleton"));

    /** The unique id as text (what shmemrun passes, or what an application ships itself). */
    public static final Option<String> BOOTSTRAP_UID = Option.secret("SHMEM_BOOTSTRAP_UID",
        "bootstrap", "The job's unique id as text (set by shmemrun or by the application); it holds the job secret, "
            + "so it is never printed.", ShmemOptions::nonEmpty);

    /** A fixed root address, so no id needs broadcasting. */
    public static final Option<String> BOOTSTRAP_UID_SESSION_ID = Option.of("SHMEM_BOOTSTRAP_UID_SESSION_ID", null, null,
        "bootstrap", "Fixed root address host:port (rank 0 listens there; the others connect).", ShmemOptions::nonEmpty);

    /** Network interface for bootstrap sockets. */
    public static final Option<String> BOOTSTRAP_UID_SOCK_IFNAME = Option.of("SHMEM_BOOTSTRAP_UID_SOCK_IFNAME", null, null,
        "bootstrap", "Network interface whose address bootstrap sockets bind and advertise (e.g. eth0, lo).", ShmemOptions::nonEmpty);

    /** Address family for bootstrap sockets. */
    public static final Option<String> BOOTSTRAP_UID_SOCK_FAMILY = Option.of("SHMEM_BOOTSTRAP_UID_SOCK_FAMILY", null, "AF_INET",
        "bootstrap", "Address family of bootstrap sockets: AF_INET or AF_INET6.",
        t -> oneOf(t, "af_inet", "af_inet6").toUpperCase(Locale.ROOT));

    /** Job secret where the launcher gives no unique id. */
    public static final Option<String> BOOTSTRAP_SECRET = Option.secret("SHMEM_BOOTSTRAP_SECRET",
        "bootstrap", "Job secret (hex or text) for launchers that give no unique id (torchrun, SLURM, MPI); never printed.",
        ShmemOptions::nonEmpty);

    /** Deadline of every bootstrap wait. */
    public static final Option<Long> BOOTSTRAP_TIMEOUT_NS = Option.of("SHMEM_BOOTSTRAP_TIMEOUT", null, "120s",
        "bootstrap", "Deadline of every bootstrap wait (connect, collectives, store waits), e.g. 30s, 500ms.",
        DurationParser::parseNs);

    /** How long a silent peer is tolerated at least before it is declared lost. */
    public static final Option<Long> BOOTSTRAP_PEER_TIMEOUT_NS = Option.of("SHMEM_BOOTSTRAP_PEER_TIMEOUT", null, "3s",
        "bootstrap", "A PE (or the root) whose control channel is silent (no heartbeat) this long, at least, is declared "
            + "lost once the job formed; longer when its heartbeats have been arriving late (adaptive, phi accrual) or this process itself "
            + "stalled. Heartbeats every eighth of it (500 ms at most).",
        DurationParser::parseNs);

    /** Deadline of one bootstrap connection's handshake. */
    public static final Option<Long> BOOTSTRAP_HANDSHAKE_TIMEOUT_NS = Option.of("SHMEM_BOOTSTRAP_HANDSHAKE_TIMEOUT", null, "30s",
        "bootstrap", "Deadline of one bootstrap connection's whole handshake (authentication, then HELLO or PEER_IDENT), at "
            + "most SHMEM_BOOTSTRAP_TIMEOUT: a listener drops a connection not done by then; a PE whose handshake is cut "
            + "tries again until SHMEM_BOOTSTRAP_TIMEOUT. While the job forms, also the least silence before a peer is lost.",
        DurationParser::parseNs);

    // ---------------------------------------------------------------- transports

    /**
     * Parses a transport list: names separated by commas, lower-cased, none twice. Which names exist is the
     * transport registry's to say (io.jshmem.transport.Transports, at init), so a transport added as a
     * package needs nothing here.
     */
    private static List<String> transportList(final String text)
    {
        final List<String> names = new java.util.ArrayList<>();
        for (final String part : text.split(","))
        {
            final String name = part.strip().toLowerCase(Locale.ROOT);
            if (!name.matches("[a-z][a-z0-9_]*"))
            {
                throw new IllegalArgumentException("'" + part.strip() + "' is not a transport name (e.g. auto, or p2p,ucx,proxy)");
            }
            if (names.contains(name))
            {
                throw new IllegalArgumentException("'" + name + "' is listed twice");
            }
            names.add(name);
        }
        return List.copyOf(names);
    }

    /** Transports in order of preference. */
    public static final Option<List<String>> TRANSPORT = Option.of("SHMEM_TRANSPORT", null, "auto",
        "transports", "Transports to use, in order of preference, comma-separated: p2p (load/store into the mapped heaps of PEs " +
            "on this node), ucx (UCX: RDMA verbs on InfiniBand/RoCE/EFA, tcp otherwise; needs libucp), proxy (a CPU proxy " +
            "thread over TCP, reaches every PE), hybrid (the proxy and ucx to every peer, chosen per operation). auto: p2p, then ucx " +
            "where UCX finds an RDMA device, else hybrid where libucp is present and the busiest machine has 3 cores per PE, " +
            "then proxy. " +
            "'proxy' or 'ucx' alone sends even same-node traffic through it (a PE reaches itself by load/store always); " +
            "a pair no listed transport reaches fails init.",
        ShmemOptions::transportList);

    /** Bytes of commands the proxy's channel holds. */
    public static final Option<Long> PROXY_RING_SIZE = Option.of("SHMEM_PROXY_RING_SIZE", null, "8M",
        "transports", "Bytes of the proxy's command channel (per PE, off-heap); a full channel makes the caller wait.",
        SizeParser::parse);

    /** In-flight request bytes per peer. */
    public static final Option<Long> PROXY_WINDOW = Option.of("SHMEM_PROXY_WINDOW", null, "4M",
        "transports", "Flow control: bytes of requests (and of the replies they ask for) in flight to one peer before the " +
            "proxy waits for its acknowledgements.", SizeParser::parse);

    /** Busy polls of the proxy agent before it yields, then sleeps. */
    public static final Option<Integer> PROXY_SPINS = Option.of("SHMEM_PROXY_SPINS", null, "auto",
        "transports", "Busy polls (~1 us each) of an idle proxy thread before it yields and then sleeps in the kernel until " +
            "work arrives; auto: 20 (each poll is a non-blocking select; the thread then yields 10 times and sleeps in the kernel).",
        t -> "auto".equalsIgnoreCase(t.strip()) ? Integer.valueOf(-1) : positiveInt(t));

    /** Whether a PE's waits on heap words serve its proxy themselves (cores to spare) or leave it to the proxy thread. */
    public static final Option<String> PROXY_WAIT_POLL = Option.of("SHMEM_PROXY_WAIT_POLL", null, "auto",
        "transports", "on: a PE that waits (wait_until, signal waits, barriers, collectives) reads and applies its proxy " +
            "connections itself on every poll, and the proxy thread stands aside meanwhile (one message each way per barrier " +
            "round, no thread wake-up); such waits never park while the machine has a core per PE, and where PEs outnumber " +
            "cores park after 20 spins and 50 yields, handing over to the proxy thread. off: waits leave the sockets to the " +
            "proxy thread and park after a while (a wait leaves an outgoing transfer under way to the proxy thread either " +
            "way). auto: on when this machine has a core per PE on it or 16 cores or more, else off.",
        t -> oneOf(t, "auto", "on", "off"));

    /** No longer used: the proxy sends no heartbeats (kept so that a job that sets it still starts). */
    public static final Option<Long> PROXY_HEARTBEAT_NS = Option.of("SHMEM_PROXY_HEARTBEAT", null, "1s",
        "transports", "No longer used: the proxy sends no heartbeats (PE liveness is the bootstrap's; see " +
            "SHMEM_PROXY_PEER_TIMEOUT). Accepted for compatibility; setting it prints a line saying so.", DurationParser::parseNs);

    /** Silence, while this PE waits on a peer, after which the peer is declared lost. */
    public static final Option<Long> PROXY_PEER_TIMEOUT_NS = Option.of("SHMEM_PROXY_PEER_TIMEOUT", null, "10s",
        "transports", "A peer whose proxy is silent this long while this PE waits on it (requests not yet acknowledged) is " +
            "declared lost and the job fails naming it; a closed connection or a corrupt stream fails it at once, an idle " +
            "connection never (PE liveness is the bootstrap's).", DurationParser::parseNs);

    /** The libucp the UCX transport loads. */
    public static final Option<String> UCX_LIBRARY = Option.of("SHMEM_UCX_LIBRARY", null, "libucp.so.0",
        "transports", "The libucp shared object the ucx transport loads: a name the dynamic linker looks up (LD_LIBRARY_PATH, " +
            "then the system's directories) or a path, e.g. /opt/ucx/lib/libucp.so.0 for a UCX built for the cluster's fabric.",
        t -> t.strip());

    /** How long the UCX progress thread polls after its last work before it sleeps on the worker's event descriptor. */
    public static final Option<Long> UCX_SPIN_NS = Option.of("SHMEM_UCX_SPIN", null, "50us",
        "transports", "How long the UCX transport's progress thread keeps polling the worker after its last work before it " +
            "sleeps on the worker's event descriptor (0: sleep at once; an idle job then costs nothing; a ping-pong keeps it awake).",
        DurationParser::parseNs);

    /** How long after a PE's last UCX call the UCX progress thread takes over serving its peers. */
    public static final Option<Long> UCX_HANDOFF_NS = Option.of("SHMEM_UCX_HANDOFF", null, "1ms",
        "transports", "How long after this PE's last UCX operation or progressing wait poll the UCX transport's progress thread " +
            "takes over serving its peers (passive progress); until then the PE's own calls progress the worker and the thread " +
            "stays parked (0: it never stands aside). A wait that parks hands over at once.",
        DurationParser::parseNs);

    /** Every option, in table order. */
    public static final List<Option<?>> ALL = List.of(
        SYMMETRIC_SIZE, DEBUG, INFO, VERSION, STATS, WAIT_SPINS, WAIT_YIELDS,
        TEAMS_MAX, TEAM_SCRATCH_SIZE, TEAM_GROUP_SIZE, BARRIER_ALGORITHM, BROADCAST_ALGORITHM, COLLECT_ALGORITHM, FCOLLECT_ALGORITHM,
        ALLTOALL_ALGORITHM, REDUCE_ALGORITHM, SCAN_ALGORITHM, COLLECTIVE_TIMEOUT_NS,
        BOOTSTRAP, BOOTSTRAP_UID, BOOTSTRAP_UID_SESSION_ID, BOOTSTRAP_UID_SOCK_IFNAME, BOOTSTRAP_UID_SOCK_FAMILY,
        BOOTSTRAP_SECRET, BOOTSTRAP_TIMEOUT_NS, BOOTSTRAP_PEER_TIMEOUT_NS, BOOTSTRAP_HANDSHAKE_TIMEOUT_NS,
        TRANSPORT, PROXY_RING_SIZE, PROXY_WINDOW, PROXY_SPINS, PROXY_WAIT_POLL, PROXY_HEARTBEAT_NS, PROXY_PEER_TIMEOUT_NS,
        UCX_LIBRARY, UCX_SPIN_NS, UCX_HANDOFF_NS);
}
