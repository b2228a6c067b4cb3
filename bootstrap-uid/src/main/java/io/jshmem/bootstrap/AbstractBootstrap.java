package io.jshmem.bootstrap;

import io.jshmem.JobFailedException;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTimeoutException;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * What every bootstrap shares: identity, node map, the failure state (a volatile read for polling),
 * once-only failure listeners, exit hooks and the exit policy.
 * <p>
 * Exit policy: a global exit runs the {@link ExitAction} with its status at once (after flushing
 * stdout/stderr and running the exit hooks). Any other failure (a lost PE, a lost root, a timeout)
 * makes every bootstrap call in progress or later throw; if the application has not called
 * {@link #close()} within {@link BootstrapSettings#failureExitGraceNs()} (250 ms), the process is ended
 * with status 1, so no PE outlives its job or its launcher.
 */
abstract class AbstractBootstrap implements Bootstrap
{
    protected final int rank;
    protected final int size;
    protected final BootstrapSettings settings;
    private final List<Consumer<JobFailedException>> listeners = new CopyOnWriteArrayList<>();
    private final List<Runnable> exitHooks = new CopyOnWriteArrayList<>();
    private final AtomicBoolean exiting = new AtomicBoolean();
    private final CountDownLatch exitDone = new CountDownLatch(1);
    private final CountDownLatch closedLatch = new CountDownLatch(1);
    private final List<Thread> exitThreads = new CopyOnWriteArrayList<>();
    private volatile JobFailedException failure;
    private NodeMap nodeMap;
    private String[] hosts;

    AbstractBootstrap(final int rank, final int size, final BootstrapSettings settings)
    {
        this.rank = rank;
        this.size = size;
        this.settings = settings;
    }

    protected void nodes(final String[] hostIds)
    {
        hosts = hostIds.clone();
        nodeMap = NodeMap.of(hosts);
        if (settings.debug())
        {
            log("node rank " + nodeRank() + "/" + nodeSize() + " on node " + nodeMap.nodeOfRank()[rank] + " (" + hosts[rank] + ")");
            if (rank == 0)
            {
                log(nodeMap.describe() + "; rank->node " + java.util.Arrays.toString(nodeMap.nodeOfRank()));
            }
        }
    }

    final String prefix()
    {
        return ShmemException.pePrefix(rank, size);
    }

    final void log(final String line)
    {
        settings.log().accept(prefix() + "bootstrap: " + line);
    }

    final BootstrapSettings settings()
    {
        return settings;
    }

    @Override
    public int rank()
    {
        return rank;
    }

    @Override
    public int size()
    {
        return size;
    }

    @Override
    public int nodeRank()
    {
        return nodeMap.nodeRankOf()[rank];
    }

    @Override
    public int nodeSize()
    {
        return nodeMap.nodeSizes()[nodeMap.nodeOfRank()[rank]];
    }

    @Override
    public int machineSize()
    {
        final String machine = Net.machineOf(hosts[rank]);
        return (int)Arrays.stream(hosts).filter(h -> Net.machineOf(h).equals(machine)).count();
    }

    @Override
    public int largestMachineSize()
    {
        final Map<String, Integer> count = new HashMap<>();
        int most = 0;
        for (final String h : hosts)
        {
            most = Math.max(most, count.merge(Net.machineOf(h), 1, Integer::sum));
        }
        return most;
    }

    @Override
    public int[] nodeOfRank()
    {
        return nodeMap.nodeOfRank().clone();
    }

    @Override
    public String[] hostOfRank()
    {
        return hosts.clone();
    }

    @Override
    public String launcher()
    {
        return settings.launcher();
    }

    @Override
    public JobFailedException failure()
    {
        return failure;
    }

    private volatile boolean exitPending;

    @Override
    public boolean exitPending()
    {
        return exitPending;
    }

    @Override
    public void awaitExit(final long timeoutNs)
    {
        try
        {
            exitDone.await(timeoutNs, TimeUnit.NANOSECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void reportFailure(final JobFailedException ex)
    {
        fail(ex);
    }

    /** Throws the job's failure, wrapped to name the operation, if there is one. */
    final void checkFailure(final String op)
    {
        if (failure != null)
        {
            throw wrapFailure(op);
        }
    }

    final JobFailedException wrapFailure(final String op)
    {
        final JobFailedException f = failure;
        final String msg = f.getMessage() + " [" + op + " cannot complete]";
        if (f instanceof ShmemTimeoutException t)
        {
            return new ShmemTimeoutException(msg, t.missingPes());
        }
        return new JobFailedException(msg, f.lostPe(), f);
    }

    @Override
    public void onFailure(final Consumer<JobFailedException> listener)
    {
        final AtomicBoolean called = new AtomicBoolean();
        final Consumer<JobFailedException> once = ex ->
        {
            if (called.compareAndSet(false, true))
            {
                listener.accept(ex);
            }
        };
        listeners.add(once);
        final JobFailedException f = failure;
        if (f != null)
        {
            once.accept(f);
        }
    }

    @Override
    public void onExit(final Runnable hook)
    {
        exitHooks.add(hook);
    }

    /** Records the job's failure (first one wins) and tells everyone; returns false if it had failed already. */
    final boolean fail(final JobFailedException ex)
    {
        return fail(ex, false);
    }

    private boolean fail(final JobFailedException ex, final boolean exit)
    {
        synchronized (this)
        {
            if (failure != null)
            {
                return false;
            }
            failure = ex;
        }
        if (!closed() && !exit)
        {
            settings.log().accept(ex.getMessage()); // before waking the waiters, so it comes out first
        }
        onFailed(ex);
        for (final Consumer<JobFailedException> l : listeners)
        {
            try
            {
                l.accept(ex);
            }
            catch (final RuntimeException listenerFailure)
            {
                log("failure listener threw " + listenerFailure);
            }
        }
        if (!exit && size > 1 && settings.exitOnFailure() && !closed())
        {
            final Thread reaper = Thread.ofPlatform().daemon().name("jshmem-bootstrap-pe" + rank + "-reaper").unstarted(() ->
            {
                try
                {
                    if (!awaitClosed(settings.failureExitGraceNs()))
                    {
                        log("the job failed and this PE did not close within " + settings.failureExitGraceNs() / 1_000_000
                            + " ms; ending the process with status 1");
                        doExit(1);
                    }
                }
                catch (final InterruptedException ignore)
                {
                    // closing
                }
            });
            exitThreads.add(reaper);
            reaper.start();
        }
        return true;
    }

    /** A global exit arrived from another PE: fail every call, then end the process with its status. */
    final void exitRequested(final int status, final JobFailedException ex)
    {
        exitPending = true; // before the failure wakes any waiter: they must not return into the program
        fail(ex, true);
        doExit(status);
    }

    @Override
    public void globalExit(final int status)
    {
        exitPending = true;
        fail(new JobFailedException(prefix() + "this PE called global exit(" + status + ")", rank, null), true);
        announceExit(status);
        if (!doExit(status))
        {
            // Another exit (a peer's global exit, or the failure policy) is already ending this process:
            // global exit never returns, so wait for that exit to finish the process.
            try
            {
                exitDone.await(30, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        throw wrapFailure("globalExit"); // only when the exit action returns, as in tests
    }

    /**
     * Runs the exit hooks and the exit action once per process.
     *
     * @return false if another exit was already under way (nothing was run).
     */
    final boolean doExit(final int status)
    {
        if (!exiting.compareAndSet(false, true))
        {
            return false;
        }
        System.out.flush();
        System.err.flush();
        for (final Runnable hook : exitHooks)
        {
            try
            {
                hook.run();
            }
            catch (final RuntimeException ex)
            {
                log("exit hook threw " + ex);
            }
        }
        try
        {
            settings.exitAction().exit(status);
        }
        finally
        {
            exitDone.countDown();
        }
        return true;
    }

    final void joinExitThreads()
    {
        for (final Thread t : exitThreads)
        {
            if (t != Thread.currentThread())
            {
                try
                {
                    t.join(1000);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * Ends this process (status 1, exit hooks first) when the launcher process ends, from now on and
     * even after {@link #close()}: a PE started by shmemrun never outlives it, whether it is still
     * connecting to the root, waiting for the job to form, running or closed. Every bootstrap call in
     * progress or later throws first.
     *
     * @param launcherPid the launcher's pid ({@code JSHMEM_LAUNCHER_PID}).
     */
    final void exitWithLauncher(final long launcherPid)
    {
        LauncherWatch.watch(launcherPid, this, () ->
        {
            final JobFailedException ex = new JobFailedException(prefix() + "bootstrap: the launcher (pid " + launcherPid
                + ") ended; ending this PE with status 1", -1, null);
            fail(ex, true);
            settings.log().accept(ex.getMessage());
            doExit(1);
        });
    }

    /** Tells the other PEs about a global exit (nothing to tell in a singleton). */
    protected abstract void announceExit(int status);

    /** Wakes whatever waits, after the failure is recorded. */
    protected abstract void onFailed(JobFailedException ex);

    /** Records that {@link #close()} finished its work; wakes {@link #awaitClosed(long)}. */
    protected final void markClosed()
    {
        closedLatch.countDown();
    }

    /** @return true once the bootstrap is closed. */
    protected final boolean closed()
    {
        return closedLatch.getCount() == 0;
    }

    /** @return true if the bootstrap closed within the timeout. */
    protected final boolean awaitClosed(final long timeoutNs) throws InterruptedException
    {
        return closedLatch.await(timeoutNs, TimeUnit.NANOSECONDS);
    }
}
