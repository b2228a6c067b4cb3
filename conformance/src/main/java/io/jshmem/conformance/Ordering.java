package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricLongs;

/**
 * Memory ordering (spec 1.10), the cases other implementations got wrong. Each PE sends to its
 * right neighbour and receives from its left; the receiver checks the data right after its flag, with
 * no barrier in between, over many rounds:
 * <ol>
 *   <li>put, fence, flag by atomic set: the waiter sees the data;</li>
 *   <li>put_nbi in chunks, quiet, flag: the waiter sees every chunk;</li>
 *   <li>put, fence, flag by a plain put (p), wait_until on it: the waiter sees the data;</li>
 *   <li>put_signal and put_signal_nbi: the signal implies that call's own data;</li>
 *   <li>put, fence, put to the same word: the later value wins;</li>
 *   <li>barrier_all completes blocking puts, put_nbi and non-fetching atomics;</li>
 *   <li>put_nbi, quiet, sync_all: the data is there (sync_all alone completes nothing, quiet does).</li>
 * </ol>
 * Needs 2 PEs (at 1 PE a PE would only talk to itself): SKIP below that.
 */
public final class Ordering
{
    private static final int N = 512;
    private static final int ROUNDS = 40;

    private Ordering()
    {
    }

    /** @param args unused. */
    public static void main(final String[] args)
    {
        Spmd.run("Ordering", 2, (shmem, check) ->
        {
            final SymmetricLongs data = shmem.allocateLongs(N);
            final SymmetricLongs flag = shmem.allocateLongs(8);
            fenceThenAtomicFlag(shmem, check, data, flag);
            quietThenFlag(shmem, check, data, flag);
            plainPutFlag(shmem, check, data, flag);
            putSignal(shmem, check, data, flag);
            fenceSameWord(shmem, check, data);
            barrierCompletes(shmem, check, data, flag);
            quietThenSyncAll(shmem, check, data);
            shmem.barrierAll();
            shmem.free(flag);
            shmem.free(data);
        });
    }

    private static long[] payload(final int pe, final int round, final int kase)
    {
        final long[] a = new long[N];
        for (int i = 0; i < N; i++)
        {
            a[i] = (long)kase << 56 | (long)(pe + 1) << 40 | (long)round << 20 | i;
        }
        return a;
    }

    private static void checkData(final Check c, final String routine, final SymmetricLongs data, final int round, final int kase)
    {
        final long[] want = payload(c.left(), round, kase);
        int bad = 0;
        for (int i = 0; i < N && bad < 4; i++)
        {
            if (!c.eq(routine + " round " + round, "longs", i, want[i], data.getLocal(i)))
            {
                bad++;
            }
        }
    }

    private static void awaitFlag(final Check c, final String routine, final SymmetricLongs flag, final int index, final long value)
    {
        c.await(routine, "flag[" + index + "] == " + value + " (now " + flag.getLocal(index) + ")", () -> flag.test(index, Cmp.EQ, value));
        flag.waitUntil(index, Cmp.EQ, value);
    }

    private static void fenceThenAtomicFlag(final Shmem s, final Check c, final SymmetricLongs data, final SymmetricLongs flag)
    {
        c.section("put + fence + atomicSet flag");
        for (int round = 1; round <= ROUNDS; round++)
        {
            s.put(data, 0, payload(c.me(), round, 1), 0, N, c.right());
            s.fence();
            s.atomicSet(flag, 0, round, c.right());
            awaitFlag(c, "put, fence, atomicSet(flag)", flag, 0, round);
            checkData(c, "put, fence, atomicSet(flag): waiter sees the put", data, round, 1);
            s.barrierAll();
        }
    }

