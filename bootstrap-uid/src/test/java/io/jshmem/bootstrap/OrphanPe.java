package io.jshmem.bootstrap;

import io.jshmem.config.ShmemConfig;

/**
 * A PE program for {@link LauncherDeathTest}: joins the job its environment names and then carries
 * on whatever happens (it even swallows an init failure), so only the bootstrap's launcher watch can
 * end it.
 */
public final class OrphanPe
{
    private OrphanPe()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        System.out.println("joining pid=" + ProcessHandle.current().pid());
        System.out.flush();
        try
        {
            final Bootstrap b = Bootstraps.fromConfig(ShmemConfig.fromProcess());
            System.out.println("formed " + b.rank() + "/" + b.size());
        }
        catch (final RuntimeException ex)
        {
            System.out.println("init failed: " + ex.getMessage());
        }
        System.out.flush();
        Thread.sleep(600_000);
    }
}
