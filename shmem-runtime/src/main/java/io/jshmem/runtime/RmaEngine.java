package io.jshmem.runtime;

import io.jshmem.AtomicOp;
import io.jshmem.ShmemException;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricLongs;
import io.jshmem.jfr.Jfr;
import io.jshmem.jfr.TransferEvent;
import io.jshmem.jfr.WaitEvent;
import io.jshmem.spi.Checks;
import io.jshmem.spi.PeStats;
import io.jshmem.spi.SymmetricSpace;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Array;
import io.jshmem.transport.HeapAtomics;
import io.jshmem.transport.P2pTransport;
import io.jshmem.transport.Transport;
import io.jshmem.transport.TransportContext;
import io.jshmem.transport.TransportSet;
import io.jshmem.transport.Transports;

/**
 * Every one-sided operation of a PE: the argument checks, once, then the two-tier dispatch of the
 * reachability map. Tier one is the p2p transport inlined: a target whose heap is mapped here is a
 * copy or an atomic on {@link P2pTransport#heapOf} through its static forms. Tier two is the remote
 * transport the map names for the target (proxy or ucx), found by an array lookup per PE
 * ({@link TransportSet#remoteOf}), through the {@link Transport} SPI with the calling context's
 * {@link TransportContext} for that transport (its slot, {@link TransportSet#slotOf}). Every context of a
 * PE shares its engine; the per-context state (issued and acknowledged requests per target) lives in the
 * transport contexts each context holds, one per transport in use. Safe from any thread.
 * <p>
 * Ordering: p2p puts are plain stores into the peer mapping, a put-with-signal fences between the data
 * and the signal, fence and quiet are full fences (which also order any non-temporal stores the JDK's
 * copy routines may use); fence and quiet also reach every remote transport in use, pe_quiet the target's.
 * <p>
 * Observation: with {@code SHMEM_STATS} every operation is counted per transport class of its target
 * ({@link #classOf}); off, {@code stats} is null and the count is one null check. Transfers of at least
 * {@link TransferEvent#MIN_BYTES} and quiets that wait on a remote transport are JFR events.
 */
final class RmaEngine
{
    private final SymmetricSpace owner;
    private volatile boolean finalized;
    private final MemorySegment[] heaps;
    private final TransportSet transports;
    private final Transport[] remoteOf;
    private final int[] slotOf;
    private final int nPes;
    /** SHMEM_STATS counters, or null when off. */
    private final PeStats stats;
    /** Per target PE, the reachability map's transport id (p2p, proxy, ucx): the class SHMEM_STATS counts it in. */
    private final byte[] classOf;

    /**
     * @param owner      the PE.
     * @param transports the PE's connected transports: p2p's mapped heaps, and per PE the remote transport
     *                   of the map and its context slot.
     * @param stats      the PE's SHMEM_STATS counters, or null when the option is off.
     */
    RmaEngine(final SymmetricSpace owner, final TransportSet transports, final PeStats stats)
    {
        this.stats = stats;
        this.owner = owner;
        this.transports = transports;
        this.heaps = transports.p2p().heaps();
        this.remoteOf = transports.remoteOfAll();
        this.slotOf = transports.slotOfAll();
        this.nPes = heaps.length;
        this.classOf = new byte[nPes];
        for (int pe = 0; pe < nPes; pe++)
        {
            classOf[pe] = heaps[pe] != null ? io.jshmem.transport.ReachabilityMap.P2P : transports.map().transport(owner.myPe(), pe);
        }
    }

    private void count(final int pe, final int kind, final long bytes)
    {
        stats.op(classOf[pe], kind, bytes);
    }

    /** @return a begun transfer event for a bulk transfer (at least {@link TransferEvent#MIN_BYTES}) where JFR has started, else null. */
    private static TransferEvent bulk(final long bytes)
    {
        if (bytes < TransferEvent.MIN_BYTES)
        {
            return null;
        }
        return Jfr.transferBegun();
    }

    private void transferred(final TransferEvent event, final int pe, final String operation, final long bytes)
    {
        event.end();
        if (event.shouldCommit())
        {
            event.pe = owner.myPe();
            event.target = pe;
            event.operation = operation;
            event.transport = Transports.nameOf(classOf[pe]);
            event.bytes = bytes;
            event.commit();
        }
    }

