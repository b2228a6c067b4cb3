package io.jshmem.heap;

import io.jshmem.CollectiveMismatchException;
import io.jshmem.HeapExhaustedException;
import io.jshmem.config.ShmemOptions;

import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The deterministic symmetric allocator: hands out offsets into one PE's data region (symmetric offset 0 is
 * the first data byte) such that the same sequence of calls yields the same offsets on every PE. Offsets are
 * a pure function of the call sequence and the constructor arguments: no identity hashes, no clocks, and
 * every tie is broken by the lowest offset.
 * <p>
 * Policy: best fit (the smallest free block that holds the aligned request, lowest offset on a tie). Sizes are
 * rounded up to a multiple of the minimum alignment (a <em>granule</em>, 64 bytes by default so no two
 * objects share a cache line); padding skipped for a larger alignment stays free. Freed blocks coalesce
 * with free neighbours, so the free list is always maximal runs. Metadata lives in Java objects, never in the
 * shared heap, so a peer's stray store cannot corrupt it.
 * <p>
 * Exhaustion throws {@link HeapExhaustedException} and leaves the allocation state unchanged (the call is
 * still counted in the fingerprint, because the user made it; every PE fails the same call).
 * <p>
 * Call fingerprint: {@link #callCount()} and {@link #callHash()} summarise every well-formed call
 * (operation, size or offset, alignment or new size, sequence number) so the runtime can allgather them
 * under {@code SHMEM_DEBUG} and report PEs whose calls differ with {@link #describeMismatch(long[], long[])}.
 * <p>
 * Threads: not thread-safe. Symmetric allocation is collective and the runtime serializes the calls.
 */
public final class SymmetricAllocator
{
    /** The default minimum alignment and granule: one cache line. */
    public static final int DEFAULT_MIN_ALIGNMENT = 64;

    /** The smallest alignment a caller may ask for ({@code sizeof(void*)} in the spec). */
    public static final int SMALLEST_ALIGNMENT = 8;

    /** Operation codes mixed into the call fingerprint. */
    static final int OP_ALLOCATE = 1;
    static final int OP_FREE = 2;
    static final int OP_REALLOCATE = 3;

    private static final long HASH_SEED = 0x6A09E667F3BCC908L;

    /**
     * The outcome of {@link #reallocate(long, long)}.
     *
     * @param newOffset where the object now lives.
     * @param moved     true when the object must move: {@code newOffset} is a fresh block and the old block is
     *                  still allocated; the caller copies {@code min(oldSize, newSize)} bytes and then calls
     *                  {@link #free(long)} on the old offset.
     * @param oldSize   the size the object had before the call, as requested by its caller.
     */
    public record Reallocation(long newOffset, boolean moved, long oldSize)
    {
    }

    private record FreeBlock(long offset, long size)
    {
    }

    private record Allocation(long blockBytes, long requestedBytes, long alignment)
    {
    }

    private static final Comparator<FreeBlock> BY_SIZE_THEN_OFFSET =
        Comparator.comparingLong(FreeBlock::size).thenComparingLong(FreeBlock::offset);

    private final long capacity;
    private final int minAlignment;
    private final TreeMap<Long, Long> freeByOffset = new TreeMap<>();
    private final TreeSet<FreeBlock> freeBySize = new TreeSet<>(BY_SIZE_THEN_OFFSET);
    private final TreeMap<Long, Allocation> allocated = new TreeMap<>();
    private long usedBytes;
    private long callCount;
    private long callHash = HASH_SEED;

    /**
     * An allocator over {@code capacityBytes} with the default 64-byte minimum alignment.
     *
     * @param capacityBytes the size of the data region, greater than 0.
     */
    public SymmetricAllocator(final long capacityBytes)
    {
        this(capacityBytes, DEFAULT_MIN_ALIGNMENT);
    }

    /**
     * An allocator over {@code capacityBytes}.
     *
     * @param capacityBytes the size of the data region, greater than 0.
     * @param minAlignment  the alignment and size granule of every block: a power of two, at least 8.
     */
    public SymmetricAllocator(final long capacityBytes, final int minAlignment)
    {
        if (capacityBytes <= 0)
        {
            throw new IllegalArgumentException("capacityBytes=" + capacityBytes + " must be > 0");
        }
        checkAlignment("minAlignment", minAlignment);
        this.capacity = capacityBytes;
        this.minAlignment = minAlignment;
        addFree(0, capacityBytes);
    }

    /**
     * Allocates {@code sizeBytes} at the minimum alignment.
     *
     * @param sizeBytes greater than 0 (the runtime turns a size-0 request into a null handle itself).
     * @return the offset of the block in the data region.
     * @throws HeapExhaustedException when no free block is large enough; nothing changes.
     */
    public long allocate(final long sizeBytes)
    {
        return allocate(sizeBytes, minAlignment);
    }

    /**
     * Allocates {@code sizeBytes} at an offset that is a multiple of {@code alignment} (and of the minimum
     * alignment).
     *
     * @param sizeBytes greater than 0.
     * @param alignment a power of two, at least 8.
     * @return the offset of the block in the data region.
     * @throws HeapExhaustedException when no free block is large enough; nothing changes.
     */
    public long allocate(final long sizeBytes, final long alignment)
    {
        checkSize("allocate", sizeBytes);
        checkAlignment("alignment", alignment);
        record(OP_ALLOCATE, sizeBytes, alignment);
        final long align = Math.max(alignment, minAlignment);
        if (sizeBytes > capacity)
        {
            throw exhausted("allocate", sizeBytes, align);
        }
        final long blockBytes = roundUp(sizeBytes, minAlignment);
        final FreeBlock fit = findFit(blockBytes, align);
        if (fit == null)
        {
            throw exhausted("allocate", sizeBytes, align);
        }
        final long start = alignUp(fit.offset(), align);
        take(fit, start, blockBytes);
        allocated.put(start, new Allocation(blockBytes, sizeBytes, align));
        usedBytes += blockBytes;
        return start;
    }

    /**
     * Frees the block at {@code offset}, coalescing it with free neighbours.
     *
     * @param offset the offset {@link #allocate} or {@link #reallocate} returned.
     * @throws IllegalArgumentException when no block starts at {@code offset} (never allocated or already freed).
     */
    public void free(final long offset)
    {
        final Allocation a = requireAllocated("free", offset);
        record(OP_FREE, offset, 0);
        allocated.remove(offset);
        usedBytes -= a.blockBytes();
        release(offset, a.blockBytes());
    }

    /**
     * Resizes the block at {@code offset}. Shrinking is always in place; growing is in place when the free
     * space right after the block suffices, otherwise a new block is allocated (with the block's alignment)
     * and the old one stays allocated until the caller has copied the contents and freed it.
     *
     * @param offset       an allocated offset.
     * @param newSizeBytes greater than 0 (the runtime turns size 0 into a free).
     * @return where the object lives now, whether it must move, and its old size.
     * @throws IllegalArgumentException when no block starts at {@code offset}.
     * @throws HeapExhaustedException   when the block cannot grow in place and no free block is large enough;
     *                                  nothing changes.
     */
    public Reallocation reallocate(final long offset, final long newSizeBytes)
    {
        final Allocation a = requireAllocated("reallocate", offset);
        checkSize("reallocate", newSizeBytes);
        record(OP_REALLOCATE, offset, newSizeBytes);
        if (newSizeBytes > capacity)
        {
            throw exhausted("reallocate", newSizeBytes, a.alignment());
        }
        final long newBlockBytes = roundUp(newSizeBytes, minAlignment);
        if (newBlockBytes <= a.blockBytes())
        {
            final long tail = a.blockBytes() - newBlockBytes;
            if (tail > 0)
            {
                usedBytes -= tail;
                release(offset + newBlockBytes, tail);
            }
            allocated.put(offset, new Allocation(newBlockBytes, newSizeBytes, a.alignment()));
            return new Reallocation(offset, false, a.requestedBytes());
        }

        final long extra = newBlockBytes - a.blockBytes();
        final long end = offset + a.blockBytes();
        final Long nextFree = freeByOffset.get(end);
        if (nextFree != null && nextFree >= extra)
        {
            take(new FreeBlock(end, nextFree), end, extra);
            usedBytes += extra;
            allocated.put(offset, new Allocation(newBlockBytes, newSizeBytes, a.alignment()));
            return new Reallocation(offset, false, a.requestedBytes());
        }

        final FreeBlock fit = findFit(newBlockBytes, a.alignment());
        if (fit == null)
        {
            throw exhausted("reallocate", newSizeBytes, a.alignment());
        }
        final long start = alignUp(fit.offset(), a.alignment());
        take(fit, start, newBlockBytes);
        allocated.put(start, new Allocation(newBlockBytes, newSizeBytes, a.alignment()));
        usedBytes += newBlockBytes;
        return new Reallocation(start, true, a.requestedBytes());
    }

    /** @return the bytes of the data region this allocator manages. */
    public long capacity()
    {
        return capacity;
    }

    /** @return the minimum alignment and size granule of every block. */
    public int minAlignment()
    {
        return minAlignment;
    }

    /** @return bytes in allocated blocks, counting whole granules. */
    public long usedBytes()
    {
        return usedBytes;
    }

    /** @return bytes not in any allocated block; {@code usedBytes() + freeBytes() == capacity()}. */
    public long freeBytes()
    {
        return capacity - usedBytes;
    }

    /** @return the size of the largest free block (alignment padding may make less of it usable). */
    public long largestFreeBlock()
    {
        return freeBySize.isEmpty() ? 0 : freeBySize.last().size();
    }

    /** @return the number of free blocks; 1 when nothing is allocated (coalescing restores one run). */
    public int freeBlockCount()
    {
        return freeByOffset.size();
    }

    /** @return the number of allocated blocks. */
    public int allocatedCount()
    {
        return allocated.size();
    }

    /** @return whether a block starts at {@code offset}. */
    public boolean isAllocated(final long offset)
    {
        return allocated.containsKey(offset);
    }

    /**
     * @param offset an allocated offset.
     * @return the size its caller asked for (the block itself is rounded up to whole granules).
     * @throws IllegalArgumentException when no block starts at {@code offset}.
     */
    public long sizeOf(final long offset)
    {
        return requireAllocated("sizeOf", offset).requestedBytes();
    }

    /** @return the number of well-formed allocate, free and reallocate calls made so far. */
    public long callCount()
    {
        return callCount;
    }

    /** @return a 64-bit hash over every well-formed call's operation, operands and sequence number. */
    public long callHash()
    {
        return callHash;
    }

    /**
     * Compares allgathered call fingerprints against PE 0's.
     *
     * @param hashes every PE's {@link #callHash()}, indexed by PE.
     * @param counts every PE's {@link #callCount()}, indexed by PE.
     * @return a message naming the PEs whose calls differ from PE 0's, or empty when all agree.
     */
    public static Optional<String> describeMismatch(final long[] hashes, final long[] counts)
    {
        if (hashes.length != counts.length)
        {
            throw new IllegalArgumentException(
                "hashes.length=" + hashes.length + " differs from counts.length=" + counts.length);
        }
        final StringBuilder differing = new StringBuilder();
        int n = 0;
        for (int pe = 1; pe < hashes.length; pe++)
        {
            if (hashes[pe] != hashes[0] || counts[pe] != counts[0])
            {
                if (n < 16)
                {
                    differing.append(n == 0 ? "" : ", ").append("pe ").append(pe)
                        .append(" (").append(counts[pe]).append(" calls, hash 0x")
                        .append(Long.toHexString(hashes[pe])).append(')');
                }
                n++;
            }
        }
        if (n == 0)
        {
            return Optional.empty();
        }
        return Optional.of("symmetric allocation calls differ across PEs: pe 0 made " + counts[0] +
            " calls (hash 0x" + Long.toHexString(hashes[0]) + "); " + n + " PE(s) differ: " + differing +
            (n > 16 ? ", ..." : "") + ". Every PE must make the same malloc/align/free/realloc calls " +
            "with the same sizes in the same order.");
    }

    /**
     * Throws when {@link #describeMismatch(long[], long[])} finds a difference.
     *
     * @param hashes every PE's {@link #callHash()}, indexed by PE.
     * @param counts every PE's {@link #callCount()}, indexed by PE.
     * @throws CollectiveMismatchException naming the PEs that differ from PE 0.
     */
    public static void checkCallsMatch(final long[] hashes, final long[] counts)
    {
        final Optional<String> mismatch = describeMismatch(hashes, counts);
        if (mismatch.isPresent())
        {
            throw new CollectiveMismatchException(mismatch.get());
        }
    }

    @Override
    public String toString()
    {
        return "SymmetricAllocator{capacity=" + capacity + " used=" + usedBytes + " free=" + freeBytes() +
            " largestFreeBlock=" + largestFreeBlock() + " blocks=" + allocated.size() +
            " freeBlocks=" + freeByOffset.size() + " calls=" + callCount + '}';
    }

    private FreeBlock findFit(final long blockBytes, final long align)
    {
        // Smallest block first, lowest offset on a tie: the first that holds the aligned request is the best fit.
        for (final FreeBlock b : freeBySize.tailSet(new FreeBlock(Long.MIN_VALUE, blockBytes), true))
        {
            final long padding = alignUp(b.offset(), align) - b.offset();
            if (padding <= b.size() - blockBytes)
            {
                return b;
            }
        }
        return null;
    }

    /** Carves [start, start + length) out of free block {@code b}; what is left either side stays free. */
    private void take(final FreeBlock b, final long start, final long length)
    {
        removeFree(b.offset(), b.size());
        if (start > b.offset())
        {
            addFree(b.offset(), start - b.offset());
        }
        final long end = start + length;
        final long blockEnd = b.offset() + b.size();
        if (blockEnd > end)
        {
            addFree(end, blockEnd - end);
        }
    }

    /** Returns [offset, offset + length) to the free list, merged with free neighbours. */
    private void release(final long offset, final long length)
    {
        long start = offset;
        long size = length;
        final Map.Entry<Long, Long> prev = freeByOffset.floorEntry(offset);
        if (prev != null && prev.getKey() + prev.getValue() == offset)
        {
            removeFree(prev.getKey(), prev.getValue());
            start = prev.getKey();
            size += prev.getValue();
        }
        final Long next = freeByOffset.get(offset + length);
        if (next != null)
        {
            removeFree(offset + length, next);
            size += next;
        }
        addFree(start, size);
    }

    private void addFree(final long offset, final long size)
    {
        freeByOffset.put(offset, size);
        freeBySize.add(new FreeBlock(offset, size));
    }

    private void removeFree(final long offset, final long size)
    {
        freeByOffset.remove(offset);
        freeBySize.remove(new FreeBlock(offset, size));
    }

    private Allocation requireAllocated(final String op, final long offset)
    {
        final Allocation a = allocated.get(offset);
        if (a == null)
        {
            throw new IllegalArgumentException(op + ": offset=" + offset +
                " is not the start of an allocated block (never allocated, or already freed); capacity=" + capacity);
        }
        return a;
    }

    private void record(final int op, final long a, final long b)
    {
        callCount++;
        long h = callHash;
        h = mix(h ^ op);
        h = mix(h ^ a);
        h = mix(h ^ b);
        h = mix(h ^ callCount);
        callHash = h;
    }

    /** SplitMix64's finaliser: every input bit affects every output bit. */
    private static long mix(final long x)
    {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private HeapExhaustedException exhausted(final String op, final long requested, final long align)
    {
        final long free = freeBytes();
        final String msg = "symmetric heap exhausted: " + op + " of " + requested + " bytes (alignment " + align +
            ") does not fit; used=" + usedBytes + " bytes, free=" + free + " bytes, largest free block=" +
            largestFreeBlock() + " bytes, capacity=" + capacity + " bytes" +
            (free >= requested ? " (the free space is fragmented)" : "") +
            ". Raise " + ShmemOptions.SYMMETRIC_SIZE.envName() + " (the heap size per PE) or free objects first.";
        return new HeapExhaustedException(msg, requested, usedBytes, free);
    }

    private static void checkSize(final String op, final long sizeBytes)
    {
        if (sizeBytes <= 0)
        {
            throw new IllegalArgumentException(op + ": sizeBytes=" + sizeBytes + " must be > 0");
        }
    }

    private static void checkAlignment(final String name, final long alignment)
    {
        if (alignment < SMALLEST_ALIGNMENT || Long.bitCount(alignment) != 1 || alignment > (1L << 62))
        {
            throw new IllegalArgumentException(
                name + "=" + alignment + " must be a power of two between " + SMALLEST_ALIGNMENT + " and 2^62");
        }
    }

    private static long alignUp(final long value, final long align)
    {
        return (value + align - 1) & -align;
    }

    private static long roundUp(final long value, final long granule)
    {
        return (value + granule - 1) & -granule;
    }
}
