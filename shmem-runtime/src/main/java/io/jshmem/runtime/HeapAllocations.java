package io.jshmem.runtime;

import io.jshmem.CollectiveMismatchException;
import io.jshmem.HeapExhaustedException;
import io.jshmem.jfr.HeapEvent;
import io.jshmem.jfr.Jfr;
import io.jshmem.SymmetricArray;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.SymmetricAllocator;
import io.jshmem.spi.Allocation;
import io.jshmem.spi.SymmetricSpace;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A PE's collective allocations: the deterministic allocator plus the bookkeeping that turns offsets
 * into {@link Allocation}s, zeroing, realloc's copy, and (with {@code SHMEM_DEBUG}) the check that every
 * PE made the same call with the same arguments. Barriers are the caller's (the spec's entry/exit
 * rules differ per routine). Threads: callers hold the runtime's allocation lock.
 */
final class HeapAllocations
{
    private final SymmetricSpace space;
    private final Bootstrap bootstrap;
    private final SymmetricAllocator allocator;
    private final MemorySegment heap;
    private final boolean checkCalls;
    private final Map<Long, Allocation> live = new HashMap<>();
    private long serial;

    HeapAllocations(final SymmetricSpace space, final Bootstrap bootstrap, final long capacity, final boolean checkCalls)
    {
        this.space = space;
        this.bootstrap = bootstrap;
        this.allocator = new SymmetricAllocator(capacity);
        this.heap = space.localHeap();
        this.checkCalls = checkCalls;
    }

    long usedBytes()
    {
        return allocator.usedBytes();
    }

    long freeBytes()
    {
        return allocator.freeBytes();
    }

    /**
     * With SHMEM_DEBUG: every PE must be making the same call (routine, arguments) at the same point of
     * the call sequence; otherwise every PE throws, naming who differs.
     */
    void checkSameCall(final String routine, final long bytes, final long alignment)
    {
        if (!checkCalls)
        {
            return;
        }
        final byte[] name = routine.getBytes(StandardCharsets.US_ASCII);
        final ByteBuffer mine = ByteBuffer.allocate(32 + name.length)
            .putLong(allocator.callCount()).putLong(allocator.callHash()).putLong(bytes).putLong(alignment).put(name);
        final byte[][] all = bootstrap.allgather(mine.array());
        final StringBuilder diff = new StringBuilder();
        for (int pe = 0; pe < all.length; pe++)
        {
            if (!java.util.Arrays.equals(all[pe], all[0]))
            {
                diff.append(' ').append(describe(pe, all[pe]));
            }
        }
        if (diff.length() > 0)
        {
            throw new CollectiveMismatchException(space.prefix() + "PEs disagree on a collective allocation: " +
                describe(0, all[0]) + " but" + diff + " (same routine, sizes and call sequence are required on every PE)");
        }
    }

    private static String describe(final int pe, final byte[] record)
    {
        final ByteBuffer b = ByteBuffer.wrap(record);
        final long count = b.getLong();
        final long hash = b.getLong();
        final long bytes = b.getLong();
        final long alignment = b.getLong();
        final String routine = new String(record, 32, record.length - 32, StandardCharsets.US_ASCII);
        return "pe " + pe + " " + routine + "(bytes=" + bytes + (alignment > 0 ? ", alignment=" + alignment : "") +
            ") as call #" + count + String.format(" (history %016x)", hash);
    }

    /** Records a heap event (JFR's jshmem.Heap) if a recording wants it. */
    private void record(final HeapEvent event, final String operation, final long bytes, final long offset)
    {
        if (event == null)
        {
            return;
        }
        event.end();
        if (event.shouldCommit())
        {
            event.pe = space.myPe();
            event.operation = operation;
            event.bytes = bytes;
            event.offset = offset;
            event.usedBytes = usedBytes();
            event.freeBytes = freeBytes();
            event.commit();
        }
    }

    Allocation allocate(final long bytes, final long alignment, final boolean zero)
    {
        final HeapEvent event = Jfr.heapBegun();
        final long offset;
        try
        {
            offset = alignment > 0 ? allocator.allocate(bytes, alignment) : allocator.allocate(bytes);
        }
        catch (final HeapExhaustedException ex)
        {
            record(event, "exhausted", bytes, -1);
            throw new HeapExhaustedException(space.prefix() + ex.getMessage(), ex.requestedBytes(), ex.usedBytes(), ex.freeBytes());
        }
        if (zero)
        {
            heap.asSlice(offset, bytes).fill((byte)0);
        }
        final Allocation a = new Allocation(space, offset, bytes, serial++);
        live.put(offset, a);
        record(event, zero ? "calloc" : alignment > 0 ? "align" : "malloc", bytes, offset);
        return a;
    }

    /** Checks that the handle names a whole live allocation of this PE and returns it. */
    Allocation wholeAllocation(final SymmetricArray<?> handle, final String routine)
    {
        final Allocation a = handle.allocation();
        if (a.space() != space)
        {
            throw new IllegalArgumentException(space.prefix() + routine + ": " + handle + " was not allocated by this PE's job");
        }
        if (!a.isLive() || live.get(a.offset()) != a)
        {
            throw new IllegalArgumentException(space.prefix() + routine + ": " + handle + " was already freed");
        }
        if (handle.offset() != a.offset())
        {
            throw new IllegalArgumentException(space.prefix() + routine + ": " + handle + " is a slice; pass the handle " +
                "the allocation returned (offset=" + a.offset() + ")");
        }
        return a;
    }

    /**
     * At finalize: every object dies with the heap, so a handle kept past it (into a later init, say)
     * fails as freed instead of touching an unmapped segment.
     */
    void releaseAll()
    {
        live.values().forEach(Allocation::markFreed);
        live.clear();
    }

    void free(final Allocation a)
    {
        final HeapEvent event = Jfr.heapBegun();
        allocator.free(a.offset());
        live.remove(a.offset());
        a.markFreed();
        record(event, "free", a.byteSize(), a.offset());
    }

    Allocation reallocate(final Allocation old, final long bytes)
    {
        final HeapEvent event = Jfr.heapBegun();
        final SymmetricAllocator.Reallocation r;
        try
        {
            r = allocator.reallocate(old.offset(), bytes);
        }
        catch (final HeapExhaustedException ex)
        {
            record(event, "exhausted", bytes, -1);
            throw new HeapExhaustedException(space.prefix() + ex.getMessage(), ex.requestedBytes(), ex.usedBytes(), ex.freeBytes());
        }
        if (r.moved())
        {
            MemorySegment.copy(heap, old.offset(), heap, r.newOffset(), Math.min(old.byteSize(), bytes));
            allocator.free(old.offset());
        }
        live.remove(old.offset());
        old.markFreed();
        final Allocation a = new Allocation(space, r.newOffset(), bytes, serial++);
        live.put(a.offset(), a);
        record(event, "realloc", bytes, a.offset());
        return a;
    }
}
