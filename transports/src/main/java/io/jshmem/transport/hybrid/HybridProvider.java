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
 * {@code hybrid}: the proxy and UCX to the same peers, chosen per operation ({@link HybridTransport}). Listed by name
 * only (not in {@code auto}); needs what the {@code ucx} transport needs.
 */
public final class HybridProvider implements TransportProvider
{
    /** The name {@code SHMEM_TRANSPORT} lists it by. */
    public static final String NAME = "hybrid";

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
        return -1;
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