    private static void quietThenFlag(final Shmem s, final Check c, final SymmetricLongs data, final SymmetricLongs flag)
    {
        c.section("putNbi chunks + quiet + flag");
        for (int round = 1; round <= ROUNDS; round++)
        {
            final long[] src = payload(c.me(), round, 2);
            for (int chunk = 0; chunk < 8; chunk++)
            {
                s.putNbi(data, chunk * (N / 8), src, chunk * (N / 8), N / 8, c.right());
            }
            s.quiet();
            s.atomicSet(flag, 1, round, c.right());
            awaitFlag(c, "putNbi x8, quiet, atomicSet(flag)", flag, 1, round);
            checkData(c, "putNbi x8, quiet, atomicSet(flag): waiter sees every chunk", data, round, 2);
            s.barrierAll();
        }
    }

    private static void plainPutFlag(final Shmem s, final Check c, final SymmetricLongs data, final SymmetricLongs flag)
    {
        c.section("put + fence + p flag, waitUntil");
        for (int round = 1; round <= ROUNDS; round++)
        {
            s.put(data, 0, payload(c.me(), round, 3), 0, N, c.right());
            s.fence();
            s.p(flag, 2, round, c.right());
            awaitFlag(c, "put, fence, p(flag), waitUntil", flag, 2, round);
            checkData(c, "put, fence, p(flag), waitUntil: waiter sees the put", data, round, 3);
            s.barrierAll();
        }
    }

    private static void putSignal(final Shmem s, final Check c, final SymmetricLongs data, final SymmetricLongs flag)
    {
        c.section("putSignal implies its own data");
        for (int round = 1; round <= ROUNDS; round++)
        {
            final boolean nbi = round % 2 == 0;
            final String routine = nbi ? "putSignalNbi" : "putSignal";
            final long[] src = payload(c.me(), round, 4);
            if (nbi)
            {
                s.putSignalNbi(data, 0, src, 0, N, flag, 3, round, SignalOp.SET, c.right());
            }
            else
            {
                s.putSignal(data, 0, src, 0, N, flag, 3, round, SignalOp.SET, c.right());
            }
            Signals.waitSignal(c, flag, 3, Cmp.EQ, round, routine);
            checkData(c, routine + ": signal implies the data", data, round, 4);
            if (nbi)
            {
                s.quiet();
            }
            s.barrierAll();
        }
    }

    private static void fenceSameWord(final Shmem s, final Check c, final SymmetricLongs data)
    {
        c.section("put + fence + put to the same words");
        for (int round = 1; round <= ROUNDS; round++)
        {
            s.put(data, 0, payload(c.me(), round, 5), 0, N, c.right());
            s.fence();
            s.put(data, 0, payload(c.me(), round, 6), 0, N, c.right());
            s.barrierAll();
            checkData(c, "put, fence, put: the later put wins", data, round, 6);
            s.barrierAll();
        }
    }

    private static void barrierCompletes(final Shmem s, final Check c, final SymmetricLongs data, final SymmetricLongs flag)
    {
        c.section("barrierAll completes puts, putNbi and atomics");
        for (int round = 1; round <= ROUNDS / 4; round++)
        {
            s.put(data, 0, payload(c.me(), round, 7), 0, N / 2, c.right());
            s.putNbi(data, N / 2, payload(c.me(), round, 7), N / 2, N / 2, c.right());
            s.atomicAdd(flag, 4, 1, 0);
            s.barrierAll();
            checkData(c, "put + putNbi, barrierAll", data, round, 7);
            if (c.me() == 0)
            {
                c.eq("atomicAdd, barrierAll", "longs", 4, (long)round * c.nPes(), flag.getLocal(4));
            }
            s.barrierAll();
        }
    }

    private static void quietThenSyncAll(final Shmem s, final Check c, final SymmetricLongs data)
    {
        c.section("putNbi + quiet + syncAll");
        for (int round = 1; round <= ROUNDS / 4; round++)
        {
            s.putNbi(data, 0, payload(c.me(), round, 8), 0, N, c.right());
            s.quiet();
            s.syncAll();
            checkData(c, "putNbi, quiet, syncAll", data, round, 8);
            s.syncAll();
        }
    }
}
