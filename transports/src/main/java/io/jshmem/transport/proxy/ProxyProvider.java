package io.jshmem.transport.proxy;

import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;
import io.jshmem.transport.ReachabilityMap;
import io.jshmem.transport.Transport;
import io.jshmem.transport.TransportProvider;
import io.jshmem.transport.TransportSetup;

/** The registry's entry for the proxy transport ({@code proxy} in {@code SHMEM_TRANSPORT}). */
public final class ProxyProvider implements TransportProvider
{
    /** Auto order: after transports that reach peers over RDMA, which come first. */
    public static final int AUTO_ORDER = 50;

    @Override
    public String name()
    {
        return "proxy";
    }

    /** @return true: it reaches every other PE, through its own connections ({@link io.jshmem.transport.Transport#canReach}). */
    @Override
    public boolean reachesEveryPeer()
    {
        return true;
    }

    @Override
    public byte id()
    {
        return ReachabilityMap.PROXY;
    }

    @Override
    public int autoOrder(final TransportSetup setup)
    {
        return AUTO_ORDER;
    }

    @Override
    public Transport create(final TransportSetup setup)
    {
        if (setup.config().isSet(ShmemOptions.PROXY_HEARTBEAT_NS) && setup.bootstrap().rank() == 0)
        {
            setup.log().accept(setup.prefix() + "proxy: SHMEM_PROXY_HEARTBEAT is no longer used: the proxy sends no heartbeats (the " +
                "bootstrap watches PE liveness; see SHMEM_PROXY_PEER_TIMEOUT)");
        }
        return new ProxyTransport(setup.bootstrap(), setup.heap().dataSegment(), settings(setup.config(), setup.log(),
            setup.bootstrap().machineSize()), setup.idle());
    }

    /**
     * The proxy's settings from the options; its connect deadline is the bootstrap's.
     *
     * @param machinePes the PEs on this machine (one kernel: test hosts count together), for
     *                   {@code SHMEM_PROXY_WAIT_POLL=auto}.
     */
    static ProxyTransport.Settings settings(final ShmemConfig config, final java.util.function.Consumer<String> log, final int machinePes)
    {
        final int configured = config.get(ShmemOptions.PROXY_SPINS);
        final int spins = configured >= 0 ? configured : 20;
        final int cores = Runtime.getRuntime().availableProcessors();
        return new ProxyTransport.Settings(config.get(ShmemOptions.PROXY_RING_SIZE), config.get(ShmemOptions.PROXY_WINDOW), spins,
            10, config.get(ShmemOptions.PROXY_PEER_TIMEOUT_NS),
            config.get(ShmemOptions.BOOTSTRAP_TIMEOUT_NS), log, waitPolls(config.get(ShmemOptions.PROXY_WAIT_POLL), machinePes, cores),
            machinePes > cores, cores >= MANY_CORES);
    }

    /** From this many cores on a machine, auto polls from waits where PEs outnumber the cores too (see {@link #waitPolls}). */
    static final int MANY_CORES = 16;

    /**
     * @return whether waits on heap words serve the proxy ({@code SHMEM_PROXY_WAIT_POLL}): auto when the machine has a core
     *         per PE on it, or at least {@link #MANY_CORES} cores. A polling wait leaves an outgoing transfer to the proxy
     *         thread (it backs off while the thread has bytes to send, and a duty cycle that leaves bytes hands them over), so
     *         a core per PE no longer costs the sender's bandwidth as it did (1+1 on 2 cores, forced on: 1 MiB 1720 to 758
     *         MB/s before; now about the same as off, with barrier_all 50 to 21 us; docs/transports.md). Where PEs outnumber
     *         cores the waits park after a few yields (the runtime's choice for a transport whose thread sends), and on 16
     *         cores that won: collectives at 32, 64 and 128 PEs on 4, 8 and 16 test hosts (2, 4 and 8 PEs per core) came
     *         at or under OSHMEM on more rows with waits polling (64 PEs: 52 and 56 of 65 rows in two runs, against 35-47
     *         in five with waits leaving the sockets to the proxy thread). On 2 cores (2+2) the waiters' polls took the
     *         cores the senders' threads need: the 8-byte put rate 4.7-4.8 to 2.6-3.7 M/s and 1 MiB bandwidth 1300-1350 to
     *         1015-1084 MB/s, so off there.
     */
    static boolean waitPolls(final String setting, final int machinePes, final int cores)
    {
        return switch (setting)
        {
            case "on" -> true;
            case "off" -> false;
            default -> cores >= Math.max(1, machinePes) || cores >= MANY_CORES;
        };
    }
}
