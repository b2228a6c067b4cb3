package io.jshmem.runtime;

import io.jshmem.AtomicOp;
import io.jshmem.ContextOption;
import io.jshmem.ShmemContext;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;

import io.jshmem.transport.TransportContext;
import io.jshmem.transport.TransportSet;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

/**
 * A context made by {@code Shmem.createContext} or {@code Team.createContext}: the PE's one engine
 * seen through a team's PE numbers, with its own transport state (the remote transport's per-target
 * issued and acknowledged counters), so fence, quiet and pe_quiet act on this context's operations;
 * on the p2p path operations complete as they are issued. Close is a quiet, then releases the state. The options are
 * promises jshmem does not need, except PRIVATE, which it checks: another thread using (or closing) a
 * private context fails.
 * <p>
 * Threads: any (unless PRIVATE), as the PE's thread level allows.
 */
final class ContextImpl extends ShmemContext
{
    private final RmaEngine rma;
    private final TransportContext[] tc;
    private final Team team;
    private final boolean world;
    private final EnumSet<ContextOption> options;
    private final Thread owner;
    private final String prefix;
    private volatile boolean closed;

    /**
     * @param collective true: the context of the library's collectives (WORLD numbering), whose transport state
     *                   barrier_all's quiet skips ({@link RmaEngine#quietAll(boolean)}).
     */
    ContextImpl(final RmaEngine rma, final Team team, final boolean world, final boolean collective, final String prefix,
        final ContextOption... options)
    {
        this.rma = rma;
        this.tc = rma.newContext(collective);
        this.team = team;
        this.world = world;
        this.prefix = prefix;
        this.options = EnumSet.noneOf(ContextOption.class);
        if (options != null)
        {
            for (final ContextOption o : options)
            {
                if (o == null)
                {
                    throw new NullPointerException(prefix + "createContext: null option");
                }
                this.options.add(o);
            }
        }
        this.owner = this.options.contains(ContextOption.PRIVATE) ? Thread.currentThread() : null;
    }

    boolean isClosed()
    {
        return closed;
    }

    private void check()
    {
        rma.usable("operation on a context");
        if (closed)
        {
            throw new IllegalStateException(prefix + "operation on a closed (destroyed) context on " + team);
        }
        if (owner != null && Thread.currentThread() != owner)
        {
            throw new IllegalStateException(prefix + "PRIVATE context used by thread '" + Thread.currentThread().getName() +
                "'; only its creator '" + owner.getName() + "' may use it");
        }
    }

    private int pe(final int pe)
    {
        check();
        if (world)
        {
            return pe;
        }
        if (pe < 0 || pe >= team.nPes())
        {
            throw new IndexOutOfBoundsException(prefix + "pe=" + pe + " out of range [0, " + team.nPes() + ") of the context's " + team);
        }
        return team.worldPe(pe);
    }

    @Override
    protected void rmaPut(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset, final int count,
        final int pe, final boolean nbi)
    {
        rma.put(tc, dest, destIndex, src, srcOffset, count, pe(pe), nbi);
    }

    @Override
    protected void rmaGet(final Object dest, final int destOffset, final SymmetricArray<?> src, final long srcIndex, final int count,
        final int pe, final boolean nbi)
    {
        rma.get(tc, dest, destOffset, src, srcIndex, count, pe(pe), nbi);
    }

    @Override
    protected void rmaPutSegment(final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src, final int pe,
        final boolean nbi)
    {
        rma.putSegment(tc, dest, destByteOffset, src, pe(pe), nbi);
    }

    @Override
    protected void rmaGetSegment(final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset, final int pe,
        final boolean nbi)
    {
        rma.getSegment(tc, dest, src, srcByteOffset, pe(pe), nbi);
    }

    @Override
    protected void rmaPutStrided(final SymmetricArray<?> dest, final long destIndex, final long dst, final Object src, final int srcOffset,
        final long sst, final long bsize, final long nblocks, final int pe)
    {
        rma.putStrided(tc, dest, destIndex, dst, src, srcOffset, sst, bsize, nblocks, pe(pe));
    }

    @Override
    protected void rmaGetStrided(final Object dest, final int destOffset, final long dst, final SymmetricArray<?> src, final long srcIndex,
        final long sst, final long bsize, final long nblocks, final int pe)
    {
        rma.getStrided(tc, dest, destOffset, dst, src, srcIndex, sst, bsize, nblocks, pe(pe));
    }

    @Override
    protected void rmaP(final SymmetricArray<?> dest, final long index, final long bits, final int pe)
    {
        rma.p(tc, dest, index, bits, pe(pe));
    }

    @Override
    protected long rmaG(final SymmetricArray<?> src, final long index, final int pe)
    {
        return rma.g(tc, src, index, pe(pe));
    }

    @Override
    protected long amo(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond, final int pe)
    {
        return rma.amo(tc, op, dest, index, value, cond, pe(pe));
    }

    @Override
    protected void amoNbi(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond,
        final int pe, final Object fetch, final int fetchIndex)
    {
        rma.amoNbi(tc, op, dest, index, value, cond, pe(pe), fetch, fetchIndex);
    }

    @Override
    protected void rmaPutSignal(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset, final int count,
        final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int pe, final boolean nbi)
    {
        rma.putSignal(tc, dest, destIndex, src, srcOffset, count, sig, sigIndex, signal, op, pe(pe), nbi);
    }

    /** {@code shmem_ctx_get_team}; a destroyed context has no team (IllegalStateException). */
    @Override
    public Team team()
    {
        if (closed)
        {
            throw new IllegalStateException(prefix + "team of a closed (destroyed) context on " + team);
        }
        return team;
    }

    @Override
    public void fence()
    {
        check();
        rma.fence(tc);
    }

    @Override
    public void quiet()
    {
        check();
        rma.quiet(tc);
    }

    @Override
    public void peQuiet(final int... pes)
    {
        final int[] world = new int[pes.length];
        for (int i = 0; i < pes.length; i++)
        {
            world[i] = pe(pes[i]);
        }
        check();
        rma.peQuiet(tc, world);
    }

    /** Destroy: completes pending operations (quiet), then refuses further use. Idempotent. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        if (owner != null && Thread.currentThread() != owner)
        {
            throw new IllegalStateException(prefix + "PRIVATE context closed by thread '" + Thread.currentThread().getName() +
                "'; only its creator '" + owner.getName() + "' may destroy it");
        }
        rma.quiet(tc);
        closed = true;
        TransportSet.closeContexts(tc);
    }

    @Override
    public String toString()
    {
        return "context" + options + " on " + team + (closed ? " CLOSED" : "");
    }
}
