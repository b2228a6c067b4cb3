package io.jshmem.transport.ucx;

import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;
import io.jshmem.transport.ReachabilityMap;
import io.jshmem.transport.Transport;
import io.jshmem.transport.TransportProvider;
import io.jshmem.transport.TransportSetup;
import io.jshmem.transport.proxy.ProxyProvider;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The registry's entry for the UCX transport ({@code ucx} in {@code SHMEM_TRANSPORT}). Unavailable, with
 * one line naming libucp and the Debian package, where the library is absent or older than UCX 1.13. In
 * {@code SHMEM_TRANSPORT=auto} it comes ahead of the proxy where the node has an RDMA device
 * ({@code /sys/class/infiniband}: InfiniBand, RoCE, EFA) and is left out otherwise: over tcp the proxy's
 * rate and bandwidth win and the latency rows are measured side by side in docs/transports.md.
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
        return create(setup, null);
    }

    /**
     * @param setup      what the transports of this PE are made from.
     * @param netDevices UCX's network devices for this worker, or null for UCX's own choice.
     * @return the transport, not yet connected.
     */
    public Transport create(final TransportSetup setup, final String netDevices)
    {
        return new UcxTransport(setup.bootstrap(), setup.heap().dataSegment(), settings(setup.config(), setup).withNetDevices(netDevices),
            setup.idle());
    }

    static UcxTransport.Settings settings(final ShmemConfig config, final TransportSetup setup)
    {
        return new UcxTransport.Settings(config.get(ShmemOptions.UCX_LIBRARY), config.get(ShmemOptions.UCX_SPIN_NS), config.get(ShmemOptions.UCX_HANDOFF_NS),
            config.get(ShmemOptions.BOOTSTRAP_TIMEOUT_NS), setup.log());
    }
}
