package io.jshmem.examples.isx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The counting sort's histogram: one int per key of a PE's range, off the Java heap, zeroed before each sort by the C
 * library's {@code memset} (through {@link Linker}). ISx zeroes its histogram with memset every iteration; at
 * 2^28 / PEs keys that is hundreds of MiB, and glibc's memset (non-temporal stores for large sizes) measured 2-3x
 * faster than {@link java.util.Arrays#fill} or {@link MemorySegment#fill} here (512 MiB: 24-44 ms against 60-107
 * ms). Without native access (no {@code --enable-native-access}), or where no memset is found, it falls back to
 * {@link MemorySegment#fill}. One thread; {@link #close()} frees it.
 */
final class Histogram implements AutoCloseable
{
    private static final MethodHandle MEMSET = memset();

    private final Arena arena = Arena.ofConfined();
    private final MemorySegment counts;

    /**
     * @param width keys in the range, at least 1.
     */
    Histogram(final int width)
    {
        counts = arena.allocate(ValueLayout.JAVA_INT, width);
    }

    private static MethodHandle memset()
    {
        try
        {
            final Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("memset").map(a -> linker.downcallHandle(a,
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG))).orElse(null);
        }
        catch (final IllegalCallerException | UnsupportedOperationException noNativeAccess)
        {
            return null;
        }
    }

    /** {@return the counts: key {@code minKey + i} at int index i} */
    MemorySegment counts()
    {
        return counts;
    }

    /** {@return the number of counts} */
    int width()
    {
        return (int)(counts.byteSize() / Integer.BYTES);
    }

    /** Sets every count to 0. */
    void zero()
    {
        if (MEMSET == null)
        {
            counts.fill((byte)0);
            return;
        }
        try
        {
            final MemorySegment ignored = (MemorySegment)MEMSET.invokeExact(counts, 0, counts.byteSize());
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("memset of the histogram (" + counts.byteSize() + " bytes) failed", t);
        }
    }

    @Override
    public void close()
    {
        arena.close();
    }
}