    /**
     * @param collective true: the state of the collectives' own context (see {@link TransportSet#quietAll(boolean)}).
     * @return a new per-context state: one slot per remote transport in use (null when none is).
     */
    TransportContext[] newContext(final boolean collective)
    {
        return transports.newContexts(collective);
    }

    /** @return whether pe is reached by any transport. */
    boolean reaches(final int pe)
    {
        return pe >= 0 && pe < nPes && (heaps[pe] != null || remoteOf[pe] != null);
    }

    // ------------------------------------------------------------------ checks

    /** @return the target's mapped heap, or null when it is reached through the remote transport. */
    MemorySegment target(final int pe)
    {
        if (pe < 0 || pe >= nPes)
        {
            throw new IndexOutOfBoundsException(owner.prefix() + "pe=" + pe + " out of range [0, " + nPes + ")");
        }
        final MemorySegment heap = heaps[pe];
        if (heap == null && remoteOf[pe] == null)
        {
            throw new ShmemException(owner.prefix() + "pe=" + pe + " is not reachable by any configured transport (SHMEM_TRANSPORT)");
        }
        return heap;
    }

    /** A Java array range as a segment (the remote path's source or destination). */
    private static MemorySegment slice(final Object array, final int offset, final int count, final int elementBytes)
    {
        final MemorySegment whole = switch (array)
        {
            case byte[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass().getSimpleName());
        };
        return whole.asSlice((long)offset * elementBytes, (long)count * elementBytes);
    }

    /** Called once the PE has finalized (or left by an exception): every later operation throws. */
    void finalized()
    {
        finalized = true;
    }

    /**
     * @throws IllegalStateException naming the operation once this PE has finalized: its heap is
     *         unmapped and its peers gone, whatever a later init made.
     */
    void usable(final String what)
    {
        if (finalized)
        {
            throw finalizedError(what);
        }
    }

    /** As {@link #usable(String)}, for an operation on a team (named only in the message). */
    void usable(final String what, final Object team)
    {
        if (finalized)
        {
            throw finalizedError(what + " on " + team);
        }
    }

    private IllegalStateException finalizedError(final String what)
    {
        return new IllegalStateException(owner.prefix() + what + " after this PE's close() (shmem_finalize): its heap, "
            + "contexts and teams are gone; use the PE a later Shmem.init() returns");
    }

    void checkOwner(final SymmetricArray<?> handle, final String what)
    {
        if (handle == null)
        {
            throw new NullPointerException(owner.prefix() + what + " handle is null");
        }
        if (handle.allocation().space() != owner)
        {
            throw new IllegalArgumentException(owner.prefix() + what + " " + handle + " was not allocated by this PE's job (a foreign handle)");
        }
    }

    private long checkHandle(final SymmetricArray<?> handle, final long index, final long count, final String what)
    {
        checkOwner(handle, what);
        return handle.checkRange(index, count);
    }

    /** Checks a Java array range; a null array is allowed with count 0 (the spec's zero-length transfer with NULL). */
    private void checkArray(final Object array, final int offset, final int count, final String what)
    {
        if (array == null && count == 0 && offset == 0)
        {
            return;
        }
        if (array == null)
        {
            throw new NullPointerException(owner.prefix() + what + " array is null");
        }
        final int length = Array.getLength(array);
        if (offset < 0 || count < 0 || offset > length - count)
        {
            throw new IndexOutOfBoundsException(owner.prefix() + what + " offset=" + offset + " count=" + count +
                " array.length=" + length);
        }
    }

    private long checkAtomic(final SymmetricArray<?> handle, final long index)
    {
        final long off = checkHandle(handle, index, 1, "atomic target");
        final int size = handle.elementBytes();
        if (size != 4 && size != 8)
        {
            throw new IllegalArgumentException(owner.prefix() + "atomics need 4- or 8-byte elements, not " + handle);
        }
        if ((off & (size - 1)) != 0)
        {
            throw new IllegalArgumentException(owner.prefix() + "misaligned atomic: heap offset=" + off +
                " is not a multiple of " + size + " (index=" + index + " of " + handle + ")");
        }
        return off;
    }

    // ------------------------------------------------------------------ contiguous

