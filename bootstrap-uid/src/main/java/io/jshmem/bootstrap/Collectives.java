package io.jshmem.bootstrap;

import java.nio.ByteBuffer;

/**
 * The bootstrap's collective algorithms over point-to-point messages, independent of sockets.
 * Messages of one call are told apart by round; calls are told apart by the caller's sequence number.
 * <p>
 * Every algorithm takes ⌈log2 N⌉ rounds, so a job on a loaded machine waits for O(log N) scheduled
 * neighbours in a row, not N-1 (a ring at 512 PEs), and each PE talks to O(log N) peers (lazily
 * opened connections). Blocks of any length, empty included, travel several to a message
 * ({@link #pack}).
 */
final class Collectives
{
    private Collectives()
    {
    }

    /** Point-to-point messaging of one collective call. */
    interface Links
    {
        void send(int peer, int round, byte[] data);

        byte[] recv(int src, int round);
    }

    /**
     * Bruck's allgather (Bruck et al., 1997): block i of this PE's buffer is rank+i's. Round k (distance
     * d = 2^k) sends the first min(d, N-d) blocks held to rank-d and appends as many from rank+d, so
     * after ⌈log2 N⌉ rounds every PE holds all N; any N, no final exchange.
     */
    static byte[][] allgather(final int rank, final int size, final byte[] mine, final Links l)
    {
        final byte[][] held = new byte[size][];
        held[0] = mine.clone();
        int round = 0;
        for (int d = 1; d < size; d <<= 1, round++)
        {
            final int count = Math.min(d, size - d);
            l.send(Math.floorMod(rank - d, size), round, pack(held, 0, count));
            unpack(l.recv((rank + d) % size, round), held, d, count, "allgather", (rank + d) % size);
        }
        final byte[][] out = new byte[size][];
        for (int i = 0; i < size; i++)
        {
            out[(rank + i) % size] = held[i];
        }
        return out;
    }

    /**
     * Bruck's alltoall: after a local rotation (slot i holds the block for rank+i), round k (d = 2^k)
     * sends the slots whose bit k is set to rank+d and receives the same slots from rank-d; after
     * ⌈log2 N⌉ rounds slot i holds rank-i's block for this PE. Each block travels at most ⌈log2 N⌉
     * hops; the bootstrap's alltoall carries small control data, where rounds, not bytes, cost.
     */
    static byte[][] alltoall(final int rank, final int size, final byte[][] toEach, final Links l)
    {
        final byte[][] slot = new byte[size][];
        for (int i = 0; i < size; i++)
        {
            slot[i] = toEach[(rank + i) % size].clone();
        }
        final int[] picked = new int[size];
        int round = 0;
        for (int d = 1; d < size; d <<= 1, round++)
        {
            int count = 0;
            for (int i = 1; i < size; i++)
            {
                if ((i & d) != 0)
                {
                    picked[count++] = i;
                }
            }
            l.send((rank + d) % size, round, pack(slot, picked, count));
            final int src = Math.floorMod(rank - d, size);
            final byte[][] got = new byte[count][];
            unpack(l.recv(src, round), got, 0, count, "alltoall", src);
            for (int j = 0; j < count; j++)
            {
                slot[picked[j]] = got[j];
            }
        }
        final byte[][] out = new byte[size][];
        for (int i = 0; i < size; i++)
        {
            out[Math.floorMod(rank - i, size)] = slot[i];
        }
        return out;
    }

    /** Binomial tree from the root (ranks relative to it): receive from the parent, send to the children. */
    static byte[] broadcast(final int rank, final int size, final byte[] data, final int root, final Links l)
    {
        final int vr = (rank - root + size) % size;
        byte[] value = rank == root ? data.clone() : null;
        int mask = 1;
        while (mask < size)
        {
            if ((vr & mask) != 0)
            {
                value = l.recv((vr - mask + root) % size, 0);
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1)
        {
            if (vr + mask < size)
            {
                l.send((vr + mask + root) % size, 0, value);
            }
        }
        return value;
    }

    /** Dissemination barrier (Hensgen, Finkel, Manber): round k signals rank+2^k and waits for rank-2^k. */
    static void barrier(final int rank, final int size, final Links l)
    {
        final byte[] empty = new byte[0];
        for (int k = 0; (1 << k) < size; k++)
        {
            l.send((rank + (1 << k)) % size, k, empty);
            l.recv((rank - (1 << k) + size) % size, k);
        }
    }

    /** {@code count(int) (length(int) bytes)*} of blocks[from, from+count). */
    static byte[] pack(final byte[][] blocks, final int from, final int count)
    {
        final int[] idx = new int[count];
        for (int i = 0; i < count; i++)
        {
            idx[i] = from + i;
        }
        return pack(blocks, idx, count);
    }

    private static byte[] pack(final byte[][] blocks, final int[] idx, final int count)
    {
        long bytes = 4L + 4L * count;
        for (int i = 0; i < count; i++)
        {
            bytes += blocks[idx[i]].length;
        }
        if (bytes > Wire.MAX_FRAME - 64)
        {
            throw new IllegalArgumentException("bootstrap collective message of " + bytes + " bytes (" + count
                + " blocks) exceeds the frame limit " + Wire.MAX_FRAME);
        }
        final ByteBuffer b = ByteBuffer.allocate((int)bytes).putInt(count);
        for (int i = 0; i < count; i++)
        {
            b.putInt(blocks[idx[i]].length).put(blocks[idx[i]]);
        }
        return b.array();
    }

    /** Unpacks exactly {@code count} blocks into into[at, at+count); a malformed message names its sender. */
    static void unpack(final byte[] message, final byte[][] into, final int at, final int count, final String op, final int src)
    {
        final ByteBuffer b = ByteBuffer.wrap(message);
        try
        {
            final int n = b.getInt();
            if (n != count)
            {
                throw new IllegalStateException(op + ": PE " + src + " sent " + n + " blocks, expected " + count);
            }
            for (int i = 0; i < count; i++)
            {
                final int len = b.getInt();
                if (len < 0 || len > b.remaining())
                {
                    throw new IllegalStateException(op + ": PE " + src + " sent a block of " + len + " bytes with "
                        + b.remaining() + " left in its message");
                }
                final byte[] block = new byte[len];
                b.get(block);
                into[at + i] = block;
            }
        }
        catch (final java.nio.BufferUnderflowException ex)
        {
            throw new IllegalStateException(op + ": truncated message of " + message.length + " bytes from PE " + src, ex);
        }
    }
}
