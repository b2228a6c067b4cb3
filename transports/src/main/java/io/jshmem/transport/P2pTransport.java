package io.jshmem.transport;

import io.jshmem.ShmemException;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The on-node transport: every PE maps the heap file of every other PE on its node, so put and get
 * are copies into and out of the peer's {@link MemorySegment} and atomics are var-handle atomics on
 * the peer's words (hardware-coherent across processes).
 * <p>
 * {@link #connect} is collective over the job: it maps the peers, then (after a bootstrap barrier, when
 * every local peer has mapped every heap) unlinks this PE's own file, so that a crash from then on
 * leaks nothing under /dev/shm. Threads: {@link #heapOf(int)} is safe from any thread once connected.
 */
public final class P2pTransport implements AutoCloseable
{
    private final HeapFile ownHeap;
    private final HeapFile[] peerFiles;
    private final MemorySegment[] heaps;
    private final boolean[] reach;

    private P2pTransport(final HeapFile ownHeap, final HeapFile[] peerFiles, final MemorySegment[] heaps, final boolean[] reach)
    {
        this.ownHeap = ownHeap;
        this.peerFiles = peerFiles;
        this.heaps = heaps;
        this.reach = reach;
    }

    /**
     * Which PEs this transport can reach: the PEs on this PE's node (same host identity).
     *
     * @param bootstrap the job's bootstrap.
     * @return one flag per PE.
     */
    public static boolean[] reachable(final Bootstrap bootstrap)
    {
        final int[] node = bootstrap.nodeOfRank();
        final int me = bootstrap.rank();
        final boolean[] reach = new boolean[bootstrap.size()];
        for (int pe = 0; pe < reach.length; pe++)
        {
            reach[pe] = node[pe] == node[me];
        }
        return reach;
    }

    /**
     * Maps the heaps of every PE on this node. Collective over the job.
     *
     * @param bootstrap the job's bootstrap.
     * @param ownHeap   this PE's heap (created, READY).
     * @param directory where the heap files live.
     * @return the connected transport.
     */
    public static P2pTransport connect(final Bootstrap bootstrap, final HeapFile ownHeap, final Path directory)
    {
        final int me = bootstrap.rank();
        final int n = bootstrap.size();
        final boolean[] reach = reachable(bootstrap);
        final HeapFile[] files = new HeapFile[n];
        final MemorySegment[] heaps = new MemorySegment[n];
        final List<HeapFile> opened = new ArrayList<>();
        try
        {
            bootstrap.barrier(); // every heap file of the job exists and is READY
            for (int k = 1; k <= n; k++)
            {
                final int pe = (me + k) % n; // start at a different peer on every PE
                if (pe == me)
                {
                    heaps[pe] = ownHeap.dataSegment();
                }
                else if (reach[pe])
                {
                    files[pe] = HeapFile.openPeer(directory, ownHeap.jobId(), pe, n, ownHeap.dataSize());
                    opened.add(files[pe]);
                    heaps[pe] = files[pe].dataSegment();
                }
            }
            bootstrap.barrier(); // every local peer has mapped this PE's heap
            ownHeap.unlink();
        }
        catch (final RuntimeException ex)
        {
            for (final HeapFile f : opened)
            {
                f.close();
            }
            throw ex;
        }
        return new P2pTransport(ownHeap, files, heaps, reach);
    }

    /**
     * @param pe a PE (range-checked by the caller).
     * @return the PE's whole heap data region mapped into this JVM, or null if it is on another node.
     */
    public MemorySegment heapOf(final int pe)
    {
        return heaps[pe];
    }

    /** @return the mapped heaps, indexed by PE, null where not reachable (the array is shared: do not modify). */
    public MemorySegment[] heaps()
    {
        return heaps;
    }

    /** @return true if this transport reaches pe by load/store. */
    public boolean canReach(final int pe)
    {
        return reach[pe];
    }

    /** @return this PE's own heap file. */
    public HeapFile ownHeap()
    {
        return ownHeap;
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
            }
        }
        if (first != null)
        {
            throw new ShmemException("closing peer heap mappings failed", first);
        }
    }
}