    void put(final TransportContext[] tc, final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset,
        final int count, final int pe, final boolean nbi)
    {
        final long off = checkHandle(dest, destIndex, count, "dest");
        checkArray(src, srcOffset, count, "source");
        final MemorySegment t = target(pe);
        if (count > 0)
        {
            final long bytes = (long)count * dest.elementBytes();
            if (stats != null)
            {
                count(pe, PeStats.PUT, bytes);
            }
            final TransferEvent event = bulk(bytes);
            if (t != null)
            {
                P2pTransport.putArray(t, off, src, srcOffset, dest.elementLayout(), count);
            }
            else
            {
                remoteOf[pe].put(tc[slotOf[pe]], pe, off, slice(src, srcOffset, count, dest.elementBytes()), nbi);
            }
            if (event != null)
            {
                transferred(event, pe, nbi ? "put_nbi" : "put", bytes);
            }
        }
    }

    void get(final TransportContext[] tc, final Object dest, final int destOffset, final SymmetricArray<?> src, final long srcIndex,
        final int count, final int pe, final boolean nbi)
    {
        final long off = checkHandle(src, srcIndex, count, "source");
        checkArray(dest, destOffset, count, "dest");
        final MemorySegment t = target(pe);
        if (count > 0)
        {
            final long bytes = (long)count * src.elementBytes();
            if (stats != null)
            {
                count(pe, PeStats.GET, bytes);
            }
            final TransferEvent event = bulk(bytes);
            if (t != null)
            {
                P2pTransport.getArray(t, off, dest, destOffset, src.elementLayout(), count);
            }
            else
            {
                remoteOf[pe].get(tc[slotOf[pe]], pe, off, slice(dest, destOffset, count, src.elementBytes()), nbi);
            }
            if (event != null)
            {
                transferred(event, pe, nbi ? "get_nbi" : "get", bytes);
            }
        }
    }

    void putSegment(final TransportContext[] tc, final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src,
        final int pe, final boolean nbi)
    {
        checkOwner(dest, "dest");
        final long bytes = src.byteSize();
        checkBytes(dest, destByteOffset, bytes);
        final MemorySegment t = target(pe);
        if (stats != null)
        {
            count(pe, PeStats.PUT, bytes);
        }
        final TransferEvent event = bulk(bytes);
        if (t != null)
        {
            MemorySegment.copy(src, 0, t, dest.offset() + destByteOffset, bytes);
        }
        else if (bytes > 0)
        {
            remoteOf[pe].put(tc[slotOf[pe]], pe, dest.offset() + destByteOffset, src, nbi);
        }
        if (event != null)
        {
            transferred(event, pe, nbi ? "put_nbi" : "put", bytes);
        }
    }

    void getSegment(final TransportContext[] tc, final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset,
        final int pe, final boolean nbi)
    {
        checkOwner(src, "source");
        final long bytes = dest.byteSize();
        checkBytes(src, srcByteOffset, bytes);
        final MemorySegment t = target(pe);
        if (stats != null)
        {
            count(pe, PeStats.GET, bytes);
        }
        final TransferEvent event = bulk(bytes);
        if (t != null)
        {
            MemorySegment.copy(t, src.offset() + srcByteOffset, dest, 0, bytes);
        }
        else if (bytes > 0)
        {
            remoteOf[pe].get(tc[slotOf[pe]], pe, src.offset() + srcByteOffset, dest, nbi);
        }
        if (event != null)
        {
            transferred(event, pe, nbi ? "get_nbi" : "get", bytes);
        }
    }

    private void checkBytes(final SymmetricArray<?> handle, final long byteOffset, final long bytes)
    {
        if (byteOffset < 0 || byteOffset > handle.byteSize() - bytes)
        {
            throw new IndexOutOfBoundsException(owner.prefix() + "byteOffset=" + byteOffset + " bytes=" + bytes +
                " capacityBytes=" + handle.byteSize() + " of " + handle);
        }
        handle.checkLive();
    }

    // ------------------------------------------------------------------ strided

