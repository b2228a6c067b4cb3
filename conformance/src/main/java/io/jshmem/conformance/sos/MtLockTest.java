package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLock;
import io.jshmem.SymmetricLongs;
import io.jshmem.ThreadLevel;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.ArrayList;
import java.util.List;

/**
 * One lock per PE guarding that PE's counter; four threads per PE, four rounds: for every PE i, take
 * lock i (blocking set on even rounds of even PEs, polling test otherwise), read PE i's counter with
 * g, write it back plus one with p, clear the lock. Every counter ends at n × 4 × 4, so no increment was
 * lost: the lock excludes threads of the same PE and of other PEs, and clear completes the p. (The
 * original wraps the C lock in a per-thread helper, {@code mt_lock.c}; jshmem's locks are thread-aware
 * under MULTIPLE.)
 */
public final class MtLockTest implements Program
{
    private static final int T = 4;
    private static final int N = 4;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/mt_lock_test.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_init_thread", "shmem_set_lock", "shmem_test_lock", "shmem_clear_lock", "shmem_g", "shmem_p", "shmem_calloc");
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
        final var words = shmem.calloc((long)n * SymmetricLock.WORDS, 8);
        final List<SymmetricLock> locks = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            locks.add(shmem.lock(words.asLongs().slice((long)i * SymmetricLock.WORDS, SymmetricLock.WORDS)));
        }
        final SymmetricLongs dest = shmem.allocateLongs(1);
        Threads.run(check, "mt_lock_test", T, tid ->
        {
            for (int j = 0; j < N; j++)
            {
                for (int i = 0; i < n; i++)
                {
                    final SymmetricLock lock = locks.get(i);
                    if ((me + j) % 2 == 0)
                    {
                        lock.set();
                    }
                    else
                    {
                        final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
                        while (!lock.test())
                        {
                            if (System.nanoTime() - deadline > 0)
                            {
                                throw new IllegalStateException("test_lock on lock " + i + " never succeeded");
                            }
                            Thread.onSpinWait();
                        }
                    }
                    final long d = shmem.g(dest, 0, i);
                    shmem.p(dest, 0, d + 1, i);
                    lock.clear();
                }
            }
        });
        shmem.barrierAll();
        check.eq("shmem_set_lock/shmem_test_lock", "longs counter", 0, (long)n * T * N, dest.getLocal(0));
        shmem.barrierAll();
        shmem.free(dest);
        shmem.free(words);
    }
}
