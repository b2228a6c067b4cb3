package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemInfo;
import io.jshmem.ShmemInitException;
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
 * atomics from several threads when MULTIPLE was provided. Runs at any PE count; all PEs are assumed
 * to be on one node (as shmemrun starts them).
 */
public final class SetupQuery
{
    private static final int THREADS = 3;
    private static final int PER_THREAD = 300;

    /** Shmem.isInitialized() before the first init. */
    private static boolean initializedBeforeInit;

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

    /** After the last close: not initialized, and init cannot re-form the job in this process. */
    private static int afterFinalize()
    {
        if (Shmem.isInitialized())
        {
            System.out.println("FAIL SetupQuery isInitialized: true after the last close (finalize)");
            return Spmd.FAIL;
        }
        try
        {
            Shmem.init();
            System.out.println("FAIL SetupQuery init: a second init after the last close returned a PE");
            return Spmd.FAIL;
        }
        catch (final ShmemInitException ex)
        {
            System.out.println("  SetupQuery: after finalize, isInitialized false and init refused: " + ex.getMessage());
            return Spmd.PASS;
        }
        catch (final RuntimeException ex)
        {
            System.out.println("FAIL SetupQuery init after finalize: threw " + ex + ", expected ShmemInitException");
            return Spmd.FAIL;
        }
    }

    private static void body(final Shmem shmem, final Check c) throws InterruptedException
    {
        final boolean before = initializedBeforeInit;
        c.section("init/query");
        c.isTrue(!before, "isInitialized", "true before the first init");
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
        c.isTrue(shmem.majorVersion() == 1 && shmem.minorVersion() >= 5, "info_get_version",
            shmem.majorVersion() + "." + shmem.minorVersion() + " is older than 1.5");
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