    void putStrided(final TransportContext[] tc, final SymmetricArray<?> dest, final long destIndex, final long dst, final Object src,
        final int srcOffset, final long sst, final long bsize, final long nblocks, final int pe)
    {
        // overflow-proof (issue 10): the spans saturate, so no stride or count wraps into a range that passes
        Checks.checkStrides(owner.prefix(), dst, sst, bsize, nblocks);
        checkOwner(dest, "dest");
        long off = dest.checkStridedRange(destIndex, dst, bsize, nblocks);
        Checks.checkArrayStrided(owner.prefix(), "source", src, srcOffset, sst, bsize, nblocks);
        final MemorySegment t = target(pe);
        if (stats != null)
        {
            count(pe, PeStats.PUT, bsize * nblocks * dest.elementBytes());
        }
        final ValueLayout layout = dest.elementLayout();
        final long step = dst * dest.elementBytes();
        int s = srcOffset;
        for (long b = 0; b < nblocks; b++, off += step, s += (int)sst)
        {
            if (t != null)
            {
                P2pTransport.putArray(t, off, src, s, layout, (int)bsize);
            }
            else
            {
                remoteOf[pe].put(tc[slotOf[pe]], pe, off, slice(src, s, (int)bsize, dest.elementBytes()), false);
            }
        }
    }

    void getStrided(final TransportContext[] tc, final Object dest, final int destOffset, final long dst, final SymmetricArray<?> src,
        final long srcIndex, final long sst, final long bsize, final long nblocks, final int pe)
    {
        Checks.checkStrides(owner.prefix(), dst, sst, bsize, nblocks);
        checkOwner(src, "source");
        long off = src.checkStridedRange(srcIndex, sst, bsize, nblocks);
        Checks.checkArrayStrided(owner.prefix(), "dest", dest, destOffset, dst, bsize, nblocks);
        final MemorySegment t = target(pe);
        if (stats != null)
        {
            count(pe, PeStats.GET, bsize * nblocks * src.elementBytes());
        }
        final ValueLayout layout = src.elementLayout();
        final long step = sst * src.elementBytes();
        int d = destOffset;
        for (long b = 0; b < nblocks; b++, off += step, d += (int)dst)
        {
            if (t != null)
            {
                P2pTransport.getArray(t, off, dest, d, layout, (int)bsize);
            }
            else
            {
                // every block but the last is non-blocking: replies come back in order, so the last completes them all
                remoteOf[pe].get(tc[slotOf[pe]], pe, off, slice(dest, d, (int)bsize, src.elementBytes()), b + 1 < nblocks);
            }
        }
    }

    // ------------------------------------------------------------------ scalar

    void p(final TransportContext[] tc, final SymmetricArray<?> dest, final long index, final long bits, final int pe)
    {
        final long off = checkHandle(dest, index, 1, "dest");
        final MemorySegment t = target(pe);
        if (stats != null)
        {
            count(pe, PeStats.PUT, dest.elementBytes());
        }
        if (t != null)
        {
            P2pTransport.p(t, off, dest.elementBytes(), bits);
        }
        else
        {
            final MemorySegment one = MemorySegment.ofArray(new long[] {bits}).asSlice(0, dest.elementBytes());
            remoteOf[pe].put(tc[slotOf[pe]], pe, off, one, false);
        }
    }

    long g(final TransportContext[] tc, final SymmetricArray<?> src, final long index, final int pe)
    {
        final long off = checkHandle(src, index, 1, "source");
        final MemorySegment t = target(pe);
        if (stats != null)
        {
            count(pe, PeStats.GET, src.elementBytes());
        }
        if (t != null)
        {
            return P2pTransport.g(t, off, src.elementBytes());
        }
        final long[] box = new long[1];
        final MemorySegment one = MemorySegment.ofArray(box);
        remoteOf[pe].get(tc[slotOf[pe]], pe, off, one.asSlice(0, src.elementBytes()), false);
        return P2pTransport.g(one, 0, src.elementBytes());
    }

    // ------------------------------------------------------------------ atomics

    long amo(final TransportContext[] tc, final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value,
        final long cond, final int pe)
    {
        final long off = checkAtomic(dest, index);
        final MemorySegment t = target(pe);
        if (stats != null)
        {
            count(pe, PeStats.AMO, dest.elementBytes());
        }
        if (t != null)
        {
            return HeapAtomics.apply(t, op, dest.elementBytes(), off, value, cond);
        }
        return remoteOf[pe].amo(tc[slotOf[pe]], pe, op, dest.elementBytes(), off, value, cond);
    }

