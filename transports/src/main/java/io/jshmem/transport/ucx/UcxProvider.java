package io.jshmem.transport.ucx;

import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;
import io.jshmem.transport.ReachabilityMap;
import io.jshmem.transport.Transport;
import io.jshmem.transport.TransportProvider;
import io.jshmem.transport.TransportSetup;
import io.jshmem.transport.proxy.ProxyProvider;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The registry's entry for the UCX transport ({@code ucx} in {@code SHMEM_TRANSPORT}). Unavailable, with
 * one line naming libucp and the Debian package, where the library is absent or older than UCX 1.13. In
 * {@code SHMEM_TRANSPORT=auto} it comes ahead of the proxy where the node has an RDMA device
 * ({@code /sys/class/infiniband}: InfiniBand, RoCE, EFA) and is left out otherwise: over tcp the proxy's
 * rate and bandwidth win and the latency rows are measured side by side in docs/transports.md. Over tcp, unless
 * {@code UCX_NET_DEVICES} is set, the worker uses the bootstrap's network interface ({@link #netDevices}).
 */
public final class UcxProvider implements TransportProvider
{
    /** Auto order where an RDMA device is present: ahead of the proxy. */
    public static final int RDMA_AUTO_ORDER = ProxyProvider.AUTO_ORDER - 40;

    private static final Path RDMA_DEVICES = Path.of("/sys/class/infiniband");

    @Override
    public String name()
    {
        return "ucx";
    }

    /** @return true: it reaches every other PE, through the worker's endpoints ({@link io.jshmem.transport.Transport#canReach}). */
    @Override
    public boolean reachesEveryPeer()
    {
        return true;
    }

    @Override
    public byte id()
    {
        return ReachabilityMap.UCX;
    }

    @Override
    public String unavailableReason(final TransportSetup setup)
    {
        try
        {
            Ucp.load(setup.config().get(ShmemOptions.UCX_LIBRARY));
            return null;
        }
        catch (final IllegalStateException ex)
        {
            return ex.getMessage();
        }
    }

    @Override
    public int autoOrder(final TransportSetup setup)
    {
        return rdmaDevices() > 0 && libraryPresent(setup) ? RDMA_AUTO_ORDER : -1;
    }

    /**
     * @param setup what the transports of this PE are made from.
     * @return whether libucp can be found (without loading it): what {@code auto} asks before it lists a UCX transport.
     */
    public static boolean libraryPresent(final TransportSetup setup)
    {
        return Ucp.present(setup.config().get(ShmemOptions.UCX_LIBRARY));
    }

    /** @return how many RDMA devices the kernel lists (0 without InfiniBand support). */
    public static int rdmaDevices()
    {
        if (!Files.isDirectory(RDMA_DEVICES))
        {
            return 0;
        }
        try (Stream<Path> s = Files.list(RDMA_DEVICES))
        {
            return (int)s.count();
        }
        catch (final IOException ex)
        {
            return 0;
        }
    }

    @Override
    public Transport create(final TransportSetup setup)
    {
        return new UcxTransport(setup.bootstrap(), setup.heap().dataSegment(), settings(setup.config(), setup), setup.idle());
    }

    /**
     * The network device the worker uses where the user named none: over tcp (no RDMA device), the interface of the
     * bootstrap's address, the one the proxy listens on and through which the job already reached every host. UCX alone
     * would use every interface, and on hosts with a bridge of the same address everywhere (docker0's 172.17.0.1) it can
     * dial that instead of the peer. Null (UCX's own choice) where {@code UCX_NET_DEVICES} is set, an RDMA device is
     * present (UCX picks its fabric), or the address is a loopback one (one machine).
     *
     * @param userDevices {@code UCX_NET_DEVICES}, or null.
     * @param rdmaDevices the RDMA devices the kernel lists.
     * @param address     the bootstrap's address.
     * @return the device, or null.
     */
    public static String netDevices(final String userDevices, final int rdmaDevices, final InetAddress address)
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

    static UcxTransport.Settings settings(final ShmemConfig config, final TransportSetup setup)
    {
        return new UcxTransport.Settings(config.get(ShmemOptions.UCX_LIBRARY), config.get(ShmemOptions.UCX_SPIN_NS), config.get(ShmemOptions.UCX_HANDOFF_NS),
            config.get(ShmemOptions.BOOTSTRAP_TIMEOUT_NS), setup.log(),
            netDevices(System.getenv("UCX_NET_DEVICES"), rdmaDevices(), setup.bootstrap().address()));
    }
}
