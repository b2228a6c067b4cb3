package io.jshmem.runtime;

import io.jshmem.ContextOption;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricArray;
import io.jshmem.Team;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.team.TeamHost;
import io.jshmem.transport.ReachabilityMap;

import java.lang.foreign.MemorySegment;

/** The runtime's side of the teams module: what {@link TeamHost} asks of a PE. */
final class RuntimeTeams implements TeamHost
{
    private final ShmemRuntime runtime;
    private final RmaEngine rma;
    private final Bootstrap bootstrap;
    private final boolean sharedCores;
    private final ReachabilityMap reachability;
    private final ShmemContext collectives;

    /** @param sharedCores whether any machine of the job runs more PEs than it has cores (agreed at init). */
    RuntimeTeams(final ShmemRuntime runtime, final RmaEngine rma, final Bootstrap bootstrap, final ReachabilityMap reachability,
        final boolean sharedCores)
    {
        this.sharedCores = sharedCores;
        this.runtime = runtime;
        this.rma = rma;
        this.bootstrap = bootstrap;
        this.reachability = reachability;
        // WORLD's team does not exist yet: the context names no team and numbers PEs as WORLD does
        this.collectives = new ContextImpl(rma, null, true, true, runtime.prefix());
    }

    @Override
    public ShmemContext world()
    {
        return runtime;
    }

    @Override
    public ShmemContext collectives()
    {
        return collectives;
    }

    @Override
    public int myPe()
    {
        return runtime.myPe();
    }

    @Override
    public int nPes()
    {
        return runtime.nPes();
    }

    @Override
    public String prefix()
    {
        return runtime.prefix();
    }

    @Override
    public io.jshmem.spi.PeStats stats()
    {
        return runtime.stats();
    }

    @Override
    public ReachabilityMap reachability()
    {
        return reachability;
    }

    @Override
    public String[] hostOfRank()
    {
        return bootstrap.hostOfRank();
    }

    @Override
    public boolean sharedCores()
    {
        return sharedCores;
    }

    @Override
    public MemorySegment ptr(final SymmetricArray<?> object, final int worldPe)
    {
        return runtime.ptr(object, worldPe);
    }

    @Override
    public void checkUsable(final String what, final Team team)
    {
        rma.usable(what, team);
    }

    @Override
    public ShmemContext createContext(final Team team, final ContextOption... options)
    {
        return new ContextImpl(rma, team, team == runtime.teamWorld(), false, runtime.prefix(), options);
    }

    @Override
    public boolean isClosed(final ShmemContext context)
    {
        return context instanceof ContextImpl c && c.isClosed();
    }
}
