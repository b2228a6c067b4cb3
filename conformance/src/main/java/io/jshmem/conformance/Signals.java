package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;

/**
 * Signaling (spec 1.7): put_signal and put_signal_nbi with SET and ADD, signal_add, signal_set,
 * signal_fetch and signal_wait_until, whose comparisons are unsigned 64-bit (values above
 * {@code Long.MAX_VALUE} included). The waiter checks the signalled put's data right after the wait
 * returns, with no barrier in between: observing the signal implies that call's data. Waits are
 * preceded by a bounded poll, so a lost signal fails the program instead of hanging it.
 * Runs at any PE count.
 */
public final class Signals
{
    private static final int N = 64;

    private Signals()
    {
    }

    /** @param args unused. */
    public static void main(final String[] args)
    {
        Spmd.run("Signals", 1, (shmem, check) ->
        {
            final SymmetricLongs sig = shmem.allocateLongs(8);
            putSignalSet(shmem, check, sig);
            putSignalAdd(shmem, check, sig);
            signalOnly(shmem, check, sig);
            unsigned(shmem, check, sig);
            shmem.barrierAll();
            shmem.free(sig);
        });
    }

    /** Polls the signal (bounded), then calls the real signal_wait_until and checks its result. */
    static long waitSignal(final Check c, final SymmetricLongs sig, final int index, final Cmp cmp, final long value,
        final String routine)
    {
        c.await(routine, "signal[" + index + "] " + cmp + " 0x" + Long.toHexString(value) + " (unsigned), now 0x" +
            Long.toHexString(sig.signalFetch(index)), () -> cmp.testUnsigned(sig.signalFetch(index), value));
        final long got = sig.signalWaitUntil(index, cmp, value);
        c.isTrue(cmp.testUnsigned(got, value), "signalWaitUntil", "returned 0x" + Long.toHexString(got) +
            " which does not satisfy " + cmp + " 0x" + Long.toHexString(value) + " (unsigned)");
        return got;
    }

    private static long data(final int pe, final int round, final int i)
    {
        return (pe + 1L) << 32 | (long)round << 16 | i;
    }

    private static void putSignalSet(final Shmem s, final Check c, final SymmetricLongs sig)
    {
        c.section("putSignal/putSignalNbi SET");
        final int me = c.me();
        final int right = c.right();
        final int left = c.left();
        final SymmetricLongs dataL = s.allocateLongs(N);
        final SymmetricDoubles dataD = s.allocateDoubles(N);
        final SymmetricMemory dataM = s.malloc(N + 3);
        for (int round = 1; round <= 6; round++)
        {
            final boolean nbi = round % 2 == 0;
            final String routine = nbi ? "putSignalNbi(SET)" : "putSignal(SET)";
            final long[] src = new long[N];
            final double[] srcD = new double[N];
            final byte[] srcM = new byte[N + 3];
            for (int i = 0; i < N; i++)
            {
                src[i] = data(me, round, i);
                srcD[i] = src[i] * 0.5;
            }
            for (int i = 0; i < srcM.length; i++)
            {
                srcM[i] = (byte)(me * 17 + round * 3 + i);
            }
            final long value = round * 1000L + me;
            if (nbi)
            {
                s.putSignalNbi(dataL, 0, src, 0, N, sig, 0, value, SignalOp.SET, right);
                s.putSignalNbi(dataD, 0, srcD, 0, N, sig, 1, value, SignalOp.SET, right);
                s.putSignalNbi(dataM, 0, srcM, 0, srcM.length, sig, 2, value, SignalOp.SET, right);
                s.quiet();
            }
            else
            {
                s.putSignal(dataL, 0, src, 0, N, sig, 0, value, SignalOp.SET, right);
                s.putSignal(dataD, 0, srcD, 0, N, sig, 1, value, SignalOp.SET, right);
                s.putSignal(dataM, 0, srcM, 0, srcM.length, sig, 2, value, SignalOp.SET, right);
                java.util.Arrays.fill(src, -1);
                java.util.Arrays.fill(srcD, -1);
                java.util.Arrays.fill(srcM, (byte)-1);
            }
            final long expect = round * 1000L + left;
            c.eq(routine + " signalWaitUntil result", "longs", 0, expect, waitSignal(c, sig, 0, Cmp.EQ, expect, routine));
            for (int i = 0; i < N; i++)
            {
                c.eq(routine + " data seen after its signal", "longs", i, data(left, round, i), dataL.getLocal(i));
            }
            c.eq(routine + " signalWaitUntil result", "doubles", 1, expect, waitSignal(c, sig, 1, Cmp.EQ, expect, routine));
            for (int i = 0; i < N; i++)
            {
                c.eq(routine + " data seen after its signal", "doubles", i,
                    Double.doubleToRawLongBits(data(left, round, i) * 0.5), Double.doubleToRawLongBits(dataD.getLocal(i)));
            }
            c.eq(routine + " signalWaitUntil result", "memory", 2, expect, waitSignal(c, sig, 2, Cmp.EQ, expect, routine));
            for (int i = 0; i < N + 3; i++)
            {
                c.eq(routine + " data seen after its signal", "memory", i, (byte)(left * 17 + round * 3 + i),
                    dataM.asBytes().getLocal(i));
            }
            c.eq("signalFetch", "signal", 0, expect, sig.signalFetch(0));
            s.barrierAll();
        }
        s.free(dataM);
        s.free(dataD);
        s.free(dataL);
        for (int i = 0; i < 3; i++)
        {
            sig.setLocal(i, 0);
        }
        s.barrierAll();
    }

