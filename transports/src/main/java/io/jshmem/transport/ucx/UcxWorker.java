package io.jshmem.transport.ucx;

import io.jshmem.ShmemInitException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * One PE's UCP context and worker, the heap's registration, the upcalls UCX calls (endpoint errors, the
 * signal active message) and the progress thread; {@link UcxTransport} issues operations on it.
 * <p>
 * The context has features RMA, AMO32, AMO64, AM and WAKEUP and {@code ATOMIC_MODE=cpu} (one atomicity
 * domain with the p2p transport's CPU atomics); the worker runs in {@code UCS_THREAD_MODE_MULTI}: API
 * threads, waiting threads and the progress thread all progress it. The progress thread progresses while
 * there is work, keeps polling for the spin time after the last work, then arms the worker and sleeps in
 * {@code poll} on its event descriptor (100 ms at most). While the PE's own threads use the worker (an
 * operation or a progressing wait poll, {@link #callerActive}, within the hand-off time) it stays parked: a
 * second thread in the worker only contends for its lock and, on a machine with few cores, for the core a
 * caller or a peer needs (measured in docs/transports.md). A wait that parks hands over at once
 * ({@link #callerParks}).
 */
final class UcxWorker implements AutoCloseable
{
    private static final int POLLIN = 1;
    /** The longest park of the progress thread while callers use the worker (it re-checks after it). */
    private static final long MAX_STAND_ASIDE_NS = 100_000_000L;

    private final Ucp u;
    private final String prefix;
    private final long spinNs;
    private final long handoffNs;
    private final Consumer<Throwable> threadFailed;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment context;
    private final MemorySegment worker;
    private final MemorySegment memh;
    private final int efd;
    private final byte[] rkey;
    private final byte[] address;
    private final MemorySegment errorHandler;
    private final Thread progressThread;
    private volatile boolean stopping;
    /** When a caller (an API thread's operation or wait, a wait on heap words) last used the worker. */
    private volatile long callerNs;
    /** How many times callers progressed the worker ({@link #callerProgressCount()}). */
    private long callerProgressCount;

    /**
     * Creates the context and worker, registers the heap and the signal handler, starts the progress thread.
     *
     * @param u            the binding.
     * @param heap         the heap data segment to register.
     * @param prefix       the PE's message prefix.
     * @param me           the PE (thread names).
     * @param spinNs       how long the progress thread polls after its last work before it sleeps.
     * @param handoffNs    how long after a caller's last use of the worker the progress thread takes over (0: at once).
     * @param netDevices   UCX's {@code NET_DEVICES}, or null to leave UCX's own choice.
     * @param signalAm     the active-message id of signals.
     * @param onError      the endpoint error handler's target ({@link Ucp#errorHandlerType()}).
     * @param onSignal     the signal handler's target ({@link Ucp#amHandlerType()}).
     * @param threadFailed what the progress thread calls when it fails.
     */
    UcxWorker(final Ucp u, final MemorySegment heap, final String prefix, final int me, final long spinNs, final long handoffNs,
        final String netDevices, final int signalAm,
        final MethodHandle onError, final MethodHandle onSignal, final Consumer<Throwable> threadFailed)
    {
        this.u = u;
        this.prefix = prefix;
        this.spinNs = spinNs;
        this.handoffNs = handoffNs;
        this.callerNs = System.nanoTime() - handoffNs;
        this.threadFailed = threadFailed;
        MemorySegment ctx = MemorySegment.NULL;
        MemorySegment wrk = MemorySegment.NULL;
        MemorySegment mh = MemorySegment.NULL;
        try
        {
            final MemorySegment out = arena.allocate(8, 8);
            check((int)u.configRead.invokeExact(MemorySegment.NULL, MemorySegment.NULL, out), "ucp_config_read");
            final MemorySegment config = out.get(ADDRESS, 0);
            try
            {
                // one atomicity domain with the p2p transport's CPU atomics
                check((int)u.configModify.invokeExact(config, arena.allocateFrom("ATOMIC_MODE"), arena.allocateFrom("cpu")),
                    "ucp_config_modify(ATOMIC_MODE=cpu)");
                if (netDevices != null)
                {
                    check((int)u.configModify.invokeExact(config, arena.allocateFrom("NET_DEVICES"), arena.allocateFrom(netDevices)),
                        "ucp_config_modify(NET_DEVICES=" + netDevices + ")");
                }
                final MemorySegment params = arena.allocate(Ucp.PARAMS_SIZE, 8);
                params.set(JAVA_LONG, 0, Ucp.PARAM_FIELD_FEATURES);
                params.set(JAVA_LONG, Ucp.PARAMS_FEATURES,
                    Ucp.FEATURE_RMA | Ucp.FEATURE_AMO32 | Ucp.FEATURE_AMO64 | Ucp.FEATURE_WAKEUP | Ucp.FEATURE_AM);
                check((int)u.initVersion.invokeExact(Ucp.API_MAJOR, Ucp.API_MINOR, params, config, out), "ucp_init");
                ctx = out.get(ADDRESS, 0);
            }
            finally
            {
                u.configRelease.invokeExact(config);
            }
            final MemorySegment wp = arena.allocate(Ucp.WORKER_PARAMS_SIZE, 8);
            wp.set(JAVA_LONG, 0, Ucp.WORKER_PARAM_FIELD_THREAD_MODE);
            wp.set(JAVA_INT, Ucp.WORKER_PARAMS_THREAD_MODE, Ucp.THREAD_MODE_MULTI);
            check((int)u.workerCreate.invokeExact(ctx, wp, out), "ucp_worker_create");
            wrk = out.get(ADDRESS, 0);
            final MemorySegment mp = arena.allocate(Ucp.MEM_MAP_PARAMS_SIZE, 8);
            mp.set(JAVA_LONG, 0, Ucp.MEM_MAP_PARAM_FIELD_ADDRESS | Ucp.MEM_MAP_PARAM_FIELD_LENGTH);
            mp.set(ADDRESS, Ucp.MEM_MAP_PARAMS_ADDRESS, heap);
            mp.set(JAVA_LONG, Ucp.MEM_MAP_PARAMS_LENGTH, heap.byteSize());
            check((int)u.memMap.invokeExact(ctx, mp, out), "ucp_mem_map of the " + heap.byteSize() + "-byte heap");
            mh = out.get(ADDRESS, 0);
            final MemorySegment len = arena.allocate(8, 8);
            check((int)u.rkeyPack.invokeExact(ctx, mh, out, len), "ucp_rkey_pack");
            rkey = copyOut(out.get(ADDRESS, 0), len.get(JAVA_LONG, 0));
            u.rkeyBufferRelease.invokeExact(out.get(ADDRESS, 0));
            check((int)u.workerGetAddress.invokeExact(wrk, out, len), "ucp_worker_get_address");
            address = copyOut(out.get(ADDRESS, 0), len.get(JAVA_LONG, 0));
            u.workerReleaseAddress.invokeExact(wrk, out.get(ADDRESS, 0));
            check((int)u.workerGetEfd.invokeExact(wrk, out), "ucp_worker_get_efd");
            efd = out.get(JAVA_INT, 0);
            errorHandler = Ucp.errorHandler(onError, arena);
            final MemorySegment hp = arena.allocate(Ucp.AM_HANDLER_PARAM_SIZE, 8);
            hp.set(JAVA_LONG, 0, Ucp.AM_HANDLER_PARAM_FIELD_ID | Ucp.AM_HANDLER_PARAM_FIELD_CB | Ucp.AM_HANDLER_PARAM_FIELD_ARG);
            hp.set(JAVA_INT, Ucp.AM_HANDLER_PARAM_ID, signalAm);
            hp.set(ADDRESS, Ucp.AM_HANDLER_PARAM_CB, Ucp.amHandler(onSignal, arena));
            hp.set(ADDRESS, Ucp.AM_HANDLER_PARAM_ARG, MemorySegment.NULL);
            check((int)u.workerSetAmRecvHandler.invokeExact(wrk, hp), "ucp_worker_set_am_recv_handler");
        }
        catch (final ShmemInitException ex)
        {
            release(ctx, wrk, mh);
            throw ex;
        }
        catch (final Throwable t)
        {
            release(ctx, wrk, mh);
            throw new ShmemInitException(prefix + "ucx: cannot initialise UCX " + u.version() + ": " + t, t);
        }
        this.context = ctx;
        this.worker = wrk;
        this.memh = mh;
        this.progressThread = Thread.ofPlatform().daemon().name("jshmem-ucx-progress-pe" + me).start(this::progressLoop);
    }

    /** @return the arena every native allocation of this PE's UCX transport comes from (closed by {@link #close()}). */
    Arena arena()
    {
        return arena;
    }

    /** @return the {@code ucp_worker_h}. */
    MemorySegment worker()
    {
        return worker;
    }

    /** @return the packed rkey of the heap. */
    byte[] rkey()
    {
        return rkey;
    }

    /** @return the worker's address. */
    byte[] address()
    {
        return address;
    }

    /** @return the endpoint error handler's upcall stub. */
    MemorySegment errorHandler()
    {
        return errorHandler;
    }

    /** A caller uses the worker (an operation): the progress thread stands aside for the hand-off time. */
    void callerActive()
    {
        callerNs = System.nanoTime();
    }

    /** Progresses the worker once from a caller that polls (the progress thread stands aside meanwhile). */
    void callerProgress()
    {
        callerNs = System.nanoTime();
        callerProgressCount++;
        progressOnce();
    }

    /**
     * @return how many times callers progressed the worker (a plain counter: a waiting thread compares it before and after
     *         its wait strategy's step to learn whether that step progressed the worker, so that each poll progresses it once;
     *         a lost update from another thread only makes a poll progress twice, as before).
     */
    long callerProgressCount()
    {
        return callerProgressCount;
    }

    /** A caller that polled stops (its wait parks): the progress thread takes over now. */
    void callerParks()
    {
        callerNs = System.nanoTime() - handoffNs;
        LockSupport.unpark(progressThread);
    }

    /** @return what {@code ucp_worker_progress} returned (non-zero: there was work). */
    int progressOnce()
    {
        try
        {
            return (int)u.workerProgress.invokeExact(worker);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException(prefix + "ucx: ucp_worker_progress: " + t, t);
        }
    }

    private void progressLoop()
    {
        final MemorySegment pfd = arena.allocate(8, 8);
        pfd.set(JAVA_INT, 0, efd);
        pfd.set(JAVA_SHORT, 4, (short)POLLIN);
        long lastWork = System.nanoTime();
        u.timerSlack(1_000L); // a short hand-off (SHMEM_UCX_HANDOFF) must not grow by the default 50 us slack
        try
        {
            while (!stopping)
            {
                final long aside = handoffNs - (System.nanoTime() - callerNs);
                if (aside > 0)
                {
                    // this PE's threads use the worker and progress it: a second poller would only contend for its
                    // lock and for the core a caller or the peer needs
                    LockSupport.parkNanos(Math.min(aside, MAX_STAND_ASIDE_NS));
                    continue;
                }
                if (progressOnce() != 0)
                {
                    lastWork = System.nanoTime();
                    continue;
                }
                if (System.nanoTime() - lastWork < spinNs)
                {
                    Thread.onSpinWait();
                    continue;
                }
                final int armed = (int)u.workerArm.invokeExact(worker);
                if (armed == Ucp.UCS_ERR_BUSY)
                {
                    continue; // events arrived meanwhile
                }
                if (armed != Ucp.UCS_OK)
                {
                    throw new IllegalStateException("ucp_worker_arm: " + u.status(armed));
                }
                pfd.set(JAVA_SHORT, 6, (short)0);
                final int ignored = (int)u.poll.invokeExact(pfd, 1L, 100);
                lastWork = System.nanoTime();
            }
        }
        catch (final Throwable t)
        {
            if (!stopping)
            {
                threadFailed.accept(t);
            }
        }
    }

    /** Stops the progress thread (unparks it, or wakes it with {@code ucp_worker_signal}) and waits for it, 5 s at most. */
    void stopProgressThread()
    {
        stopping = true;
        LockSupport.unpark(progressThread); // standing aside
        try
        {
            final int ignored = (int)u.workerSignal.invokeExact(worker);
        }
        catch (final Throwable ignore)
        {
            // teardown
        }
        try
        {
            progressThread.join(5_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Unregisters the heap, destroys the worker and the context, frees the arena. After the endpoints are closed. */
    @Override
    public void close()
    {
        stopProgressThread();
        release(context, worker, memh);
    }

    private void release(final MemorySegment ctx, final MemorySegment wrk, final MemorySegment mh)
    {
        try
        {
            if (!mh.equals(MemorySegment.NULL))
            {
                final int ignored = (int)u.memUnmap.invokeExact(ctx, mh);
            }
            if (!wrk.equals(MemorySegment.NULL))
            {
                u.workerDestroy.invokeExact(wrk);
            }
            if (!ctx.equals(MemorySegment.NULL))
            {
                u.cleanup.invokeExact(ctx);
            }
        }
        catch (final Throwable ignore)
        {
            // already failing or tearing down
        }
        arena.close();
    }

    private void check(final int status, final String what)
    {
        if (status != Ucp.UCS_OK)
        {
            throw new ShmemInitException(prefix + "ucx: " + what + " failed: " + u.status(status));
        }
    }

    private static byte[] copyOut(final MemorySegment p, final long len)
    {
        return p.reinterpret(len).toArray(ValueLayout.JAVA_BYTE);
    }
}
