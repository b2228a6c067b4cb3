package io.jshmem.transport.hybrid;

import io.jshmem.transport.ReachabilityMap;
import io.jshmem.transport.Transport;
import io.jshmem.transport.TransportProvider;
import io.jshmem.transport.TransportSetup;
import io.jshmem.transport.proxy.ProxyProvider;
import io.jshmem.transport.proxy.ProxyTransport;
import io.jshmem.transport.ucx.UcxProvider;
import io.jshmem.transport.ucx.UcxTransport;

/**
 * {@code hybrid}: the proxy and UCX to the same peers, chosen per operation ({@link HybridTransport}); needs what the
 * {@code ucx} transport needs. In {@code SHMEM_TRANSPORT=auto} it comes ahead of the proxy where the machines have cores
 * to spare ({@link #autoChoice}), and is left out otherwise.
 */
public final class HybridProvider implements TransportProvider
{
    /** The name {@code SHMEM_TRANSPORT} lists it by. */
    public static final String NAME = "hybrid";

    /**
     * Cores a PE needs on its machine for {@code auto} to take hybrid: one each for the PE's own thread, the proxy's
     * thread and UCX's progress thread. With fewer, the threads of the two transports take cores from the PEs and the
     * proxy alone is faster (docs/transports.md, "hybrid").
     */
    public static final int AUTO_CORES_PER_PE = 3;

    /** Auto order where it is chosen: ahead of the proxy, which stays in the list for the peers hybrid cannot reach. */
    public static final int AUTO_ORDER = ProxyProvider.AUTO_ORDER - 10;

    private final ProxyProvider proxy = new ProxyProvider();
    private final UcxProvider ucx = new UcxProvider();

    @Override
    public String name()
    {
        return NAME;
    }

    /** @return true: it reaches every other PE, through both of its transports ({@link io.jshmem.transport.Transport#canReach}). */
    @Override
    public boolean reachesEveryPeer()
    {
        return true;
    }

    @Override
    public byte id()
    {
        return ReachabilityMap.HYBRID;
    }

    @Override
    public String unavailableReason(final TransportSetup setup)
    {
        final String why = ucx.unavailableReason(setup);
        return why == null ? null : "needs ucx: " + why;
    }

    @Override
    public int autoOrder(final TransportSetup setup)
    {
        return autoChoice(UcxProvider.rdmaDevices(), Runtime.getRuntime().availableProcessors(), setup.bootstrap().largestMachineSize())
            && UcxProvider.libraryPresent(setup) ? AUTO_ORDER : -1;
    }

    /**
     * Whether {@code auto} lists hybrid (where libucp is present): over tcp, with {@link #AUTO_CORES_PER_PE} cores for
     * every PE of the busiest machine. Where an RDMA device is present UCX alone comes first and reaches every peer, so
     * hybrid is not made. PE 0's choice is the job's ({@link io.jshmem.transport.TransportSet}), and it counts the
     * busiest machine's PEs against its own cores: machines of one kind choose alike.
     *
     * @param rdmaDevices      the RDMA devices the kernel lists.
     * @param cores            the cores this JVM may use.
     * @param largestMachinePes the most PEs one machine of the job runs (namespaced test hosts count as one machine).
     * @return whether to list hybrid ahead of the proxy.
     */
    public static boolean autoChoice(final int rdmaDevices, final int cores, final int largestMachinePes)
    {
        return rdmaDevices == 0 && (long)cores >= (long)AUTO_CORES_PER_PE * largestMachinePes;
    }

    @Override
    public Transport create(final TransportSetup setup)
    {
        final UcxTransport u = (UcxTransport)ucx.create(setup);
        try
        {
            return new HybridTransport((ProxyTransport)proxy.create(setup), u, setup.bootstrap().size());
        }
        catch (final RuntimeException | Error ex)
        {
            u.close();
            throw ex;
        }
    }
}
