package io.jshmem.bench.jmh;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricBytes;
import io.jshmem.SymmetricLongs;
import io.jshmem.ThreadLevel;
import io.jshmem.config.ShmemConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Single-operation costs of the p2p path inside one JVM (a singleton PE targeting its own mapped heap,
 * which is the same code path as a peer's): small put/get, p/g, atomics, wait/test on a satisfied
 * condition, and the argument-check overhead (p through the API against a raw store into the segment
 * {@code ptr} returns). Run with {@code benchmarks/run-jmh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseSerialGC"})
public class SingleOpBenchmark
{
    @Param({"8", "64", "1024"})
    public int size;

    private Shmem shmem;
    private SymmetricBytes bytes;
    private SymmetricLongs longs;
    private MemorySegment raw;
    private byte[] src;
    private byte[] dst;
    private long counter;

    @Setup(Level.Trial)
    public void setUp()
    {
        shmem = Shmem.create(ShmemConfig.of(Map.of("SHMEM_BOOTSTRAP", "singleton", "SHMEM_SYMMETRIC_SIZE", "16M"), null, null),
            ThreadLevel.SINGLE);
        bytes = shmem.allocateBytes(4096);
        longs = shmem.allocateLongs(16);
        raw = shmem.ptr(longs, 0);
        src = new byte[4096];
        dst = new byte[4096];
        longs.setLocal(1, 7);
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        shmem.close();
    }

    @Benchmark
    public void putQuiet()
    {
        shmem.put(bytes, 0, src, 0, size, 0);
        shmem.quiet();
    }

    @Benchmark
    public byte[] get()
    {
        shmem.get(dst, 0, bytes, 0, size, 0);
        return dst;
    }

    @Benchmark
    public void pLong()
    {
        shmem.p(longs, 0, ++counter, 0);
    }

    @Benchmark
    public void rawStoreBaseline()
    {
        raw.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, ++counter);
    }

    @Benchmark
    public long gLong()
    {
        return shmem.g(longs, 0, 0);
    }

    @Benchmark
    public long fetchAdd()
    {
        return shmem.atomicFetchAdd(longs, 2, 1L, 0);
    }

    @Benchmark
    public long compareSwap()
    {
        return shmem.atomicCompareSwap(longs, 3, 0L, 0L, 0);
    }

    @Benchmark
    public void waitUntilSatisfied()
    {
        longs.waitUntil(1, Cmp.EQ, 7);
    }

    @Benchmark
    public boolean testSatisfied()
    {
        return longs.test(1, Cmp.GE, 7);
    }
}
