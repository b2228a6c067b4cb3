package io.jshmem.transport;

import io.jshmem.AtomicOp;
import io.jshmem.JobFailedException;
import io.jshmem.SignalOp;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.bootstrap.BootstrapRoot;
import io.jshmem.bootstrap.Bootstraps;
import io.jshmem.bootstrap.UniqueId;
import io.jshmem.config.ShmemConfig;
import io.jshmem.heap.HeapFile;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract every {@link Transport} must keep, run against each implementation on PEs that are
 * threads of this JVM over the real UID bootstrap and real /dev/shm heaps: puts and gets of every size
 * (across the proxy's chunk size), nbi forms completed by quiet, every atomic on 4- and 8-byte words
 * with concurrent updaters, put-with-signal and fence ordering, per-context quiet and pe_quiet, and the
 * fetch of non-blocking atomics. Each PE's failure is collected; the first is thrown with the others
 * suppressed.
 */
abstract class TransportContractTest
{
    static final int N = 3;
    static final long HEAP = 4L << 20;

    /** Makes this implementation's transport for one PE (not yet connected). */
    abstract Transport make(Bootstrap bootstrap, HeapFile heap, IntUnaryOperator idle);

    /** @return the map id PEs other than oneself are reached with. */
    abstract byte peerId();

    interface Body
    {
        void run(Pe pe) throws Exception;
    }

    /** One PE of the test job. */
    record Pe(int me, int n, Bootstrap bootstrap, Transport transport, TransportContext ctx, MemorySegment heap)
    {
        int right()
        {
            return (me + 1) % n;
        }

        int left()
        {
            return (me + n - 1) % n;
        }

        void sync()
        {
            transport.quiet(ctx);
            bootstrap.barrier();
        }
    }

    static IntUnaryOperator idleOf(final Bootstrap b)
    {
        return count ->
        {
            final JobFailedException f = b.failure();
            if (f != null)
            {
                throw new JobFailedException("wait abandoned: " + f.getMessage(), f.lostPe(), f);
            }
            if (count < 1000)
            {
                Thread.onSpinWait();
            }
            else
            {
                Thread.yield();
            }
            return count + 1;
        };
    }

    void run(final Body body) throws Exception
    {
        final ShmemConfig rootConfig = ShmemConfig.of(Map.of("SHMEM_BOOTSTRAP_TIMEOUT", "30s"), null, null);
        try (BootstrapRoot root = UniqueId.createRoot(rootConfig))
        {
            final ExecutorService pool = Executors.newFixedThreadPool(N, r -> Thread.ofPlatform().daemon().name("contract-pe").unstarted(r));
            try
            {
                final List<Future<?>> futures = new ArrayList<>();
                for (int rank = 0; rank < N; rank++)
                {
                    final Map<String, String> env = new HashMap<>();
                    env.put("JSHMEM_RANK", Integer.toString(rank));
                    env.put("JSHMEM_SIZE", Integer.toString(N));
                    env.put("SHMEM_BOOTSTRAP_UID", root.uniqueId().toText());
                    env.put("SHMEM_BOOTSTRAP_TIMEOUT", "30s");
                    final ShmemConfig config = ShmemConfig.of(env, null, null);
                    futures.add(pool.submit(() -> {
                        runPe(config, body);
                        return null;
                    }));
                }
                PeFutures.awaitAll(futures, 120);
            }
            finally
            {
                pool.shutdownNow();
            }
        }
    }

    private void runPe(final ShmemConfig config, final Body body) throws Exception
    {
        try (Bootstrap b = Bootstraps.fromConfig(config, io.jshmem.bootstrap.BootstrapSettings.from(config).withExitOnFailure(false));
            HeapFile heap = HeapFile.create(HeapFile.DEFAULT_DIRECTORY, b.jobId(), b.rank(), b.size(), HEAP))
        {
            final P2pTransport self = new P2pTransport(b, heap, HeapFile.DEFAULT_DIRECTORY, false);
            final Transport t = make(b, heap, idleOf(b));
            try
            {
                final byte[][] endpoints = b.allgather(t.endpoint());
                final byte[] row = new byte[b.size()];
                for (int pe = 0; pe < row.length; pe++)
                {
                    row[pe] = pe == b.rank() ? ReachabilityMap.P2P : t.canReach(pe) ? t.id() : ReachabilityMap.NONE;
                }
                final ReachabilityMap map = ReachabilityMap.gather(b, row);
                assertTrue(map.unreachablePairs(1).isEmpty(), map::toString);
                if (t != self && !(t instanceof P2pTransport))
                {
                    self.connect(map, endpoints);
                }
                t.connect(map, endpoints);
                final TransportContext ctx = t.createContext();
                final Pe pe = new Pe(b.rank(), b.size(), b, t, ctx, heap.dataSegment());
                b.barrier();
                body.run(pe);
                if (b.failure() == null) // a test of failure ends here
                {
                    pe.sync();
                    t.quiesce();
                    b.barrier();
                }
                ctx.close();
            }
            finally
            {
                t.close();
                self.close();
            }
        }
    }

    /**
     * For remote transports: the last PE closes its transport (its connections drop, as when its process
     * dies) once every other PE is past the bootstrap barrier; every other PE's blocking get to it throws
     * {@link JobFailedException} naming it within 5 s, and the job's failure is reported.
     */
    void lostPeerFailsEveryWaitNamingIt() throws Exception
    {
        // the PEs are threads of this JVM: none leaves (closing its bootstrap, which the others would see as a second
        // loss, maybe first) before every survivor's wait has failed
        final java.util.concurrent.CountDownLatch failed = new java.util.concurrent.CountDownLatch(N - 1);
        run(pe ->
        {
            final int victim = pe.n() - 1;
            if (pe.me() == victim)
            {
                // every other PE is past the bootstrap barrier once its flag is here (a failure reported while a
                // PE still waits in that barrier would fail the barrier, not the transport's wait under test)
                for (int q = 0; q < victim; q++)
                {
                    while (pe.heap().get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * q) == 0)
                    {
                        Thread.onSpinWait();
                    }
                }
                pe.transport().close(); // its endpoints drop, as when the process dies
                final long deadline = System.nanoTime() + 10_000_000_000L;
                while (pe.bootstrap().failure() == null && System.nanoTime() < deadline)
                {
                    Thread.sleep(10);
                }
                assertNotNull(pe.bootstrap().failure(), "the job failed");
                return;
            }
            // a get first: every path to the victim is up before it goes (a transport that connects on first use must
            // not be mid-handshake with it when it closes: UCX 1.13 aborts the process destroying a worker then)
            pe.transport().get(pe.ctx(), victim, 0, MemorySegment.ofArray(new long[1]), false);
            pe.transport().put(pe.ctx(), victim, 8L * pe.me(), MemorySegment.ofArray(new long[] {1}), false);
            pe.transport().quiet(pe.ctx());
            final long start = System.nanoTime();
            final JobFailedException ex = assertThrows(JobFailedException.class, () ->
            {
                final long[] one = new long[1];
                while (true)
                {
                    pe.transport().get(pe.ctx(), victim, 0, MemorySegment.ofArray(one), false);
                }
            });
            final long ms = (System.nanoTime() - start) / 1_000_000;
            failed.countDown();
            assertTrue(ms < 5000, "failed after " + ms + " ms");
            assertTrue(String.valueOf(ex.getMessage()).contains("pe " + victim), ex::getMessage);
            assertTrue(failed.await(30, java.util.concurrent.TimeUnit.SECONDS), "every survivor's wait failed");
        });
    }

    // ------------------------------------------------------------------ the contract

    @Test
    void mapsEveryOtherPeWithItsId() throws Exception
    {
        run(pe ->
        {
            for (int q = 0; q < pe.n(); q++)
            {
                if (q != pe.me())
                {
                    assertTrue(pe.transport().canReach(q), "canReach(" + q + ")");
                }
            }
            assertTrue(!pe.transport().canReach(-1) && !pe.transport().canReach(pe.n()), "canReach outside the job");
            assertEquals(Transport.SPI_VERSION, pe.transport().spiVersion());
            assertTrue(pe.transport().id() == peerId());
        });
    }

    @Test
    void putsAndGetsOfEverySizeArriveWhole() throws Exception
    {
        final int[] sizes = {1, 7, 8, 64, 4096, 65_536, 65_537, 200_000};
        run(pe ->
        {
            long base = 0;
            for (final int size : sizes)
            {
                final byte[] data = new byte[size];
                for (int i = 0; i < size; i++)
                {
                    data[i] = (byte)(pe.me() * 31 + i * 7 + size);
                }
                pe.transport().put(pe.ctx(), pe.right(), base, MemorySegment.ofArray(data), false);
                pe.sync();
                final int from = pe.left();
                for (int i = 0; i < size; i++)
                {
                    assertEquals((byte)(from * 31 + i * 7 + size), pe.heap().get(ValueLayout.JAVA_BYTE, base + i), "size " + size + " byte " + i);
                }
                final byte[] back = new byte[size];
                pe.transport().get(pe.ctx(), pe.right(), base, MemorySegment.ofArray(back), false);
                for (int i = 0; i < size; i++)
                {
                    assertEquals((byte)(pe.me() * 31 + i * 7 + size), back[i], "get size " + size + " byte " + i);
                }
                pe.bootstrap().barrier();
                base += size + 64;
            }
        });
    }

    @Test
    void nbiPutsAndGetsCompleteAtQuiet() throws Exception
    {
        run(pe ->
        {
            final long[] src = new long[1000];
            for (int i = 0; i < src.length; i++)
            {
                src[i] = pe.me() * 1_000_000L + i;
            }
            for (int i = 0; i < src.length; i++)
            {
                pe.transport().put(pe.ctx(), pe.right(), 8L * i, MemorySegment.ofArray(src).asSlice(8L * i, 8), true);
            }
            pe.sync();
            final long[] got = new long[1000];
            for (int i = 0; i < got.length; i++)
            {
                pe.transport().get(pe.ctx(), pe.left(), 8L * i, MemorySegment.ofArray(got).asSlice(8L * i, 8), true);
            }
            pe.transport().quiet(pe.ctx());
            for (int i = 0; i < got.length; i++)
            {
                // left's heap holds what left's left put there
                assertEquals((pe.me() + pe.n() - 2) % pe.n() * 1_000_000L + i, got[i], "nbi get element " + i);
            }
        });
    }

    @Test
    void everyAtomicOnFourAndEightByteWords() throws Exception
    {
        run(pe ->
        {
            final Transport t = pe.transport();
            final int target = 0;
            // concurrent fetch-add from every PE but the owner: the final sum counts every add once
            if (pe.me() != target)
            {
                for (int i = 0; i < 500; i++)
                {
                    t.amo(pe.ctx(), target, AtomicOp.FETCH_ADD, 8, 0, 1, 0);
                    t.amo(pe.ctx(), target, AtomicOp.ADD, 4, 8, 2, 0);
                }
            }
            pe.sync();
            if (pe.me() == target)
            {
                assertEquals(500L * (pe.n() - 1), pe.heap().get(ValueLayout.JAVA_LONG, 0));
                assertEquals(1000 * (pe.n() - 1), pe.heap().get(ValueLayout.JAVA_INT, 8));
            }
            pe.bootstrap().barrier();
            // each PE owns word 16 + 8*me on its right neighbour: a sequence with known old values
            final int q = pe.right();
            final long w = 64 + 16L * pe.me();
            assertEquals(0, t.amo(pe.ctx(), q, AtomicOp.SET, 8, w, 5, 0));
            assertEquals(5, t.amo(pe.ctx(), q, AtomicOp.FETCH, 8, w, 0, 0));
            assertEquals(5, t.amo(pe.ctx(), q, AtomicOp.SWAP, 8, w, 12, 0));
            assertEquals(12, t.amo(pe.ctx(), q, AtomicOp.COMPARE_SWAP, 8, w, 20, 11)); // fails: stays 12
            assertEquals(12, t.amo(pe.ctx(), q, AtomicOp.COMPARE_SWAP, 8, w, 20, 12));
            assertEquals(20, t.amo(pe.ctx(), q, AtomicOp.FETCH_INC, 8, w, 1, 0));
            assertEquals(21, t.amo(pe.ctx(), q, AtomicOp.FETCH_AND, 8, w, 0b10101, 0));
            assertEquals(21, t.amo(pe.ctx(), q, AtomicOp.FETCH_OR, 8, w, 0b01000, 0));
            assertEquals(29, t.amo(pe.ctx(), q, AtomicOp.FETCH_XOR, 8, w, 0b00011, 0));
            assertEquals(30, t.amo(pe.ctx(), q, AtomicOp.FETCH, 8, w, 0, 0));
            final long v = w + 8; // a 4-byte word: values sign-extend
            t.amo(pe.ctx(), q, AtomicOp.SET, 4, v, -3, 0);
            assertEquals(-3, t.amo(pe.ctx(), q, AtomicOp.FETCH_ADD, 4, v, 1, 0));
            assertEquals(-2, t.amo(pe.ctx(), q, AtomicOp.FETCH, 4, v, 0, 0));
            // nbi fetch: lands by quiet
            final long[] fetched = new long[1];
            t.amoNbi(pe.ctx(), q, AtomicOp.FETCH_ADD, 8, w, 100, 0, MemorySegment.ofArray(fetched));
            t.quiet(pe.ctx());
            assertEquals(30, fetched[0]);
            assertEquals(130, t.amo(pe.ctx(), q, AtomicOp.FETCH, 8, w, 0, 0));
        });
    }

    @Test
    void aSignalIsSeenOnlyAfterItsData() throws Exception
    {
        final int rounds = 200;
        final int bytes = 100_000; // spans two proxy chunks
        run(pe ->
        {
            final long sig = 8;
            final long data = 4096;
            final byte[] payload = new byte[bytes];
            for (int round = 1; round <= rounds; round++)
            {
                java.util.Arrays.fill(payload, (byte)round);
                pe.transport().putSignal(pe.ctx(), pe.right(), data, MemorySegment.ofArray(payload), sig, round, SignalOp.SET, false);
                int count = 0;
                while ((long)ValueLayout.JAVA_LONG.varHandle().getAcquire(pe.heap(), sig) < round)
                {
                    count = idleOf(pe.bootstrap()).applyAsInt(count);
                }
                for (int i = 0; i < bytes; i += 997)
                {
                    assertEquals((byte)round, pe.heap().get(ValueLayout.JAVA_BYTE, data + i), "round " + round + " byte " + i);
                }
                assertEquals((byte)round, pe.heap().get(ValueLayout.JAVA_BYTE, data + bytes - 1));
                pe.bootstrap().barrier(); // nobody overwrites the data before its reader checked it
            }
        });
    }

    @Test
    void fenceOrdersPutsToATarget() throws Exception
    {
        run(pe ->
        {
            final long flag = 0;
            final long data = 64;
            for (int round = 1; round <= 300; round++)
            {
                final long[] block = new long[64];
                java.util.Arrays.fill(block, round);
                pe.transport().put(pe.ctx(), pe.right(), data, MemorySegment.ofArray(block), true);
                pe.transport().fence(pe.ctx());
                pe.transport().put(pe.ctx(), pe.right(), flag, MemorySegment.ofArray(new long[] {round}), true);
                int count = 0;
                while ((long)ValueLayout.JAVA_LONG.varHandle().getAcquire(pe.heap(), flag) < round)
                {
                    count = idleOf(pe.bootstrap()).applyAsInt(count);
                }
                VarHandle.acquireFence();
                for (int i = 0; i < 64; i++)
                {
                    assertEquals(round, pe.heap().get(ValueLayout.JAVA_LONG, data + 8L * i), "round " + round + " element " + i);
                }
                pe.transport().quiet(pe.ctx());
                pe.bootstrap().barrier();
            }
        });
    }

    @Test
    void quietOfOneContextAndPeQuietComplete() throws Exception
    {
        run(pe ->
        {
            final Transport t = pe.transport();
            final TransportContext other = t.createContext();
            try
            {
                final long[] big = new long[50_000];
                java.util.Arrays.fill(big, pe.me() + 1);
                t.put(other, pe.right(), 0, MemorySegment.ofArray(big), true);
                t.peQuiet(other, pe.right());
                // complete at the target: a get after pe_quiet on any context sees the data
                final long[] check = new long[1];
                t.get(pe.ctx(), pe.right(), 8L * (big.length - 1), MemorySegment.ofArray(check), false);
                assertEquals(pe.me() + 1, check[0]);
                t.put(other, pe.left(), 0, MemorySegment.ofArray(big).asSlice(0, 8), true);
                t.quiet(other);
            }
            finally
            {
                other.close();
            }
        });
    }
}