    /** Every PE put-signals its slot on PE 0 with ADD 1; PE 0 waits for n and sees every slot. */
    private static void putSignalAdd(final Shmem s, final Check c, final SymmetricLongs sig)
    {
        c.section("putSignal/putSignalNbi ADD");
        final int n = c.nPes();
        final int me = c.me();
        final SymmetricInts slots = s.allocateInts(4L * n);
        for (int round = 1; round <= 4; round++)
        {
            final boolean nbi = round % 2 == 0;
            final String routine = nbi ? "putSignalNbi(ADD)" : "putSignal(ADD)";
            final int[] src = {me, round, -me, round * 7 + me};
            if (nbi)
            {
                s.putSignalNbi(slots, 4L * me, src, 0, 4, sig, 3, 1, SignalOp.ADD, 0);
                s.quiet();
            }
            else
            {
                s.putSignal(slots, 4L * me, src, 0, 4, sig, 3, 1, SignalOp.ADD, 0);
            }
            if (me == 0)
            {
                final long want = (long)round * n;
                c.eq(routine + " signalWaitUntil(GE) result", "signal", 3, want, waitSignal(c, sig, 3, Cmp.GE, want, routine));
                for (int pe = 0; pe < n; pe++)
                {
                    final int[] exp = {pe, round, -pe, round * 7 + pe};
                    for (int j = 0; j < 4; j++)
                    {
                        c.eq(routine + " data of PE " + pe + " seen after the summed signal", "ints", 4L * pe + j, exp[j],
                            slots.getLocal(4L * pe + j));
                    }
                }
            }
            s.barrierAll();
        }
        s.free(slots);
    }

    /** signal_set and signal_add without data, ordered by fence; signal_fetch. */
    private static void signalOnly(final Shmem s, final Check c, final SymmetricLongs sig)
    {
        c.section("signalSet/signalAdd/signalFetch");
        final int me = c.me();
        final int right = c.right();
        final int left = c.left();
        s.signalSet(sig, 4, 5000 + me, right);
        s.fence();
        s.signalAdd(sig, 4, 3, right);
        final long want = 5003 + left;
        c.eq("signalSet, fence, signalAdd", "signal", 4, want, waitSignal(c, sig, 4, Cmp.EQ, want, "signalSet+signalAdd"));
        c.eq("signalFetch", "signal", 4, want, sig.signalFetch(4));
        s.barrierAll();
        // ADD from every PE to every PE
        for (int pe = 0; pe < c.nPes(); pe++)
        {
            s.signalAdd(sig, 5, me + 1, pe);
        }
        final long sum = (long)c.nPes() * (c.nPes() + 1) / 2;
        c.eq("signalAdd from every PE", "signal", 5, sum, waitSignal(c, sig, 5, Cmp.EQ, sum, "signalAdd"));
        // put_signal with no data elements updates only the signal
        s.putSignal(sig, 7, new long[0], 0, 0, sig, 6, 77, SignalOp.SET, right);
        c.eq("putSignal(count=0)", "signal", 6, 77, waitSignal(c, sig, 6, Cmp.EQ, 77, "putSignal(count=0)"));
        c.eq("putSignal(count=0) leaves the data alone", "longs", 7, 0, sig.getLocal(7));
        s.barrierAll();
    }

    /** Unsigned compares: values above Long.MAX_VALUE, and ADD wrapping past 2^64 - 1. */
    private static void unsigned(final Shmem s, final Check c, final SymmetricLongs sig)
    {
        c.section("signalWaitUntil unsigned compares");
        final int right = c.right();
        final long big = 0xFFFF_FFFF_FFFF_FFF0L;
        for (int i = 0; i < 8; i++)
        {
            sig.setLocal(i, 0);
        }
        s.barrierAll();
        s.signalSet(sig, 0, big, right);
        waitSignal(c, sig, 0, Cmp.GT, Long.MAX_VALUE, "signalWaitUntil(GT, Long.MAX_VALUE) on 0xFFFFFFFFFFFFFFF0");
        waitSignal(c, sig, 0, Cmp.GE, Long.MIN_VALUE, "signalWaitUntil(GE, 2^63)");
        waitSignal(c, sig, 0, Cmp.LT, -1L, "signalWaitUntil(LT, 2^64-1)");
        waitSignal(c, sig, 0, Cmp.NE, 0, "signalWaitUntil(NE, 0)");
        c.eq("signalWaitUntil(EQ) result above Long.MAX_VALUE", "signal", 0, big,
            waitSignal(c, sig, 0, Cmp.EQ, big, "signalWaitUntil(EQ, 0xFFFFFFFFFFFFFFF0)"));
        // 5 is below 2^63 unsigned, although 5 > -1 signed
        s.signalSet(sig, 1, 5, right);
        waitSignal(c, sig, 1, Cmp.LT, Long.MIN_VALUE, "signalWaitUntil(LT, 2^63) on 5");
        waitSignal(c, sig, 1, Cmp.LE, 5, "signalWaitUntil(LE, 5) on 5");
        s.barrierAll();
        // ADD wraps: 2^64 - 16 + 32 = 16
        s.signalAdd(sig, 0, 32, right);
        c.eq("signalAdd wrap past 2^64-1", "signal", 0, 16, waitSignal(c, sig, 0, Cmp.LT, 1000, "signalAdd wrap"));
        s.barrierAll();
    }
}
