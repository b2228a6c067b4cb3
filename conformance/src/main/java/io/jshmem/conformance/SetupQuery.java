package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemInfo;
import io.jshmem.SymmetricLongs;
import io.jshmem.ThreadLevel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Setup and query (spec 1.1): isInitialized before and after init, init again returning the same PE
 * (1.6 reference counting, its close acting as a barrier), myPe/nPes range and consistency over every
 * PE, majorVersion/minorVersion/vendorName against the constants, peAccessible for valid and invalid
 * PEs, addrAccessible for live and freed objects, ptr non-null exactly for the PEs of TEAM_SHARED and
 * pointing at (and writing into) the peer's copy, and the thread level provided, with concurrent
 * atomics from several threads when MULTIPLE was provided. Then, after the last close, init again
 * (OpenSHMEM 1.6) twice: each later init forms the same job (same PE numbers and size), with a new heap
 * that RMA, atomics and collectives use, while handles of the earlier init fail as freed and
 * isInitialized follows every init and close. Runs at any PE count; all PEs are assumed to be on one
 * node (as shmemrun starts them).
 */
public final class SetupQuery
{
    private static final int THREADS = 3;
    private static final int PER_THREAD = 300;

    /** Shmem.isInitialized() before the first init. */
    private static boolean initializedBeforeInit;
    /** The first init's PE number and job size, and an object of its heap kept past its finalize. */
    private static int firstPe = -1;
    private static int firstNPes = -1;
    private static SymmetricLongs firstInitObject;

    private SetupQuery()
    {
    }

    /** @param args unused. */
    public static void main(final String[] args)
    {
        initializedBeforeInit = Shmem.isInitialized();
        int status = Spmd.execute("SetupQuery", 1, ThreadLevel.MULTIPLE, SetupQuery::body, System.out);
        if (status == Spmd.PASS)
        {
            status = afterFinalize();
        }
        System.exit(status);
    }

    /** After the last close: not initialized; init again (1.6), twice, each a working job. */
    private static int afterFinalize()
    {
        for (int init = 2; init <= 3; init++)
        {
            if (Shmem.isInitialized())
            {
                System.out.println("FAIL SetupQuery isInitialized: true after the last close (finalize) of init " + (init - 1));
                return Spmd.FAIL;
            }
            final int generation = init;
            final int status = Spmd.execute("SetupQuery init " + init, 1, ThreadLevel.SINGLE, (shmem, c) -> again(shmem, c, generation),
                System.out);
            if (status != Spmd.PASS)
            {
                return status;
            }
        }
        if (Shmem.isInitialized())
        {
            System.out.println("FAIL SetupQuery isInitialized: true after the last close (finalize) of init 3");
            return Spmd.FAIL;
        }
        return Spmd.PASS;
    }

