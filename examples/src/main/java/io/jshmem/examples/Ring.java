package io.jshmem.examples;

import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.bootstrap.Bootstraps;
import io.jshmem.config.ShmemConfig;

import java.nio.ByteBuffer;

/**
 * Passes a token around the ring of PEs with the bootstrap's alltoall (each PE sends only to its
 * right neighbour), a few laps, and checks the sum: {@code bin/shmemrun -np 4 ring}.
 */
public final class Ring
{
    private Ring()
    {
    }

    public static void main(final String[] args)
    {
        final int laps = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        try (Bootstrap b = Bootstraps.fromConfig(ShmemConfig.fromProcess()))
        {
            final int n = b.size();
            long token = b.rank() == 0 ? 1 : 0;
            for (int step = 0; step < laps * n; step++)
            {
                final byte[][] out = new byte[n][0];
                out[(b.rank() + 1) % n] = ByteBuffer.allocate(8).putLong(token + (token != 0 ? 1 : 0)).array();
                final byte[][] in = b.alltoall(out);
                token = ByteBuffer.wrap(in[(b.rank() - 1 + n) % n]).getLong();
            }
            final byte[] result = b.broadcast(ByteBuffer.allocate(8).putLong(token).array(), 0);
            if (b.rank() == 0)
            {
                System.out.println("ring: token went " + laps + " laps around " + n + " PEs and reads " + ByteBuffer.wrap(result).getLong());
            }
            b.barrier();
        }
    }
}
