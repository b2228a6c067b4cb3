package io.jshmem;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/** A context that records the internal operation each public call became (API-level tests). */
final class RecordingContext extends ShmemContext
{
    final List<String> calls = new ArrayList<>();

    @Override
    protected void rmaPut(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset, final int count,
        final int pe, final boolean nbi)
    {
        calls.add("rmaPut " + destIndex + " " + count);
    }

    @Override
    protected void rmaGet(final Object dest, final int destOffset, final SymmetricArray<?> src, final long srcIndex, final int count,
        final int pe, final boolean nbi)
    {
        calls.add("rmaGet " + srcIndex + " " + count);
    }

    @Override
    protected void rmaPutSegment(final SymmetricArray<?> dest, final long destByteOffset, final MemorySegment src, final int pe,
        final boolean nbi)
    {
        calls.add("rmaPutSegment " + destByteOffset + " " + src.byteSize());
    }

    @Override
    protected void rmaGetSegment(final MemorySegment dest, final SymmetricArray<?> src, final long srcByteOffset, final int pe,
        final boolean nbi)
    {
        calls.add("rmaGetSegment " + srcByteOffset + " " + dest.byteSize());
    }

    @Override
    protected void rmaPutStrided(final SymmetricArray<?> dest, final long destIndex, final long dst, final Object src,
        final int srcOffset, final long sst, final long bsize, final long nblocks, final int pe)
    {
        calls.add("rmaPutStrided " + nblocks);
    }

    @Override
    protected void rmaGetStrided(final Object dest, final int destOffset, final long dst, final SymmetricArray<?> src,
        final long srcIndex, final long sst, final long bsize, final long nblocks, final int pe)
    {
        calls.add("rmaGetStrided " + nblocks);
    }

    @Override
    protected void rmaP(final SymmetricArray<?> dest, final long index, final long bits, final int pe)
    {
        calls.add("rmaP");
    }

    @Override
    protected long rmaG(final SymmetricArray<?> src, final long index, final int pe)
    {
        calls.add("rmaG");
        return 0;
    }

    @Override
    protected void rmaPutSignal(final SymmetricArray<?> dest, final long destIndex, final Object src, final int srcOffset,
        final int count, final SymmetricLongs sig, final long sigIndex, final long signal, final SignalOp op, final int pe,
        final boolean nbi)
    {
        calls.add("rmaPutSignal");
    }

    @Override
    protected long amo(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond,
        final int pe)
    {
        calls.add("amo " + op + " " + value);
        return 0;
    }

    @Override
    protected void amoNbi(final AtomicOp op, final SymmetricArray<?> dest, final long index, final long value, final long cond,
        final int pe, final Object fetch, final int fetchIndex)
    {
        calls.add("amoNbi " + op + " " + value + " " + fetch.getClass().getSimpleName() + "[" + fetchIndex + "]");
    }

    @Override
    public Team team()
    {
        return Team.INVALID;
    }

    @Override
    public void close()
    {
    }

    @Override
    public void fence()
    {
    }

    @Override
    public void quiet()
    {
    }

    @Override
    public void peQuiet(final int... pes)
    {
    }
}
