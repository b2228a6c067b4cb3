package io.jshmem;

import io.jshmem.spi.Allocation;
import io.jshmem.spi.SymmetricSpace;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A PE's heap for API-level tests: a plain off-heap segment, no job behind it. */
final class TestSpace implements SymmetricSpace
{
    private final MemorySegment heap = Arena.ofAuto().allocate(4096, 64);

    @Override
    public int myPe()
    {
        return 1;
    }

    @Override
    public int nPes()
    {
        return 4;
    }

    @Override
    public MemorySegment localHeap()
    {
        return heap;
    }

    @Override
    public int idle(final int idleCount)
    {
        throw new JobFailedException("test space never waits", -1, null);
    }

    /** @return 16 longs at heap offset 1024 (with neighbours on both sides in the heap). */
    SymmetricLongs longs16()
    {
        return new SymmetricLongs(new Allocation(this, 1024, 128, 7), 1024, 16);
    }
}
