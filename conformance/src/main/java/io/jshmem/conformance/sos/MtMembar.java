package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLock;
import io.jshmem.ThreadLevel;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * Memory-barrier behaviour of the synchronization routines, seen by two threads of one PE that hand a
 * token back and forth through the PE's own symmetric words with plain local stores. Four phases of
 * 100 rounds each, separated by a thread rendezvous and a {@code barrier_all} from thread 0:
 * <ol>
 *   <li>wait: each thread waits for the token to name it, atomically adds one to the PE's own result
 *       word, passes the token; the result is 2 × 100;</li>
 *   <li>wait + fence with a non-atomic update: as 1, but the result is a plain read-modify-write
 *       followed by {@code fence} before the token is passed, so the other thread, woken by
 *       {@code wait_until}, must see the update; the result is 2 × 100;</li>
 *   <li>fence: thread 0 increments two words and fences, thread 1 waits for the second, then adds the
 *       sum of both (which must be 2) atomically to the result and resets both; the result is 2 × 100;</li>
 *   <li>lock: thread 0 stores 1 into a word inside {@code set_lock}/{@code clear_lock} and then raises a
 *       flag; thread 1 waits for the flag and adds the word to the result; the result is 100.</li>
 * </ol>
 * Every PE checks its own results. (The original sums the error counts with a reduction at the end;
 * here each PE's {@link Check} reports its own.)
 */
public final class MtMembar implements Program
{
    private static final int T = 2;
    private static final int ITER = 100;
    private static final long RENDEZVOUS_SECONDS = 30;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/mt_membar.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_init_thread", "shmem_wait_until", "shmem_atomic_add", "shmem_fence", "shmem_set_lock",
            "shmem_clear_lock", "shmem_barrier_all");
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
        // words: 0 = dest1 (the token), 1 = dest2, 2 = result
        final SymmetricInts w = shmem.allocateInts(3);
        final SymmetricLock lock = shmem.allocateLock();
        final CyclicBarrier rendezvous = new CyclicBarrier(T);
        final Runnable phaseEnd = () ->
        {
            try
            {
                rendezvous.await(RENDEZVOUS_SECONDS, TimeUnit.SECONDS);
            }
            catch (final Exception e)
            {
                throw new IllegalStateException("thread rendezvous failed: " + e, e);
            }
        };
        Threads.run(check, "mt_membar", T, tid ->
        {
            // 1. wait
            for (int i = 0; i < ITER; i++)
            {
                w.waitUntil(0, Cmp.EQ, tid);
                shmem.atomicAdd(w, 2, 1, me);
                w.setLocal(0, (tid + 1) % T);
            }
            endPhase(shmem, tid, phaseEnd);
            if (tid == 0)
            {
                check.eq("shmem_wait_until", "int (wait phase: result)", 2, T * ITER, w.getLocal(2));
                w.setLocal(2, 0);
                w.setLocal(0, 0);
            }
            endPhase(shmem, tid, phaseEnd);

            // 2. wait + fence, non-atomic update of the result
            for (int i = 0; i < ITER; i++)
            {
                w.waitUntil(0, Cmp.EQ, tid);
                w.setLocal(2, w.getLocal(2) + 1);
                shmem.fence();
                w.setLocal(0, (tid + 1) % T);
            }
            endPhase(shmem, tid, phaseEnd);
            if (tid == 0)
            {
                check.eq("shmem_fence", "int (wait+fence phase: result)", 2, T * ITER, w.getLocal(2));
                w.setLocal(2, 0);
                w.setLocal(0, 0);
            }
            endPhase(shmem, tid, phaseEnd);

            // 3. fence
            for (int i = 0; i < ITER; i++)
            {
                if (tid == 0)
                {
                    w.setLocal(0, w.getLocal(0) + 1);
                    w.setLocal(1, w.getLocal(1) + 1);
                    shmem.fence();
                    w.waitUntil(0, Cmp.EQ, 0);
                }
                else
                {
                    w.waitUntil(1, Cmp.EQ, 1);
                    shmem.atomicAdd(w, 2, w.getLocal(0) + w.getLocal(1), me);
                    w.setLocal(1, 0);
                    w.setLocal(0, 0);
                    shmem.fence();
                }
            }
            endPhase(shmem, tid, phaseEnd);
            if (tid == 0)
            {
                check.eq("shmem_fence", "int (fence phase: result)", 2, T * ITER, w.getLocal(2));
                w.setLocal(2, 0);
                w.setLocal(0, 0);
                w.setLocal(1, 0);
            }
            endPhase(shmem, tid, phaseEnd);

            // 4. lock
            for (int i = 0; i < ITER; i++)
            {
                if (tid == 0)
                {
                    lock.set();
                    w.setLocal(0, 1);
                    lock.clear();
                    w.setLocal(1, 1);
                    w.waitUntil(1, Cmp.EQ, 0);
                }
                else
                {
                    w.waitUntil(1, Cmp.EQ, 1);
                    w.setLocal(2, w.getLocal(2) + w.getLocal(0));
                    w.setLocal(0, 0);
                    w.setLocal(1, 0);
                }
            }
            endPhase(shmem, tid, phaseEnd);
            if (tid == 0)
            {
                check.eq("shmem_clear_lock", "int (lock phase: result)", 2, ITER, w.getLocal(2));
            }
            phaseEnd.run();
        });
        shmem.barrierAll();
        shmem.free(lock);
        shmem.free(w);
    }

    /** Both threads meet, thread 0 joins the PEs' barrier, both threads meet again. */
    private static void endPhase(final Shmem shmem, final int tid, final Runnable rendezvous)
    {
        rendezvous.run();
        if (tid == 0)
        {
            shmem.barrierAll();
        }
        rendezvous.run();
    }
}
