package io.jshmem.transport;

import io.jshmem.AtomicOp;
import io.jshmem.ShmemException;
import io.jshmem.SignalOp;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The on-node transport: every PE maps the heap file of every other PE on its node, so put and get
 * are copies into and out of the peer's {@link MemorySegment} and atomics are var-handle atomics on
 * the peer's words (hardware-coherent across processes). Operations complete as they are issued, so a
 * context holds no state and fence and quiet are full fences (which also order any non-temporal stores
 * the JDK's copy routines may use).
 * <p>
 * A PE always reaches itself through this transport (its own heap is local), whatever
 * {@code SHMEM_TRANSPORT} says; {@code peers} false keeps it from mapping anyone else.
 * <p>
 * {@link #connect} maps the peers the map assigns to p2p, with no communication: every peer's file was made
 * before the reachability map's allgather that precedes it. The runtime unlinks this PE's own file after init's
 * closing barrier, when every local peer has mapped it, so that a crash from then on leaks nothing under
 * /dev/shm (each of the two barriers connect held before cost every PE a job-wide round at init). Threads: every
 * verb is safe from any thread once connected. The runtime's fast path calls the static forms on {@link #heapOf(int)} directly.
 */
public final class P2pTransport implements Transport
{
    private static final TransportContext NO_STATE = () -> { };

    private final Bootstrap bootstrap;
    private final HeapFile ownHeap;
    private final Path directory;
    private final boolean peers;
    private final HeapFile[] peerFiles;
    private final MemorySegment[] heaps;

    /**
     * @param bootstrap the job's bootstrap.
     * @param ownHeap   this PE's heap (created, READY).
     * @param directory where the heap files live.
     * @param peers     whether to reach the other PEs of this node (false: only this PE itself).
     */
    public P2pTransport(final Bootstrap bootstrap, final HeapFile ownHeap, final Path directory, final boolean peers)
    {
        this.bootstrap = bootstrap;
        this.ownHeap = ownHeap;
        this.directory = directory;
        this.peers = peers;
        this.peerFiles = new HeapFile[bootstrap.size()];
        this.heaps = new MemorySegment[bootstrap.size()];
    }

    @Override
    public String name()
    {
        return "p2p";
    }

    @Override
    public byte id()
    {
        return ReachabilityMap.P2P;
    }

    @Override
    public Set<Capability> capabilities()
    {
        return EnumSet.of(Capability.LOAD_STORE, Capability.PASSIVE_PROGRESS, Capability.ORDERED_PER_TARGET, Capability.CPU_ATOMICS);
    }

    @Override
    public byte[] endpoint()
    {
        return new byte[0]; // the heap file's name follows from the job id and the PE
    }

    /** @return true for this PE and, when peers are enabled, the PEs on its node (same host identity). */
    @Override
    public boolean canReach(final int pe)
    {
        final int me = bootstrap.rank();
        return pe >= 0 && pe < bootstrap.size() && (pe == me || peers && bootstrap.nodeOfRank()[pe] == bootstrap.nodeOfRank()[me]);
    }

    @Override
    public void connect(final ReachabilityMap map, final byte[][] endpoints)
    {
        final int me = bootstrap.rank();
        final int n = bootstrap.size();
        final List<HeapFile> opened = new ArrayList<>();
        try
        {
            // no barrier first: every PE created its heap file (READY from creation) before it took part in the
            // reachability map's allgather, which every PE has passed to get here
            for (int k = 1; k <= n; k++)
            {
                final int pe = (me + k) % n; // start at a different peer on every PE
                if (pe == me)
                {
                    heaps[pe] = ownHeap.dataSegment();
                }
                else if (map.transport(me, pe) == ReachabilityMap.P2P)
                {
                    peerFiles[pe] = HeapFile.openPeer(directory, ownHeap.jobId(), pe, n, ownHeap.dataSize());
                    opened.add(peerFiles[pe]);
                    heaps[pe] = peerFiles[pe].dataSegment();
                }
            }
            // the name goes once every local peer has mapped this PE's heap: after init's closing barrier
            // (ShmemRuntime), not at a barrier of its own here
        }
        catch (final RuntimeException ex)
        {
            for (final HeapFile f : opened)
            {
                f.close();
            }
            throw ex;
        }
    }

    /**
     * @param pe a PE (range-checked by the caller).
     * @return the PE's whole heap data region mapped into this JVM, or null if this transport does not reach it.
     */
    public MemorySegment heapOf(final int pe)
    {
        return heaps[pe];
    }

    /** @return the mapped heaps, indexed by PE, null where not reached (the array is shared: do not modify). */
    public MemorySegment[] heaps()
    {
        return heaps;
    }

    /** @return this PE's own heap file. */
    public HeapFile ownHeap()
    {
        return ownHeap;
    }

    @Override
    public TransportContext createContext()
    {
        return NO_STATE;
    }

    private MemorySegment heap(final int pe)
    {
        final MemorySegment h = heaps[pe];
        if (h == null)
        {
            throw new ShmemException("p2p transport does not reach pe " + pe);
        }
        return h;
    }

    // ------------------------------------------------------------------ static forms (the runtime's fast path)

    /** Copies {@code count} elements of a Java array into a mapped heap at byte {@code offset}. */
    public static void putArray(final MemorySegment heap, final long offset, final Object src, final int srcIndex,
        final java.lang.foreign.ValueLayout layout, final int count)
    {
        MemorySegment.copy(src, srcIndex, heap, layout, offset, count);
    }

    /** Copies {@code count} elements from a mapped heap at byte {@code offset} into a Java array. */
    public static void getArray(final MemorySegment heap, final long offset, final Object dst, final int dstIndex,
        final java.lang.foreign.ValueLayout layout, final int count)
    {
        MemorySegment.copy(heap, layout, offset, dst, dstIndex, count);
    }

    /** Stores one 1-, 2-, 4- or 8-byte element (shmem_p). */
    public static void p(final MemorySegment heap, final long offset, final int bytes, final long bits)
    {
        switch (bytes)
        {
            case 1 -> heap.set(java.lang.foreign.ValueLayout.JAVA_BYTE, offset, (byte)bits);
            case 2 -> heap.set(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, offset, (short)bits);
            case 4 -> heap.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, offset, (int)bits);
            default -> heap.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, offset, bits);
        }
    }

    /** Loads one 1-, 2-, 4- or 8-byte element (shmem_g), sign-extended. */
    public static long g(final MemorySegment heap, final long offset, final int bytes)
    {
        return switch (bytes)
        {
            case 1 -> heap.get(java.lang.foreign.ValueLayout.JAVA_BYTE, offset);
            case 2 -> heap.get(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, offset);
            case 4 -> heap.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, offset);
            default -> heap.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, offset);
        };
    }

    // ------------------------------------------------------------------ verbs

    @Override
    public void put(final TransportContext ctx, final int pe, final long offset, final MemorySegment src, final boolean nbi)
    {
        MemorySegment.copy(src, 0, heap(pe), offset, src.byteSize());
    }

    @Override
    public void get(final TransportContext ctx, final int pe, final long offset, final MemorySegment dst, final boolean nbi)
    {
        MemorySegment.copy(heap(pe), offset, dst, 0, dst.byteSize());
    }

    @Override
    public void putSignal(final TransportContext ctx, final int pe, final long offset, final MemorySegment src, final long sigOffset,
        final long signal, final SignalOp op, final boolean nbi)
    {
        putSignal(heap(pe), offset, src, sigOffset, signal, op);
    }

    /** Put with signal on a mapped heap: data, a full fence, then the signal. */
    public static void putSignal(final MemorySegment heap, final long offset, final MemorySegment src, final long sigOffset,
        final long signal, final SignalOp op)
    {
        if (src != null && src.byteSize() > 0)
        {
            MemorySegment.copy(src, 0, heap, offset, src.byteSize());
            VarHandle.fullFence(); // the data is delivered before the signal that announces it (pairs with the waiter's acquire load)
        }
        HeapAtomics.signal(heap, sigOffset, signal, op);
    }

    @Override
    public long amo(final TransportContext ctx, final int pe, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond)
    {
        return HeapAtomics.apply(heap(pe), op, bytes, offset, value, cond);
    }

    @Override
    public void amoNbi(final TransportContext ctx, final int pe, final AtomicOp op, final int bytes, final long offset, final long value,
        final long cond, final MemorySegment fetch)
    {
        final long old = HeapAtomics.apply(heap(pe), op, bytes, offset, value, cond);
        if (fetch != null)
        {
            HeapAtomics.store(fetch, old);
        }
    }

    @Override
    public void fence(final TransportContext ctx)
    {
        VarHandle.fullFence();
    }

    @Override
    public void quiet(final TransportContext ctx)
    {
        VarHandle.fullFence();
    }

    @Override
    public void peQuiet(final TransportContext ctx, final int pe)
    {
        VarHandle.fullFence();
    }

    @Override
    public void progress()
    {
        // load/store: nothing pends
    }

    /** Unmaps every peer heap (not the own heap, which its creator closes). Idempotent. */
    @Override
    public void close()
    {
        RuntimeException first = null;
        for (int i = 0; i < peerFiles.length; i++)
        {
            final HeapFile f = peerFiles[i];
            if (f != null)
            {
                try
                {
                    f.close();
                }
                catch (final RuntimeException ex)
                {
                    if (first == null)
                    {
                        first = ex;
                    }
                }
                peerFiles[i] = null;
                heaps[i] = null;
            }
        }
        if (first != null)
        {
            throw new ShmemException("closing peer heap mappings failed", first);
        }
    }
}
