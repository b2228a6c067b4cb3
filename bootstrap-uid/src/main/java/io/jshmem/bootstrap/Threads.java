package io.jshmem.bootstrap;

import java.util.List;
import java.util.Set;

/** The bootstrap's background threads: daemon, named, tracked so close can join every one. */
final class Threads
{
    private Threads()
    {
    }

    /** Starts a daemon thread that removes itself from {@code registry} when it ends. */
    static Thread start(final String name, final Set<Thread> registry, final Runnable body)
    {
        final Thread t = Thread.ofPlatform().daemon().name(name).unstarted(() ->
        {
            try
            {
                body.run();
            }
            finally
            {
                registry.remove(Thread.currentThread());
            }
        });
        registry.add(t);
        t.start();
        return t;
    }

    /** Joins every thread of {@code registry} but the caller, up to {@code timeoutMs} in all. */
    static void joinAll(final Set<Thread> registry, final long timeoutMs, final boolean interrupt)
    {
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        for (final Thread t : List.copyOf(registry))
        {
            if (t == Thread.currentThread())
            {
                continue;
            }
            if (interrupt)
            {
                t.interrupt();
            }
            try
            {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