    void amoNbi(final TransportContext[] tc, final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value,
        final long cond, final int pe, final Object fetch, final int fetchIndex)
    {
        checkArray(fetch, fetchIndex, 1, "fetch");
        final int fetchBytes = switch (fetch)
        {
            case long[] a -> 8;
            case int[] a -> 4;
            case float[] a -> 4;
            case double[] a -> 8;
            case null -> 0;
            default -> throw new IllegalArgumentException(owner.prefix() + "fetch must be an int[], long[], float[] or double[]: " +
                fetch.getClass().getSimpleName());
        };
        final long off = checkAtomic(dest, index);
        final MemorySegment t = target(pe);
        if (stats != null)
        {
            count(pe, PeStats.AMO, dest.elementBytes());
        }
        if (t == null)
        {
            remoteOf[pe].amoNbi(tc[slotOf[pe]], pe, op, dest.elementBytes(), off, value, cond, fetch == null ? null : slice(fetch, fetchIndex, 1, fetchBytes));
            return;
        }
        final long old = HeapAtomics.apply(t, op, dest.elementBytes(), off, value, cond);
        switch (fetch)
        {
            case long[] a -> a[fetchIndex] = old;
            case int[] a -> a[fetchIndex] = (int)old;
            case float[] a -> a[fetchIndex] = Float.intBitsToFloat((int)old);
            case double[] a -> a[fetchIndex] = Double.longBitsToDouble(old);
            default ->
            {
                // null: a non-fetching atomic
            }
        }
    }

    // ------------------------------------------------------------------ signals

    void putSignal(final TransportContext[] tc, final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset,
        final int count, final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int pe,
        final boolean nbi)
    {
        final long sigOff = checkAtomic(sig, sigIndex);
        if (op == null)
        {
            throw new NullPointerException(owner.prefix() + "signal op is null");
        }
        long off = 0;
        if (dest != null)
        {
            off = checkHandle(dest, destIndex, count, "dest");
            checkArray(src, srcOffset, count, "source");
        }
        final MemorySegment t = target(pe);
        final MemorySegment data = dest == null || count == 0 ? null : slice(src, srcOffset, count, dest.elementBytes());
        final long bytes = data == null ? 0 : data.byteSize();
        if (stats != null)
        {
            count(pe, PeStats.SIGNAL, bytes);
        }
        final TransferEvent event = bulk(bytes);
        if (t != null)
        {
            P2pTransport.putSignal(t, off, data, sigOff, signal, op);
        }
        else
        {
            remoteOf[pe].putSignal(tc[slotOf[pe]], pe, off, data, sigOff, signal, op, nbi);
        }
        if (event != null)
        {
            transferred(event, pe, nbi ? "put_signal_nbi" : "put_signal", bytes);
        }
    }

    // ------------------------------------------------------------------ ordering

    void fence(final TransportContext[] tc)
    {
        usable("fence");
        VarHandle.fullFence();
        if (tc != null)
        {
            transports.fence(tc);
        }
    }

    void quiet(final TransportContext[] tc)
    {
        usable("quiet");
        VarHandle.fullFence();
        if (tc != null)
        {
            // a remote transport is in use: quiet may wait for its acknowledgements
            final WaitEvent event = Jfr.waitBegun();
            final long startNs = stats != null ? System.nanoTime() : 0;
            transports.quiet(tc);
            if (stats != null)
            {
                stats.waited("quiet", System.nanoTime() - startNs);
            }
            if (event != null)
            {
                event.end();
                if (event.shouldCommit())
                {
                    event.pe = owner.myPe();
                    event.kind = "quiet";
                    event.object = "context";
                    event.index = -1;
                    event.commit();
                }
            }
        }
    }

    /**
     * Quiet of the live contexts.
     *
     * @param collectives false (barrier_all): the program's contexts, not the collectives' own (their messages are
     *                    complete once every member left the collective); true (finalize): every context.
     */
    void quietAll(final boolean collectives)
    {
        VarHandle.fullFence();
        transports.quietAll(collectives);
    }

    void peQuiet(final TransportContext[] tc, final int[] pes)
    {
        usable("peQuiet");
        for (final int pe : pes)
        {
            target(pe);
        }
        if (pes.length > 0)
        {
            VarHandle.fullFence();
        }
        for (final int pe : pes)
        {
            if (remoteOf[pe] != null)
            {
                remoteOf[pe].peQuiet(tc[slotOf[pe]], pe);
            }
        }
    }
}
