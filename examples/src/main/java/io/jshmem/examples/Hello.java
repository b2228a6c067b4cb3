package io.jshmem.examples;

import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.bootstrap.Bootstraps;
import io.jshmem.config.ShmemConfig;

import java.nio.charset.StandardCharsets;

/**
 * Every PE says who it is: rank, size, node rank and node size, and the hosts of all ranks
 * (allgathered through the bootstrap). Run it with {@code bin/shmemrun -np 4 --tag-output hello}.
 */
public final class Hello
{
    private Hello()
    {
    }

    public static void main(final String[] args)
    {
        try (Bootstrap b = Bootstraps.fromConfig(ShmemConfig.fromProcess()))
        {
            final String host = b.hostOfRank()[b.rank()];
            final byte[][] all = b.allgather(shortHost(host).getBytes(StandardCharsets.UTF_8));
            final StringBuilder hosts = new StringBuilder();
            for (int r = 0; r < all.length; r++)
            {
                hosts.append(r == 0 ? "" : ", ").append(r).append('=').append(new String(all[r], StandardCharsets.UTF_8));
            }
            System.out.println("Hello from PE " + b.rank() + " of " + b.size() + " (node rank " + b.nodeRank() + " of "
                + b.nodeSize() + ", launcher " + b.launcher() + ", job " + b.jobId() + "); hosts: " + hosts);
            b.barrier();
        }
    }

    /** The host name without the boot id, for reading. */
    private static String shortHost(final String identity)
    {
        final int slash = identity.indexOf('/');
        return slash < 0 ? identity : identity.substring(0, slash);
    }
}
