package io.jshmem.bootstrap;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Watches the launcher a PE must not outlive ({@code JSHMEM_LAUNCHER_PID}): one daemon thread per
 * launcher pid in this process, {@code jshmem-bootstrap-launcher-watch-<pid>}, polls it every
 * {@link #POLL_MS} ms and runs the registered actions once when it has ended, then ends itself. The
 * launcher counts as ended when its pid is gone or names a process started at another instant (a
 * reused pid), or, if it was this process's parent, when this process has a new parent (it was
 * orphaned: even a dead launcher nobody reaped counts). A launcher already gone at registration runs
 * the action at once, on the watch thread.
 * <p>
 * A process that initializes again (OpenSHMEM 1.6) registers each generation's bootstrap: the newest
 * action runs first (its exit hooks are the live ones: a heap file being created, say), and a new
 * registration drops the actions of bootstraps that have closed since (the newest one ends the process
 * as well as they would).
 */
final class LauncherWatch
{
    /** Polling period: a PE ends within this (plus its exit hooks) of its launcher. */
    static final long POLL_MS = 200;
    private static final Map<Long, LauncherWatch> WATCHES = new HashMap<>();

    private final long pid;
    private final boolean wasParent;
    private final Optional<Instant> started;
    private final List<Action> actions = new CopyOnWriteArrayList<>();

    private record Action(AbstractBootstrap owner, Runnable onEnd)
    {
    }

    private LauncherWatch(final long pid)
    {
        this.pid = pid;
        this.wasParent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) == pid;
        this.started = ProcessHandle.of(pid).filter(ProcessHandle::isAlive).flatMap(h -> h.info().startInstant());
    }

    /**
     * Runs {@code onEnd} once when process {@code pid} ends (at once if it has already ended).
     *
     * @param pid   the launcher's pid (positive).
     * @param owner the bootstrap registering (its action is dropped at a later registration once it has closed).
     * @param onEnd what to do then (on the watch thread).
     */
    static void watch(final long pid, final AbstractBootstrap owner, final Runnable onEnd)
    {
        final LauncherWatch w;
        final boolean start;
        synchronized (WATCHES)
        {
            final LauncherWatch existing = WATCHES.get(pid);
            start = existing == null;
            w = start ? new LauncherWatch(pid) : existing;
            w.actions.removeIf(a -> a.owner().closed());
            w.actions.add(0, new Action(owner, onEnd));
            if (start)
            {
                WATCHES.put(pid, w);
            }
        }
        if (start)
        {
            Thread.ofPlatform().daemon().name("jshmem-bootstrap-launcher-watch-" + pid).start(w::run);
        }
    }

    /** @return true while the launcher runs. */
    boolean alive()
    {
        if (wasParent && ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) != pid)
        {
            return false;
        }
        final Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (h.isEmpty())
        {
            return false;
        }
        // a pid reused by another process after the launcher ended: its start instant differs
        return started.isEmpty() || h.get().info().startInstant().map(started.get()::equals).orElse(true);
    }

    private void run()
    {
        while (started.isPresent() && alive())
        {
            try
            {
                Thread.sleep(POLL_MS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
        synchronized (WATCHES)
        {
            WATCHES.remove(pid);
        }
        for (final Action a : actions)
        {
            try
            {
                a.onEnd().run();
            }
            catch (final RuntimeException ex)
            {
                System.err.println("jshmem: launcher watch action failed: " + ex);
            }
        }
    }
}
