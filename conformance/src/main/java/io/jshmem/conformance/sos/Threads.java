package io.jshmem.conformance.sos;

import io.jshmem.conformance.Check;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the per-thread bodies of the multi-threaded ports on platform threads and joins them with a deadline. */
final class Threads
{
    /** A thread body. */
    @FunctionalInterface
    interface Body
    {
        void run(int tid) throws Exception;
    }

    private Threads()
    {
    }

    /**
     * Starts {@code n} threads running {@code body(tid)} and joins them; an exception in a thread is a
     * failure; a thread still running after the await timeout ends the job.
     */
    static void run(final Check check, final String routine, final int n, final Body body) throws InterruptedException
    {
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < n; t++)
        {
            final int tid = t;
            threads.add(Thread.ofPlatform().name("conformance-" + routine + "-" + tid).start(() ->
            {
                try
                {
                    body.run(tid);
                }
                catch (final Throwable e)
                {
                    check.fail(routine, "thread " + tid + " threw " + e);
                }
            }));
        }
        final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
        for (final Thread t : threads)
        {
            final long left = deadline - System.nanoTime();
            if (left <= 0 || !t.join(java.time.Duration.ofNanos(left)))
            {
                check.fatal("thread " + t.getName() + " did not finish within " + TimeUnit.NANOSECONDS.toSeconds(Check.AWAIT_TIMEOUT_NS) + " s");
            }
        }
    }
}
