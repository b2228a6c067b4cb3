package io.jshmem.conformance.sos.coll;

import io.jshmem.ContextOption;
import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricLongs;
import io.jshmem.ThreadLevel;
import io.jshmem.conformance.Check;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The spec's context example: under THREAD_MULTIPLE, 4 threads per PE (the example's OpenMP team)
 * each create a PRIVATE context and take tasks from every PE's task counter in turn (fetch_inc on
 * their context, starting with their own PE) until each counter passes 1024; a sum reduction of the
 * tasks done must be 1024 * nPes. The port also checks each counter ended at 1024 + the number of
 * threads that saw it exhausted.
 */
public final class ShmemCtx extends CollProgram
{
    private static final int THREADS = 4;
    private static final long NTASKS = 1024;

    public ShmemCtx()
    {
        super("tests-sos test/spec-example/shmem_ctx.c", "shmem_init_thread", "shmem_ctx_create", "shmem_atomic_fetch_inc",
            "shmem_ctx_destroy", "shmem_sum_reduce");
    }

    @Override
    public ThreadLevel threadLevel()
    {
        return ThreadLevel.MULTIPLE;
    }

    @Override
    public void run(final Shmem shmem, final Check check) throws Exception
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        check.eq("init_thread", "provided", ThreadLevel.MULTIPLE, shmem.threadLevel());
        final SymmetricLongs cntr = shmem.allocateLongs(1);
        final SymmetricLongs done = shmem.allocateLongs(1);
        final SymmetricLongs total = shmem.allocateLongs(1);
        final AtomicLong tasksDone = new AtomicLong();
        final Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++)
        {
            threads[t] = new Thread(() ->
            {
                try (ShmemContext ctx = shmem.createContext(ContextOption.PRIVATE))
                {
                    int taskPe = me;
                    long mine = 0;
                    for (int pesDone = 0; pesDone < n; pesDone++)
                    {
                        long task = ctx.atomicFetchInc(cntr, 0, taskPe);
                        while (task < NTASKS)
                        {
                            mine++;
                            task = ctx.atomicFetchInc(cntr, 0, taskPe);
                        }
                        taskPe = (taskPe + 1) % n;
                    }
                    tasksDone.addAndGet(mine);
                }
                catch (final RuntimeException e)
                {
                    check.fail("ctx_create/atomic_fetch_inc", "thread threw " + e);
                }
            }, "ShmemCtx-" + t);
            threads[t].start();
        }
        for (final Thread t : threads)
        {
            t.join(Check.AWAIT_TIMEOUT_NS / 1_000_000);
            if (t.isAlive())
            {
                check.fatal("a worker thread did not finish within the deadline");
            }
        }
        done.setLocal(0, tasksDone.get());
        shmem.barrierAll();
        shmem.teamWorld().reduce(ReduceOp.SUM, total, done, 1);
        check.eq("sum_reduce", "longs", 0, NTASKS * n, total.getLocal(0));
        shmem.barrierAll();
        check.eq("atomic_fetch_inc", "counter: 1024 tasks + one exhausted fetch per thread of every PE", NTASKS + (long)THREADS * n,
            cntr.getLocal(0));
        shmem.barrierAll();
        shmem.free(total);
        shmem.free(done);
        shmem.free(cntr);
    }
}
