package io.jshmem.bootstrap;

/**
 * The bootstrap's collective algorithms over point-to-point messages, independent of sockets.
 * Messages of one call are told apart by round; calls are told apart by the caller's sequence number.
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

    /** Ring allgather: N-1 steps, each PE forwards the block it received last to its right neighbour. */
    static byte[][] allgather(final int rank, final int size, final byte[] mine, final Links l)
    {
        final byte[][] out = new byte[size][];
        out[rank] = mine.clone();
        final int right = (rank + 1) % size;
        final int left = (rank - 1 + size) % size;
        for (int step = 0; step < size - 1; step++)
        {
            l.send(right, step, out[(rank - step + size) % size]);
            out[(rank - step - 1 + 2 * size) % size] = l.recv(left, step);
        }
        return out;
    }

    /** Ring-shifted pairwise exchange: at step s, send to rank+s and receive from rank-s. */
    static byte[][] alltoall(final int rank, final int size, final byte[][] toEach, final Links l)
    {
        final byte[][] out = new byte[size][];
        out[rank] = toEach[rank].clone();
        for (int step = 1; step < size; step++)
        {
            l.send((rank + step) % size, step, toEach[(rank + step) % size]);
            out[(rank - step + size) % size] = l.recv((rank - step + size) % size, step);
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
}
