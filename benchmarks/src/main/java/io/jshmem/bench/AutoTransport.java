package io.jshmem.bench;

import io.jshmem.transport.hybrid.HybridProvider;

/**
 * Which job sizes {@code SHMEM_TRANSPORT=auto} runs over {@code hybrid} between test hosts of this machine, by the
 * library's own rule ({@link HybridProvider#autoChoice}): {@code benchmarks/scale} names the default transport of its
 * jobs with it rather than restating the rule. Every test host is on this machine, so a job of N PEs is a machine of N
 * PEs, and the cores are this JVM's, as a PE's would be.
 * <p>
 * Run: {@code AutoTransport N...}: prints each N whose jobs take hybrid, one per line, for test hosts that list no RDMA
 * device and where libucp loads (the caller checks both: with a device, auto takes ucx).
 */
public final class AutoTransport
{
    private AutoTransport()
    {
    }

    public static void main(final String[] args)
    {
        final int cores = Runtime.getRuntime().availableProcessors();
        for (final String arg : args)
        {
            final int n = Integer.parseInt(arg);
            if (HybridProvider.autoChoice(0, cores, n))
            {
                System.out.println(n);
            }
        }
    }
}
