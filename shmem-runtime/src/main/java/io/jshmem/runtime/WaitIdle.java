package io.jshmem.runtime;

import io.jshmem.JobFailedException;
import io.jshmem.bootstrap.Bootstrap;

import java.util.concurrent.locks.LockSupport;

/**
 * The idle strategy of every wait on another PE (wait_until, signal waits, barriers): spin with
 * {@link Thread#onSpinWait()} for {@code SHMEM_WAIT_SPINS} polls (sub-microsecond wake-ups while cores
 * are free), then {@link Thread#yield()} for {@code SHMEM_WAIT_YIELDS} polls (a waiter gives its core
 * to the PE it waits for when PEs outnumber cores), then short parks that grow to 200 µs (a long wait
 * costs little CPU); with yields -1 (the default while PEs do not outnumber cores) it never parks.
 * Every step past the first spins checks whether the job failed, so a wait notices
 * a lost PE or a global exit and throws instead of waiting forever. With a transport that serves its peers in
 * this PE's progress calls (UCX over tcp), every poll before the parks also progresses it
 * ({@link #progressWith}). Stateless apart from that, set at init: safe from any thread.
 */
final class WaitIdle
{
    private static final int FAILURE_CHECK_MASK = 255;

    private final Bootstrap bootstrap;
    private final String prefix;
    private int spins;
    private int spinsAndYields;
    private boolean parks;
    private volatile Runnable progress;
    private volatile Runnable parking;

    WaitIdle(final Bootstrap bootstrap, final String prefix, final int spins, final int yields)
    {
        this.bootstrap = bootstrap;
        this.prefix = prefix;
        tune(spins, yields);
    }

    /**
     * Sets the spin and yield counts: at construction, and once more at init for a job whose remote transports are
     * all served by its waiters' progress calls (that of a one-node job, since nothing else needs the core), before
     * any wait of the program.
     */
    void tune(final int spins, final int yields)
    {
        this.spins = spins;
        this.spinsAndYields = (int)Math.min(Integer.MAX_VALUE, (long)spins + Math.max(0, yields));
        this.parks = yields >= 0;
    }

    /**
     * Makes every poll before the parks also run {@code progress} (a transport whose peers' operations land in
     * this PE's progress calls, {@link io.jshmem.transport.TransportSet#waitProgress()}) and the first park of each
     * wait run {@code parks} ({@link io.jshmem.transport.TransportSet#waitParks()}: the transport's own thread takes
     * over). Either may be null. Set once, at init, before any wait.
     */
    void progressWith(final Runnable progress, final Runnable parks)
    {
        this.parking = parks;
        this.progress = progress;
    }

    int idle(final int count)
    {
        final Runnable p = progress;
        if (p != null && (count < spinsAndYields || !parks))
        {
            p.run();
        }
        if (count < spins)
        {
            Thread.onSpinWait();
            if ((count & FAILURE_CHECK_MASK) == FAILURE_CHECK_MASK)
            {
                checkFailure();
            }
            return count + 1;
        }
        checkFailure();
        if (count < spinsAndYields || !parks)
        {
            Thread.yield();
            return count == Integer.MAX_VALUE ? count : count + 1;
        }
        final int parked = count - spinsAndYields;
        if (parked == 0 && parking != null)
        {
            parking.run(); // this wait stops progressing: the transport's thread takes over now
        }
        LockSupport.parkNanos(parked < 100 ? 10_000L : parked < 1000 ? 50_000L : 200_000L);
        return count == Integer.MAX_VALUE ? count : count + 1;
    }

    void checkFailure()
    {
        final JobFailedException failure = bootstrap.failure();
        if (failure != null)
        {
            if (bootstrap.exitPending())
            {
                // a global exit ends this process: the program must not run on past this wait
                bootstrap.awaitExit(30_000_000_000L);
            }
            throw new JobFailedException(prefix + "wait abandoned: " + failure.getMessage(), failure.lostPe(), failure);
        }
    }
}
