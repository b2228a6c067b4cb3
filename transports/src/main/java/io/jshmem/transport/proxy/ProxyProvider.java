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
        return new ProxyTransport.Settings(config.get(ShmemOptions.PROXY_RING_SIZE), config.get(ShmemOptions.PROXY_WINDOW), spins,
            10, config.get(ShmemOptions.PROXY_PEER_TIMEOUT_NS),
            config.get(ShmemOptions.BOOTSTRAP_TIMEOUT_NS), log, waitPolls(config.get(ShmemOptions.PROXY_WAIT_POLL), machinePes,
            Runtime.getRuntime().availableProcessors()));
    }

    /**
     * @return whether waits on heap words serve the proxy ({@code SHMEM_PROXY_WAIT_POLL}): auto when the machine has two
     *         cores per PE on it, one for a PE's waiting thread (which then never parks) and one for its proxy thread (which
     *         stands aside while the wait polls but serves the peers, and sends the PE's non-blocking puts, whenever it does
     *         not). Measured on 2 cores (docs/transports.md): at 1+1 forced on, barrier_all 52 to 15 us but 1 MiB bandwidth
     *         1720 to 758 MB/s (the target's polling waiter holds a core the sender's two threads need); at 2+2 barrier_all
     *         88 to 168 us.
     */
    static boolean waitPolls(final String setting, final int machinePes, final int cores)
    {
        return switch (setting)
        {
            case "on" -> true;
            case "off" -> false;
            default -> cores >= 2L * Math.max(1, machinePes);
        };
    }
}
