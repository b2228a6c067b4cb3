package io.jshmem.transport.hybrid;

import io.jshmem.transport.ReachabilityMap;
import io.jshmem.transport.Transport;
import io.jshmem.transport.TransportProvider;
import io.jshmem.transport.TransportSetup;
import io.jshmem.transport.proxy.ProxyProvider;
import io.jshmem.transport.proxy.ProxyTransport;
import io.jshmem.transport.ucx.UcxProvider;
import io.jshmem.transport.ucx.UcxTransport;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;

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

    /**
     * The network device hybrid's UCX half uses where the user named none: over tcp (no RDMA device), the interface of
     * the bootstrap's address, the one the proxy listens on and the job already reached every host through. UCX alone
     * would use every interface, and on hosts with a bridge of the same address everywhere (docker0's 172.17.0.1) it may
     * dial that instead of the peer. Null (UCX's own choice) where {@code UCX_NET_DEVICES} is set, an RDMA device is
     * present, or the address is a loopback one (one machine).
     *
     * @param userDevices  {@code UCX_NET_DEVICES}, or null.
     * @param rdmaDevices  the RDMA devices the kernel lists.
     * @param address      the bootstrap's address.
     * @return the device, or null.
     */
    static String netDevices(final String userDevices, final int rdmaDevices, final InetAddress address)
    {
        if (userDevices != null || rdmaDevices > 0 || address == null || address.isLoopbackAddress())
        {
            return null;
        }
        try
        {
            final NetworkInterface nic = NetworkInterface.getByInetAddress(address);
            return nic == null ? null : nic.getName();
        }
        catch (final SocketException ex)
        {
            return null;
        }
    }

    @Override
    public Transport create(final TransportSetup setup)
    {
        final String devices = netDevices(System.getenv("UCX_NET_DEVICES"), UcxProvider.rdmaDevices(), setup.bootstrap().address());
        final UcxTransport u = (UcxTransport)ucx.create(setup, devices);
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