    /** One init after a last finalize: the same job, a fresh heap, every kind of communication works. */
    private static void again(final Shmem shmem, final Check c, final int init)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        c.section("init " + init + " after the last finalize");
        c.isTrue(Shmem.isInitialized(), "isInitialized", "false after init " + init);
        c.eq("myPe", "init " + init + " vs init 1", firstPe, me);
        c.eq("nPes", "init " + init + " vs init 1", firstNPes, n);
        c.isTrue(!firstInitObject.isLive(), "free", "an object of init 1 is live in init " + init);
        try
        {
            firstInitObject.getLocal(0);
            c.fail("getLocal", "an object of init 1 read in init " + init + " without an error");
        }
        catch (final IllegalStateException expected)
        {
            c.isTrue(expected.getMessage().contains("after this PE's close() (shmem_finalize)"), "getLocal", expected.getMessage());
        }
        try
        {
            shmem.p(firstInitObject, 0, 1L, me);
            c.fail("p", "an object of init 1 written in init " + init + " without an error");
        }
        catch (final IllegalArgumentException expected)
        {
            c.isTrue(expected.getMessage().contains("foreign handle"), "p", expected.getMessage());
        }
        // RMA to the right neighbour, atomics on PE 0, a reduction over everyone
        final SymmetricLongs box = shmem.allocateLongs(3);
        c.eq("allocate", "a fresh heap is zero", 0L, box.getLocal(0));
        shmem.barrierAll(); // every PE has read its zero before anyone writes
        shmem.p(box, 0, (long)init << 32 | me, c.right());
        shmem.atomicAdd(box, 1, me + 1L, 0);
        shmem.barrierAll();
        c.eq("p then barrierAll", "longs", 0, (long)init << 32 | c.left(), box.getLocal(0));
        if (me == 0)
        {
            c.eq("atomicAdd from every PE", "longs", 1, (long)n * (n + 1) / 2, box.getLocal(1));
        }
        box.setLocal(2, me);
        final SymmetricLongs sum = shmem.allocateLongs(1);
        shmem.teamWorld().reduce(io.jshmem.ReduceOp.SUM, sum, box.slice(2, 1), 1);
        c.eq("sumReduce over TEAM_WORLD", "longs", 0, (long)n * (n - 1) / 2, sum.getLocal(0));
        shmem.free(sum);
        shmem.free(box);
    }

    private static void body(final Shmem shmem, final Check c) throws InterruptedException
    {
        final boolean before = initializedBeforeInit;
        c.section("init/query");
        c.isTrue(!before, "isInitialized", "true before the first init");
        firstPe = shmem.myPe();
        firstNPes = shmem.nPes();
        firstInitObject = shmem.allocateLongs(1); // kept: it dies with this init's finalize
        c.isTrue(Shmem.isInitialized(), "isInitialized", "false after init");
        c.isTrue(shmem.threadLevel() != null, "threadLevel", "null");
        final Shmem again = Shmem.init();
        c.isTrue(again == shmem, "init", "a second init returned another PE: " + again + " vs " + shmem);
        again.close(); // not the last close: acts as barrierAll, frees nothing
        c.isTrue(Shmem.isInitialized(), "close", "isInitialized false after a non-last close");

        final int me = shmem.myPe();
        final int n = shmem.nPes();
        c.isTrue(n >= 1, "nPes", "nPes=" + n);
        c.isTrue(me >= 0 && me < n, "myPe", "myPe=" + me + " outside 0.." + (n - 1));
        c.isTrue(shmem.config() != null, "config", "null");

        c.eq("majorVersion", "SHMEM_MAJOR_VERSION", ShmemInfo.MAJOR_VERSION, shmem.majorVersion());
        c.eq("minorVersion", "SHMEM_MINOR_VERSION", ShmemInfo.MINOR_VERSION, shmem.minorVersion());
        c.isTrue(shmem.majorVersion() == 1 && shmem.minorVersion() >= 6, "info_get_version",
            shmem.majorVersion() + "." + shmem.minorVersion() + " is older than 1.6 (init after the last finalize is 1.6)");
        c.eq("vendorName", "SHMEM_VENDOR_STRING", ShmemInfo.VENDOR_STRING, shmem.vendorName());
        c.isTrue(!shmem.vendorName().isEmpty() && shmem.vendorName().length() <= ShmemInfo.MAX_NAME_LEN, "vendorName",
            "length " + shmem.vendorName().length() + " outside 1.." + ShmemInfo.MAX_NAME_LEN);

        c.section("myPe/nPes over all PEs");
        final SymmetricLongs ids = shmem.allocateLongs(2L * n);
        for (int pe = 0; pe < n; pe++)
        {
            shmem.p(ids, 2L * me, me, pe);
            shmem.p(ids, 2L * me + 1, n, pe);
        }
        shmem.barrierAll();
        for (int pe = 0; pe < n; pe++)
        {
            c.eq("myPe (as reported by PE " + pe + ")", "longs", 2L * pe, pe, ids.getLocal(2L * pe));
            c.eq("nPes (as reported by PE " + pe + ")", "longs", 2L * pe + 1, n, ids.getLocal(2L * pe + 1));
        }

        c.section("peAccessible/addrAccessible");
        for (int pe = 0; pe < n; pe++)
        {
            c.isTrue(shmem.peAccessible(pe), "peAccessible", "pe=" + pe + " of " + n + " is not accessible");
            c.isTrue(shmem.addrAccessible(ids, pe), "addrAccessible", "live object " + ids + " not accessible on pe=" + pe);
            c.isTrue(shmem.addrAccessible(ids.slice(1, 1), pe), "addrAccessible", "slice of a live object not accessible on pe=" + pe);
        }
        for (final int bad : new int[] {-1, n, n + 1, Integer.MAX_VALUE, Integer.MIN_VALUE})
        {
            c.isTrue(!shmem.peAccessible(bad), "peAccessible", "invalid pe=" + bad + " (nPes=" + n + ") reported accessible");
            try
            {
                c.isTrue(!shmem.addrAccessible(ids, bad), "addrAccessible", "invalid pe=" + bad + " reported accessible");
            }
            catch (final RuntimeException ex)
            {
                c.fail("addrAccessible", "invalid pe=" + bad + " threw " + ex + "; a query should return false");
            }
        }

        c.section("ptr");
        final SymmetricLongs box = shmem.allocateLongs(16);
        for (int i = 0; i < 16; i++)
        {
            box.setLocal(i, (me + 1L) << 32 | i);
        }
        shmem.barrierAll();
        final List<MemorySegment> peers = new ArrayList<>();
        for (int pe = 0; pe < n; pe++)
        {
            final MemorySegment seg = shmem.ptr(box, pe);
            peers.add(seg);
            // ptr maps exactly the PEs reached by load/store: TEAM_SHARED (every PE of this node unless
            // SHMEM_TRANSPORT leaves p2p out; a PE always maps itself)
            final boolean shared = shmem.teamShared().teamPeOf(pe) >= 0;
            if (!shared)
            {
                c.isTrue(seg == null, "ptr", "non-null for pe=" + pe + ", which is not in TEAM_SHARED");
                continue;
            }
            if (!c.isTrue(seg != null, "ptr", "null for pe=" + pe + " of TEAM_SHARED"))
            {
                continue;
            }
            c.eq("ptr", "byteSize for pe=" + pe, box.byteSize(), seg.byteSize());
            for (int i = 0; i < 16; i++)
            {
                c.eq("ptr(box, " + pe + ") load", "longs", i, (pe + 1L) << 32 | i, seg.get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i));
            }
            final MemorySegment sliced = shmem.ptr(box.slice(5, 3), pe);
            if (c.isTrue(sliced != null, "ptr", "null for a slice on pe=" + pe))
            {
                c.eq("ptr(slice(5,3), " + pe + ") load", "longs", 5, (pe + 1L) << 32 | 5,
                    sliced.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
                c.eq("ptr", "slice byteSize for pe=" + pe, 24L, sliced.byteSize());
            }
        }
        shmem.barrierAll();
        // store through ptr into the right neighbour's copy, slot 15
        final MemorySegment rightSeg = peers.get(c.right());
        if (rightSeg != null)
        {
            rightSeg.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * 15, -1000L - me);
        }
        shmem.barrierAll();
        if (peers.get(c.left()) != null)
        {
            c.eq("store through ptr, barrierAll, local read", "longs", 15, -1000L - c.left(), box.getLocal(15));
        }
        shmem.barrierAll();

        threads(shmem, c);

        shmem.free(box);
        shmem.free(ids);
        c.isTrue(!ids.isLive(), "free", "isLive true after free");
        try
        {
            c.isTrue(!shmem.addrAccessible(ids, me), "addrAccessible", "freed object reported accessible");
        }
        catch (final RuntimeException ex)
        {
            c.fail("addrAccessible", "freed object threw " + ex + "; a query should return false");
        }
    }

    private static void threads(final Shmem shmem, final Check c) throws InterruptedException
    {
        c.section("thread level " + shmem.threadLevel());
        if (shmem.threadLevel() != ThreadLevel.MULTIPLE)
        {
            System.out.println("  SetupQuery: MULTIPLE requested, " + shmem.threadLevel() + " provided: multi-threaded atomics not run");
            return;
        }
        final SymmetricLongs counter = shmem.allocateLongs(1);
        final Thread[] threads = new Thread[THREADS];
        for (int k = 0; k < THREADS; k++)
        {
            threads[k] = new Thread(() ->
            {
                try
                {
                    for (int i = 0; i < PER_THREAD; i++)
                    {
                        shmem.atomicFetchInc(counter, 0, i % shmem.nPes());
                    }
                }
                catch (final RuntimeException ex)
                {
                    c.fail("atomicFetchInc from " + THREADS + " threads", "threw " + ex);
                }
            }, "SetupQuery-" + k);
            threads[k].start();
        }
        for (final Thread th : threads)
        {
            th.join();
        }
        shmem.barrierAll();
        long expected = 0;
        for (int i = 0; i < PER_THREAD; i++)
        {
            expected += i % shmem.nPes() == c.me() ? (long)THREADS * shmem.nPes() : 0;
        }
        c.eq("atomicFetchInc from " + THREADS + " threads of every PE (MULTIPLE)", "longs", 0, expected, counter.getLocal(0));
        shmem.barrierAll();
        shmem.free(counter);
    }
}
