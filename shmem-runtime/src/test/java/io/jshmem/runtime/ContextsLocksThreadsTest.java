package io.jshmem.runtime;

import io.jshmem.Cmp;
import io.jshmem.ContextOption;
import io.jshmem.ReduceOp;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricLock;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Contexts (team-relative PEs, options, close), distributed locks, and ThreadLevel.MULTIPLE. */
class ContextsLocksThreadsTest
{
    @Test
    void teamContextsUseTeamPeNumbers() throws Exception
    {
        ThreadPes.run(4, Map.of(), shmem -> {
            final int me = shmem.myPe();
            final SymmetricLongs box = shmem.allocateLongs(4);
            final Team odd = shmem.teamWorld().splitStrided(3, -2, 2); // WORLD 3, 1
            if (odd.isValid())
            {
                try (ShmemContext ctx = odd.createContext(ContextOption.SERIALIZED, ContextOption.NOSTORE))
                {
                    assertSame(odd, ctx.team());
                    ctx.p(box, 0, 100L + me, 1 - odd.myPe()); // team pe 0 is WORLD 3, team pe 1 is WORLD 1
                    ctx.quiet();
                    final IndexOutOfBoundsException ex = assertThrows(IndexOutOfBoundsException.class, () -> ctx.p(box, 0, 1L, 2));
                    assertTrue(ex.getMessage().contains("pe=2") && ex.getMessage().contains("[pe " + me + "/4]"), ex.getMessage());
                }
            }
            shmem.barrierAll();
            if (me == 1 || me == 3)
            {
                assertEquals(100L + (4 - me), box.getLocal(0));
            }
            // contexts on WORLD, many of them
            final List<ShmemContext> ctxs = new ArrayList<>();
            for (int i = 0; i < 100; i++)
            {
                ctxs.add(shmem.createContext());
            }
            for (int i = 0; i < ctxs.size(); i++)
            {
                ctxs.get(i).atomicAdd(box, 1, 1L, (me + i) % 4);
                ctxs.get(i).fence();
            }
            for (final ShmemContext c : ctxs)
            {
                c.close(); // implies quiet
                c.close(); // idempotent
            }
            assertThrows(IllegalStateException.class, () -> ctxs.get(0).p(box, 0, 1L, 0));
            shmem.barrierAll();
            assertEquals(100L, box.getLocal(1));
            assertThrows(IllegalStateException.class, ctxs.get(0)::team); // a destroyed context has no team
            // a private context refuses other threads
            final ShmemContext mine = shmem.createContext(ContextOption.PRIVATE);
            final AtomicReference<Throwable> other = new AtomicReference<>();
            final Thread t = new Thread(() -> {
                try
                {
                    mine.p(box, 2, 1L, 0);
                }
                catch (final Throwable ex)
                {
                    other.set(ex);
                }
            });
            t.start();
            t.join();
            assertTrue(other.get() instanceof IllegalStateException, String.valueOf(other.get()));
            mine.close();
            odd.close(); // destroys the team's contexts too
            shmem.free(box);
        });
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 2, 4, 5})
    void lockGivesMutualExclusion(final int n) throws Exception
    {
        ThreadPes.run(n, Map.of(), shmem -> {
            final SymmetricLock lock = shmem.allocateLock();
            final SymmetricLongs counter = shmem.allocateLongs(1);
            final int rounds = 40;
            for (int i = 0; i < rounds; i++)
            {
                lock.set();
                // a non-atomic read-modify-write on PE 0, correct only under mutual exclusion
                final long v = shmem.g(counter, 0, 0);
                shmem.p(counter, 0, v + 1, 0);
                lock.clear(); // quiet first: the next holder sees the update
            }
            shmem.barrierAll();
            assertEquals((long)n * rounds, shmem.g(counter, 0, 0));
            // misuse is detected, not a deadlock
            lock.set();
            assertThrows(IllegalStateException.class, lock::set);
            assertThrows(IllegalStateException.class, lock::test);
            lock.clear();
            assertThrows(IllegalStateException.class, lock::clear);
            shmem.barrierAll();
            // test: exactly one PE gets a free lock
            final SymmetricLongs winners = shmem.allocateLongs(1);
            final boolean won = lock.test();
            if (won)
            {
                shmem.atomicAdd(winners, 0, 1L, 0);
            }
            shmem.barrierAll();
            assertEquals(1L, shmem.g(winners, 0, 0));
            if (won)
            {
                lock.clear();
            }
            shmem.barrierAll();
            shmem.free(winners);
            shmem.free(counter);
            shmem.free(lock);
        });
    }

    @Test
    void threadsOfOnePeShareALockAndRunCollectivesOnTheirOwnTeams() throws Exception
    {
        ThreadPes.run(3, Map.of(), shmem -> {
            final int threads = 3;
            final SymmetricLock lock = shmem.allocateLock();
            final SymmetricLongs counter = shmem.allocateLongs(1);
            final SymmetricLongs data = shmem.allocateLongs(2 * threads);
            final Team[] teams = new Team[threads];
            for (int t = 0; t < threads; t++)
            {
                teams[t] = shmem.teamWorld().splitStrided(0, 1, shmem.nPes()); // one WORLD copy per thread
            }
            final List<Thread> workers = new ArrayList<>();
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int t = 0; t < threads; t++)
            {
                final int tid = t;
                final Thread w = new Thread(() -> {
                    try
                    {
                        for (int i = 0; i < 30; i++)
                        {
                            lock.set();
                            shmem.p(counter, 0, shmem.g(counter, 0, 0) + 1, 0);
                            lock.clear();
                            data.setLocal(tid, shmem.myPe() + i);
                            teams[tid].reduce(ReduceOp.SUM, data.slice(threads + tid, 1), data.slice(tid, 1), 1);
                            assertEquals(3L * i + 3, data.getLocal(threads + tid));
                            teams[tid].sync();
                        }
                    }
                    catch (final Throwable ex)
                    {
                        failure.compareAndSet(null, ex);
                    }
                });
                workers.add(w);
                w.start();
            }
            for (final Thread w : workers)
            {
                w.join();
            }
            if (failure.get() != null)
            {
                throw new AssertionError(failure.get());
            }
            shmem.barrierAll();
            assertEquals(3L * threads * 30, shmem.g(counter, 0, 0));
            for (final Team t : teams)
            {
                t.close();
            }
            shmem.free(data);
            shmem.free(counter);
            shmem.free(lock);
        });
    }

    @Test
    void aBlockedWaitDoesNotBlockOtherThreads() throws Exception
    {
        ThreadPes.run(2, Map.of(), shmem -> {
            final SymmetricLongs flag = shmem.allocateLongs(2);
            final int other = 1 - shmem.myPe();
            final Thread waiter = new Thread(() -> flag.waitUntil(0, Cmp.EQ, 1));
            waiter.start();
            // while this PE's waiter blocks, its main thread keeps communicating
            try (ShmemContext ctx = shmem.createContext())
            {
                ctx.atomicAdd(flag, 1, 5L, other);
                ctx.quiet();
            }
            shmem.barrierAll();
            assertEquals(5L, flag.getLocal(1));
            assertTrue(waiter.isAlive());
            shmem.barrierAll(); // both PEs looked before either releases the other's waiter
            shmem.atomicSet(flag, 0, 1L, other);
            waiter.join(10_000);
            assertFalse(waiter.isAlive());
            shmem.barrierAll();
            shmem.free(flag);
        });
    }
}
