package io.jshmem.runtime;

import io.jshmem.Cmp;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricLock;
import io.jshmem.SymmetricLongs;
import io.jshmem.spi.SymmetricSpace;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link SymmetricLock} as an MCS queue lock (Mellor-Crummey and Scott) over three symmetric longs:
 * <pre>
 *   word 0  TAIL    on PE 0 only: 1 + the PE at the tail of the queue, 0 when free
 *   word 1  NEXT    on each PE: 1 + its successor in the queue, 0 while it has none
 *   word 2  WAITING on each PE: 1 while it waits for its predecessor's hand-off
 * </pre>
 * set swaps itself into TAIL, links itself behind the old tail and spins on its own WAITING word
 * (no thundering herd: a release writes one PE's word); clear hands off to NEXT, or swings TAIL back to
 * 0 when nobody queued. Arrival order at the TAIL swap is service order, so acquisition is FCFS and
 * starvation-free. Threads of one PE first queue on a fair local lock (one MCS node per PE). Every
 * word is touched only with atomics of the default context.
 */
final class McsLock extends SymmetricLock
{
    private static final int TAIL = 0;
    private static final int NEXT = 1;
    private static final int WAITING = 2;
    private static final int HOME = 0;

    private final ShmemContext ctx;
    private final SymmetricSpace space;
    private final SymmetricLongs words;
    private final long self;
    private final ReentrantLock local = new ReentrantLock(true);

    McsLock(final ShmemContext ctx, final SymmetricSpace space, final SymmetricLongs words)
    {
        if (words == null || words.length() < WORDS)
        {
            throw new IllegalArgumentException(space.prefix() + "a lock needs " + WORDS + " symmetric longs, got " + words);
        }
        if (words.allocation().space() != space)
        {
            throw new IllegalArgumentException(space.prefix() + "lock words " + words + " were not allocated by this PE's job");
        }
        this.ctx = ctx;
        this.space = space;
        this.words = words.slice(0, WORDS);
        this.self = space.myPe() + 1L;
    }

    private void misuse(final String what)
    {
        throw new IllegalStateException(space.prefix() + what + " (" + words + "): locks are not reentrant, and the thread " +
            "that set a lock clears it");
    }

    private void lockLocally()
    {
        if (local.isHeldByCurrentThread())
        {
            misuse("set of a lock this thread already holds");
        }
        int idle = 0;
        try
        {
            while (!local.tryLock(0, TimeUnit.NANOSECONDS)) // honours fairness, unlike tryLock()
            {
                idle = space.idle(idle);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(space.prefix() + "interrupted while waiting for " + words, ex);
        }
    }

    @Override
    public void set()
    {
        lockLocally();
        try
        {
            ctx.atomicSet(words, NEXT, 0L, space.myPe());
            ctx.atomicSet(words, WAITING, 1L, space.myPe());
            final long pred = ctx.atomicSwap(words, TAIL, self, HOME);
            if (pred != 0)
            {
                ctx.atomicSet(words, NEXT, self, (int)(pred - 1));
                words.waitUntil(WAITING, Cmp.EQ, 0);
            }
        }
        catch (final RuntimeException ex)
        {
            local.unlock();
            throw ex;
        }
    }

    @Override
    public boolean test()
    {
        if (local.isHeldByCurrentThread())
        {
            misuse("test of a lock this thread already holds");
        }
        if (!local.tryLock())
        {
            return false; // another thread of this PE holds it or queues for it
        }
        try
        {
            ctx.atomicSet(words, NEXT, 0L, space.myPe());
            if (ctx.atomicCompareSwap(words, TAIL, 0L, self, HOME) == 0)
            {
                return true;
            }
        }
        catch (final RuntimeException ex)
        {
            local.unlock();
            throw ex;
        }
        local.unlock();
        return false;
    }

    @Override
    public void clear()
    {
        if (!local.isHeldByCurrentThread())
        {
            misuse("clear of a lock this thread does not hold");
        }
        try
        {
            ctx.quiet(); // the next holder sees this PE's updates
            long next = ctx.atomicFetch(words, NEXT, space.myPe());
            if (next == 0)
            {
                if (ctx.atomicCompareSwap(words, TAIL, self, 0L, HOME) == self)
                {
                    return; // nobody queued
                }
                words.waitUntil(NEXT, Cmp.NE, 0); // a successor swapped in and is linking itself
                next = ctx.atomicFetch(words, NEXT, space.myPe());
            }
            ctx.atomicSet(words, WAITING, 0L, (int)(next - 1));
        }
        finally
        {
            local.unlock();
        }
    }

    @Override
    public SymmetricLongs words()
    {
        return words;
    }

    @Override
    public String toString()
    {
        return "lock" + words;
    }
}
