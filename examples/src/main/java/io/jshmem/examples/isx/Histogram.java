package io.jshmem.examples.isx;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;

/**
 * The counting sort's histogram: one int per key of a PE's range, a Java array, zeroed before each sort by the C
 * library's {@code memset} (through {@link Linker}, a critical downcall that may take the array itself). On the Java
 * heap because the count loop's increments of a heap array run 1.6x faster than of an off-heap segment (2 Mi random
 * keys into 16 Mi counts, the 16-PE shape, 2-core machine: 10.5 and 21 ms against 17 and 29 ms in the two speeds that
 * machine's memory showed in one JVM; C at -O2: 13 ms; benchmarks/README.md). ISx zeroes its histogram with memset every
 * iteration; at 2^28 / PEs keys that is hundreds of MiB, and glibc's memset measured 2x faster than
 * {@link Arrays#fill} (512 MiB: 7.5-9.5 ms against 15-18 ms). Without native access (no
 * {@code --enable-native-access}), or where no memset is found, it falls back to {@link Arrays#fill}. One thread; the
 * garbage collector frees it.
 */
final class Histogram
{
    private static final MethodHandle MEMSET = memset();

    private final int[] counts;

    /**
     * @param width keys in the range, at least 1.
     */
    Histogram(final int width)
    {
        counts = new int[width];
    }

    private static MethodHandle memset()
    {
        try
        {
            final Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("memset").map(a -> linker.downcallHandle(a,
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                Linker.Option.critical(true))).orElse(null);
        }
        catch (final IllegalCallerException | UnsupportedOperationException noNativeAccess)
        {
            return null;
        }
    }

    /** {@return the counts: key {@code minKey + i} at index i} */
    int[] counts()
    {
        return counts;
    }

    /** {@return the number of counts} */
    int width()
    {
        return counts.length;
    }

    /** Sets every count to 0. */
    void zero()
    {
        if (MEMSET == null)
        {
            Arrays.fill(counts, 0);
            return;
        }
        try
        {
            final MemorySegment ignored = (MemorySegment)MEMSET.invokeExact(MemorySegment.ofArray(counts), 0, (long)counts.length * Integer.BYTES);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("memset of the histogram (" + counts.length + " counts) failed", t);
        }
    }
}
