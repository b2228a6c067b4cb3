package io.jshmem.bench;

import io.jshmem.transport.hybrid.HybridProvider;

/**
 * Which job sizes {@code SHMEM_TRANSPORT=auto} runs over {@code hybrid} between test hosts of this machine, by the
 * library's own rule ({@link HybridProvider#autoChoice}): {@code benchmarks/scale} names the default transport of its
 * jobs with it rather than restating the rule. Every test host is on this machine, so a job of N PEs is a machine of N
 * PEs, and the cores are this JVM's, as a PE's would be.
 * <p>
 * Run: {@code AutoTransport RDMA_DEVICES N...}: prints each N whose jobs take hybrid (where libucp loads, which the
 * caller checks), one per line.
 */
public final class AutoTransport
{
    private AutoTransport()
    {
    }

    public static void main(final String[] args)
    {
        if (args.length < 1)
        {
            System.err.println("usage: AutoTransport RDMA_DEVICES N...");
            System.exit(2);
        }
        final int rdma = Integer.parseInt(args[0]);
        final int cores = Runtime.getRuntime().availableProcessors();
        for (int i = 1; i < args.length; i++)
        {
            final int n = Integer.parseInt(args[i]);
            if (HybridProvider.autoChoice(rdma, cores, n))
            {
                System.out.println(n);
            }
        }
    }
}
