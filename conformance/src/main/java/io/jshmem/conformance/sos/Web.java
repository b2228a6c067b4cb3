package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.ContextOption;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricLongs;
import io.jshmem.ThreadLevel;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Four threads per PE, each driving a channel around the ring with stride (t mod (n − 1)) + 1 through
 * 20 contexts (10 created SERIALIZED and used under a mutex, 10 shared freely), picking a context at
 * random for every operation. Each step: tell the previous PE it may send (p of 1 into its can_send),
 * wait for our own can_send, send our value into the next PE's rec_val, fence that context, set the next
 * PE's received flag, wait for ours, and pass the received value on. After n steps every value has
 * travelled round the ring and each thread holds its own starting value again.
 */
public final class Web implements Program
{
    private static final int THREADS = 4;
    private static final int CONTEXTS = 20;
    private static final int UNSAFE = 10;
    /** Words per channel: received, can_send, rec_val. */
    private static final int W = 3;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/web.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_init_thread", "shmem_ctx_create", "shmem_ctx_destroy", "shmem_p", "shmem_fence", "shmem_quiet",
            "shmem_wait_until");
    }

    @Override
    public ThreadLevel threadLevel()
    {
        return ThreadLevel.MULTIPLE;
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check) throws Exception
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricLongs ch = shmem.allocateLongs((long)THREADS * W);
        final Random rnd = new Random(1 + me);
        final long[] vals = new long[THREADS];
        final long[] sendVal = new long[THREADS];
        final long[] seeds = new long[THREADS];
        for (int i = 0; i < THREADS; i++)
        {
            vals[i] = sendVal[i] = rnd.nextInt();
            seeds[i] = 1 + rnd.nextInt() + i;
        }
        final List<ShmemContext> ctx = new ArrayList<>();
        final List<ReentrantLock> locks = new ArrayList<>();
        try
        {
            for (int i = 0; i < CONTEXTS; i++)
            {
                ctx.add(i < UNSAFE ? shmem.createContext(ContextOption.SERIALIZED) : shmem.createContext());
                locks.add(new ReentrantLock());
            }
            shmem.barrierAll();
            Threads.run(check, "web", THREADS, t ->
            {
                final int stride = t % (n - 1) + 1;
                final int next = (me + stride) % n;
                final int prev = (me + n - stride) % n;
                final Random r = new Random(seeds[t]);
                final long received = (long)t * W;
                final long canSend = received + 1;
                final long recVal = received + 2;
                for (int step = 0; step < n; step++)
                {
                    int c = r.nextInt(CONTEXTS);
                    lock(locks, c);
                    try
                    {
                        ctx.get(c).p(ch, canSend, 1L, prev);
                    }
                    finally
                    {
                        unlock(locks, c);
                    }
                    ch.waitUntil(canSend, Cmp.NE, 0);
                    ch.setLocal(canSend, 0);
                    c = r.nextInt(CONTEXTS);
                    lock(locks, c);
                    try
                    {
                        ctx.get(c).p(ch, recVal, sendVal[t], next);
                        ctx.get(c).fence();
                        ctx.get(c).p(ch, received, 1L, next);
                    }
                    finally
                    {
                        unlock(locks, c);
                    }
                    ch.waitUntil(received, Cmp.NE, 0);
                    ch.setLocal(received, 0);
                    sendVal[t] = ch.getLocal(recVal);
                }
            });
            for (final ShmemContext c : ctx)
            {
                c.quiet();
            }
        }
        finally
        {
            for (final ShmemContext c : ctx)
            {
                c.close();
            }
        }
        for (int t = 0; t < THREADS; t++)
        {
            check.eq("shmem_ctx_p", "longs channel " + t, t, vals[t], ch.getLocal((long)t * W + 2));
        }
        shmem.barrierAll();
        shmem.free(ch);
    }

    private static void lock(final List<ReentrantLock> locks, final int c)
    {
        if (c < UNSAFE)
        {
            locks.get(c).lock();
        }
    }

    private static void unlock(final List<ReentrantLock> locks, final int c)
    {
        if (c < UNSAFE)
        {
            locks.get(c).unlock();
        }
    }
}
