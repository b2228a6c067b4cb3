package io.jshmem.transport.proxy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The proxy's command channel: a many-to-one ring of variable-length records on off-heap memory, with
 * the layout and protocol of Agrona's {@code ManyToOneRingBuffer} (whose own implementation needs
 * {@code jdk.internal.misc} on JDK 25: see docs/transports.md). Producers (any API thread) claim space
 * by a CAS on the tail, write the record body, then publish it with a release store of its length;
 * the one consumer (the proxy agent) reads records in order while their length is positive, zeroes
 * what it consumed and advances the head with a release store.
 * <pre>
 *   record: int length (header + body, published last) | int type | body... padded to 8 bytes
 * </pre>
 * A record never wraps: a producer whose record would cross the end writes a padding record to the
 * end and starts at 0.
 * <p>
 * A record's body starts with its stream's key (an int: the proxy's target PE). Records of one stream are
 * consumed in the order published; a record the consumer leaves (its stream cannot take it now) holds back the
 * later records of its stream only. The consumer looks past it, up to {@link #LOOKAHEAD} records and
 * {@link #MAX_LEFT} streams left, and consumes the records of other streams there; each of those is retyped as
 * padding in place, so that the head skips it once it gets there. Without this, a blocking fetch-add to one PE
 * waited in the ring behind a large put to another PE until that PE had read it (head-of-line blocking).
 */
final class CommandRing
{
    static final int HEADER = 8;
    static final int PADDING = -1;
    private static final int ALIGN = 8;
    /** Records the consumer looks at past the first one it left, in one read. */
    static final int LOOKAHEAD = 64;
    /** Streams left in one read before the consumer stops looking further. */
    static final int MAX_LEFT = 8;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;

    static
    {
        try
        {
            final MethodHandles.Lookup l = MethodHandles.lookup();
            TAIL = l.findVarHandle(CommandRing.class, "tail", long.class);
            HEAD = l.findVarHandle(CommandRing.class, "head", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Consumes one record; returns false to leave it (and the later records of its stream) for a later read. */
    @FunctionalInterface
    interface Handler
    {
        boolean onRecord(int type, MemorySegment buffer, long bodyOffset, int bodyLength);
    }

    private final Arena arena;
    private final MemorySegment buffer;
    private final long capacity;
    private final long mask;
    private final int maxRecord;
    @SuppressWarnings("unused") // padding: the tail and the head live on separate cache lines
    private long p1, p2, p3, p4, p5, p6, p7;
    private volatile long tail;
    @SuppressWarnings("unused")
    private long q1, q2, q3, q4, q5, q6, q7;
    private volatile long head;
    /** Consumer only: the streams {@link #read} left a record of. */
    private final int[] leftKeys = new int[MAX_LEFT];

    /** @param capacity bytes, a power of two of at least 4 KiB. */
    CommandRing(final long capacity)
    {
        if (capacity < 4096 || Long.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("ring capacity " + capacity + " must be a power of two >= 4096");
        }
        this.arena = Arena.ofShared();
        this.buffer = arena.allocate(capacity, 64);
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.maxRecord = (int)Math.min(Integer.MAX_VALUE, capacity / 8);
    }

    /** @return the largest body a record may have. */
    int maxBody()
    {
        return maxRecord - HEADER;
    }

    MemorySegment buffer()
    {
        return buffer;
    }

    private static long align(final long n)
    {
        return (n + ALIGN - 1) & -ALIGN;
    }

    /**
     * Claims space for a record.
     *
     * @return the offset of the record's body, or -1 when the ring is full now.
     */
    long tryClaim(final int bodyLength)
    {
        if (bodyLength < 4 || bodyLength > maxBody())
        {
            throw new IllegalArgumentException("record body " + bodyLength + " is not within 4 (its stream's key) and " + maxBody());
        }
        final long required = align(HEADER + bodyLength);
        long t;
        long index;
        long padding;
        do
        {
            t = tail;
            final long free = capacity - (t - head);
            if (required > free)
            {
                return -1;
            }
            index = t & mask;
            final long toEnd = capacity - index;
            padding = 0;
            if (required > toEnd)
            {
                if (required + toEnd > free)
                {
                    return -1;
                }
                padding = toEnd;
            }
        }
        while (!TAIL.compareAndSet(this, t, t + required + padding));
        if (padding != 0)
        {
            buffer.set(ValueLayout.JAVA_INT, index + 4, PADDING);
            INT.setRelease(buffer, index, (int)padding);
            index = 0;
        }
        buffer.set(ValueLayout.JAVA_INT, index + 4, 0);
        return index + HEADER;
    }

    /** Publishes a claimed record. */
    void commit(final long bodyOffset, final int type, final int bodyLength)
    {
        final long index = bodyOffset - HEADER;
        buffer.set(ValueLayout.JAVA_INT, index + 4, type);
        INT.setRelease(buffer, index, HEADER + bodyLength);
    }

    /** @return true when no record is published or claimed. */
    boolean isEmpty()
    {
        return head == tail;
    }

    /**
     * Reads published records in order (consumer only), each stream's in its order; past a record left for later,
     * the records of other streams (see the class comment).
     *
     * @return the number of records consumed.
     */
    int read(final Handler handler, final int limit)
    {
        final long h = head;
        long consumed = 0; // the run from the head that is done: the head moves past it
        long scanned = 0;
        int records = 0;
        int left = 0; // streams with a record left in this read; their keys in leftKeys
        int looked = 0;
        try
        {
            // a full ring holds records on every byte: stop after one lap, where the first record (not yet
            // zeroed) would otherwise be read again
            while (records < limit && scanned < capacity)
            {
                final long index = (h + scanned) & mask;
                final int length = (int)INT.getAcquire(buffer, index);
                if (length <= 0)
                {
                    break;
                }
                scanned += align(length);
                if (buffer.get(ValueLayout.JAVA_INT, index + 4) == PADDING)
                {
                    if (left == 0)
                    {
                        consumed = scanned;
                    }
                    continue;
                }
                final int key = buffer.get(ValueLayout.JAVA_INT, index + HEADER);
                if (left > 0)
                {
                    if (++looked > LOOKAHEAD)
                    {
                        break;
                    }
                    if (isLeft(key, left))
                    {
                        continue; // its stream has an earlier record left: it waits behind it
                    }
                }
                if (!handler.onRecord(buffer.get(ValueLayout.JAVA_INT, index + 4), buffer, index + HEADER, length - HEADER))
                {
                    if (left == MAX_LEFT)
                    {
                        break;
                    }
                    leftKeys[left++] = key;
                    continue;
                }
                records++;
                if (left == 0)
                {
                    consumed = scanned;
                }
                else
                {
                    buffer.set(ValueLayout.JAVA_INT, index + 4, PADDING); // consumed out of order: the head skips it later
                }
            }
        }
        finally
        {
            if (consumed > 0)
            {
                final long start = h & mask;
                // records never wrap, but the consumed run can: zero it in at most two pieces
                final long first = Math.min(consumed, capacity - start);
                buffer.asSlice(start, first).fill((byte)0);
                if (consumed > first)
                {
                    buffer.asSlice(0, consumed - first).fill((byte)0);
                }
                HEAD.setRelease(this, h + consumed);
            }
        }
        return records;
    }

    private boolean isLeft(final int key, final int left)
    {
        for (int i = 0; i < left; i++)
        {
            if (leftKeys[i] == key)
            {
                return true;
            }
        }
        return false;
    }

    /** Frees the memory; only after the agent stopped. */
    void close()
    {
        arena.close();
    }
}
