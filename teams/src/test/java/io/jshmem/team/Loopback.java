package io.jshmem.team;

import io.jshmem.AtomicOp;
import io.jshmem.JobFailedException;
import io.jshmem.ShmemContext;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;
import io.jshmem.Team;
import io.jshmem.spi.Allocation;
import io.jshmem.spi.SymmetricSpace;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * PEs in one JVM for tests of the code that runs over a {@link Channel}: each PE's symmetric heap is a
 * plain off-heap segment, a put is a copy into the target PE's heap at the same offset, a signal a
 * release store of the word there (the receiver's {@code test} is an acquire load, so the data copied
 * before it is visible), {@code g} an acquire load. No job, no transport: one thread per member.
 * Operations the team code does not use throw.
 */
final class Loopback
{
    final Pe[] pes;
    /** PEs whose heaps cannot be read (a hung PE of a transport that needs the target's progress): gets never complete. */
    final boolean[] hung;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    Loopback(final int nPes, final long heapBytes)
    {
        final Arena arena = Arena.ofAuto();
        pes = new Pe[nPes];
        hung = new boolean[nPes];
        for (int p = 0; p < nPes; p++)
        {
            pes[p] = new Pe(p, arena.allocate(heapBytes, 64));
        }
    }

    /** One PE: its heap (one allocation over all of it) and its context. */
    final class Pe implements SymmetricSpace
    {
        final int me;
        final MemorySegment heap;
        final Allocation allocation;
        final Context ctx = new Context(this);

        Pe(final int me, final MemorySegment heap)
        {
            this.me = me;
            this.heap = heap;
            this.allocation = new Allocation(this, 0, heap.byteSize(), 1);
        }

        /** @return this PE's handle on heap bytes [offset, offset + bytes) (the same object on every PE). */
        SymmetricMemory memory(final long offset, final long bytes)
        {
            return new SymmetricMemory(allocation, offset, bytes);
        }

        @Override
        public int myPe()
        {
            return me;
        }

        @Override
        public int nPes()
        {
            return pes.length;
        }

        @Override
        public MemorySegment localHeap()
        {
            return heap;
        }

        /** Yields (members outnumber cores); fails the wait once another member failed, as a lost PE does. */
        @Override
        public int idle(final int idleCount)
        {
            if (failure.get() != null)
            {
                throw new JobFailedException("another loopback PE failed", -1, failure.get());
            }
            Thread.yield();
            return idleCount + 1;
        }
    }

    /** Runs {@code body} for every PE of WORLD listed, one thread each; rethrows the first failure. */
    void run(final int[] worldPes, final Consumer<Pe> body) throws InterruptedException
    {
        final Thread[] threads = new Thread[worldPes.length];
        for (int i = 0; i < worldPes.length; i++)
        {
            final Pe pe = pes[worldPes[i]];
            threads[i] = Thread.ofPlatform().name("loopback-pe-" + pe.me).unstarted(() ->
            {
                try
                {
                    body.accept(pe);
                }
                catch (final Throwable t)
                {
                    failure.compareAndSet(null, t);
                }
            });
            threads[i].start();
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (final Thread t : threads)
        {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive())
            {
                failure.compareAndSet(null, new AssertionError(t.getName() + " still running after 60 s (deadlock?)"));
            }
        }
        final Throwable f = failure.get();
        if (f instanceof final Error e)
        {
            throw e;
        }
        if (f instanceof final RuntimeException e)
        {
            throw e;
        }
        if (f != null)
        {
            throw new AssertionError(f);
        }
    }

    /** The PE's context: RMA into the other PEs' heaps by plain copies, signals by release stores. */
    final class Context extends ShmemContext
    {
        private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

        private final Pe pe;

        Context(final Pe pe)
        {
            this.pe = pe;
        }

        private MemorySegment heapOf(final int target)
        {
            return pes[target].heap;
        }

        @Override
        protected void rmaPut(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset, final int count,
            final int target, final boolean nbi)
        {
            final ValueLayout layout = dest.elementLayout();
            MemorySegment.copy(src, srcOffset, heapOf(target), layout, dest.offset() + destIndex * layout.byteSize(), count);
        }

        @Override
        protected void rmaPutSegment(final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src, final int target,
            final boolean nbi)
        {
            MemorySegment.copy(src, 0, heapOf(target), dest.offset() + destByteOffset, src.byteSize());
        }

        @Override
        protected long rmaG(final SymmetricArray<?> src, final long index, final int target)
        {
            while (hung[target])
            {
                pe.idle(0); // a blocking read of a hung PE: waits until the job fails
            }
            return (long)LONG.getAcquire(heapOf(target), src.offset() + 8 * index);
        }

        @Override
        protected void rmaPutSignal(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset,
            final int count, final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int target,
            final boolean nbi)
        {
            if (count > 0)
            {
                rmaPut(dest, destIndex, src, srcOffset, count, target, nbi);
            }
            final long at = sig.offset() + 8 * sigIndex;
            if (op == SignalOp.SET)
            {
                LONG.setRelease(heapOf(target), at, signal);
            }
            else
            {
                LONG.getAndAddRelease(heapOf(target), at, signal);
            }
        }

        @Override
        public void fence()
        {
            VarHandle.fullFence();
        }

        @Override
        public void quiet()
        {
            VarHandle.fullFence();
        }

        @Override
        public void peQuiet(final int... targets)
        {
            VarHandle.fullFence();
        }

        @Override
        protected void rmaGet(final Object dest, final int destOffset, final SymmetricArray<?> src, final long srcIndex, final int count,
            final int target, final boolean nbi)
        {
            throw unused();
        }

        /** A copy out of the target's heap; a non-blocking get from a {@link #hung} PE never lands, a blocking one never returns. */
        @Override
        protected void rmaGetSegment(final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset, final int target,
            final boolean nbi)
        {
            if (hung[target])
            {
                if (nbi)
                {
                    return;
                }
                while (true)
                {
                    pe.idle(0); // as a get from a hung PE: waits until the job fails
                }
            }
            VarHandle.fullFence();
            MemorySegment.copy(heapOf(target), src.offset() + srcByteOffset, dest, 0, dest.byteSize());
        }

        @Override
        protected void rmaPutStrided(final SymmetricArray<?> dest, final long destIndex, final long dst, final Object src,
            final int srcOffset, final long sst, final long bsize, final long nblocks, final int target)
        {
            throw unused();
        }

        @Override
        protected void rmaGetStrided(final Object dest, final int destOffset, final long dst, final SymmetricArray<?> src,
            final long srcIndex, final long sst, final long bsize, final long nblocks, final int target)
        {
            throw unused();
        }

        @Override
        protected void rmaP(final SymmetricArray<?> dest, final long index, final long bits, final int target)
        {
            throw unused();
        }

        @Override
        protected long amo(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond,
            final int target)
        {
            throw unused();
        }

        @Override
        protected void amoNbi(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond,
            final int target, final Object fetch, final int fetchIndex)
        {
            throw unused();
        }

        @Override
        public Team team()
        {
            throw unused();
        }

        @Override
        public void close()
        {
        }

        private UnsupportedOperationException unused()
        {
            return new UnsupportedOperationException("not used by the team code under test (loopback pe " + pe.me + ")");
        }
    }
}
