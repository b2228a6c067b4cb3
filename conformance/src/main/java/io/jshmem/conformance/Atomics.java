package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymmetricDoubles;
import io.jshmem.SymmetricFloats;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricWords;

/**
 * Atomic memory operations (spec 1.6) on ints and longs: fetch, set, swap, compare_swap, fetch_inc,
 * inc, fetch_add, add, fetch_and/or/xor, and/or/xor and every fetching nbi form; every PE hammering
 * PE 0's counters and the totals checked; fetch_inc and a compare_swap ticket loop checked for
 * exactly-once results; 32-bit wrap-around and sign bits; atomics to every PE and through slices.
 * Extended atomics (fetch, set, swap) on floats and doubles, compared as raw bits (-0.0 included).
 * Runs at any PE count.
 */
public final class Atomics
{
    private static final int K = 200;

    private Atomics()
    {
    }

    /** @param args unused. */
    public static void main(final String[] args)
    {
        Spmd.run("Atomics", 1, (shmem, check) ->
        {
            for (final Amo amo : new Amo[] {Amo.INTS, Amo.LONGS})
            {
                final SymmetricWords<?> x = amo.allocate(shmem, 64);
                basic(shmem, check, amo, x);
                hammer(shmem, check, amo, x);
                bitwise(shmem, check, amo, x);
                tickets(shmem, check, amo, x);
                everyPe(shmem, check, amo, x);
                nbi(shmem, check, amo, x);
                shmem.barrierAll();
                shmem.free(x);
            }
            extended(shmem, check);
        });
    }

    private static long init(final Amo a, final int pe, final int j)
    {
        return a.wrap(0x8123_4567_89AB_CDEFL ^ (pe * 0x1_0001L) ^ ((long)j << 20));
    }

    private static void basic(final Shmem s, final Check c, final Amo a, final SymmetricWords<?> x)
    {
        c.section("atomics " + a.name + " fetch/set/swap/compare_swap");
        final int me = c.me();
        final int right = c.right();
        final int left = c.left();
        a.setLocal(x, 0, init(a, me, 0));
        s.barrierAll();
        c.eq("atomicFetch", a.name, 0, init(a, right, 0), a.fetch(s, x, 0, right));

        a.set(s, x, 1, init(a, me, 1), right);
        s.barrierAll();
        c.eq("atomicSet", a.name, 1, init(a, left, 1), a.local(x, 1));
        s.barrierAll(); // the left neighbour's swap below must not overtake this check

        // right's x[1] holds what this PE set
        c.eq("atomicSwap (old value)", a.name, 1, init(a, me, 1), a.swap(s, x, 1, init(a, me, 2), right));
        s.barrierAll();
        c.eq("atomicSwap (new value)", a.name, 1, init(a, left, 2), a.local(x, 1));
        s.barrierAll(); // the left neighbour's compare_swap below must not overtake this check

        c.eq("atomicCompareSwap (cond false: old value)", a.name, 1, init(a, me, 2),
            a.compareSwap(s, x, 1, init(a, me, 1), 999, right));
        c.eq("atomicCompareSwap (cond true: old value)", a.name, 1, init(a, me, 2),
            a.compareSwap(s, x, 1, init(a, me, 2), init(a, me, 3), right));
        s.barrierAll();
        c.eq("atomicCompareSwap (new value)", a.name, 1, init(a, left, 3), a.local(x, 1));

        // through a slice: slice(48, 4)[1] is x[49]
        a.add(s, (SymmetricWords<?>)x.slice(48, 4), 1, 7, right);
        s.barrierAll();
        c.eq("atomicAdd through slice(48,4) index 1", a.name, 49, 7, a.local(x, 49));
        s.barrierAll();
    }

    /** Every PE hammers PE 0's counters; totals and exactly-once fetch_inc results checked. */
    private static void hammer(final Shmem s, final Check c, final Amo a, final SymmetricWords<?> x)
    {
        c.section("atomics " + a.name + " all PEs hammer PE 0");
        final int n = c.nPes();
        final int me = c.me();
        final long start = a.wrap(a.bits == 32 ? 0x7FFF_FFF0L : 0x7FFF_FFFF_FFFF_FFF0L);
        if (me == 0)
        {
            a.setLocal(x, 12, start);
        }
        s.barrierAll();
        final long[] tickets = new long[K];
        long prev = -1;
        long prevAdd = -1;
        for (int i = 0; i < K; i++)
        {
            tickets[i] = a.fetchInc(s, x, 8, 0);
            a.inc(s, x, 9, 0);
            final long old = a.fetchAdd(s, x, 10, me + 1, 0);
            a.add(s, x, 11, me + 1, 0);
            if (i > 0)
            {
                c.isTrue(tickets[i] > prev, "atomicFetchInc", "type=" + a.name + " call " + i + " returned " + tickets[i] +
                    " after " + prev + " (values seen by one PE must increase)");
                c.isTrue(old > prevAdd, "atomicFetchAdd", "type=" + a.name + " call " + i + " returned " + old +
                    " after " + prevAdd + " (values seen by one PE must increase)");
            }
            prev = tickets[i];
            prevAdd = old;
        }
        a.add(s, x, 12, 0x10, 0);
        s.barrierAll();
        final long total = (long)K * n;
        final long weighted = (long)K * n * (n + 1) / 2;
        c.eq("atomicFetch of atomicFetchInc counter", a.name, 8, a.wrap(total), a.fetch(s, x, 8, 0));
        c.eq("atomicFetch of atomicInc counter", a.name, 9, a.wrap(total), a.fetch(s, x, 9, 0));
        c.eq("atomicFetch of atomicFetchAdd counter", a.name, 10, a.wrap(weighted), a.fetch(s, x, 10, 0));
        c.eq("atomicFetch of atomicAdd counter", a.name, 11, a.wrap(weighted), a.fetch(s, x, 11, 0));
        if (me == 0)
        {
            c.eq("atomicAdd wrap-around", a.name, 12, a.wrap(start + 0x10L * n), a.local(x, 12));
        }
        exactlyOnce(s, c, "atomicFetchInc (" + a.name + ")", tickets, (int)total);
    }

    /**
     * Checks that the values every PE got, taken together, are exactly 0..total-1, each once: each PE
     * increments a claim counter on PE 0 per value, then PE 0 checks every counter is 1.
     */
    static void exactlyOnce(final Shmem s, final Check c, final String routine, final long[] values, final int total)
    {
        final SymmetricInts claims = s.allocateInts(total);
        for (final long v : values)
        {
            if (c.isTrue(v >= 0 && v < total, routine, "returned " + v + ", outside 0.." + (total - 1)))
            {
                s.atomicInc(claims, v, 0);
            }
        }
        s.barrierAll();
        if (c.me() == 0)
        {
            for (int t = 0; t < total; t++)
            {
                final int count = claims.getLocal(t);
                if (count != 1)
                {
                    c.fail(routine, "value " + t + " was returned " + count + " times over all PEs, expected exactly once");
                }
            }
        }
        s.free(claims);
    }

    private static void bitwise(final Shmem s, final Check c, final Amo a, final SymmetricWords<?> x)
    {
        c.section("atomics " + a.name + " and/or/xor");
        final int n = c.nPes();
        final int me = c.me();
        final long pattern = a.wrap(0x5A5A_F00F_3C3C_0FF0L);
        long all = 0;
        for (int pe = 0; pe < n; pe++)
        {
            all |= bit(a, pe);
        }
        all = a.wrap(all);
        if (me == 0)
        {
            a.setLocal(x, 16, 0);
            a.setLocal(x, 17, -1);
            a.setLocal(x, 18, pattern);
            a.setLocal(x, 19, 0);
            a.setLocal(x, 20, -1);
            a.setLocal(x, 21, 0);
        }
        s.barrierAll();
        final long b = bit(a, me);
        a.or(s, x, 16, b, 0);
        a.and(s, x, 17, ~b, 0);
        a.xor(s, x, 18, b, 0);
        final long oldOr = a.fetchOr(s, x, 19, b, 0);
        final long oldAnd = a.fetchAnd(s, x, 20, ~b, 0);
        final long oldXor = a.fetchXor(s, x, 21, b, 0);
        c.isTrue((oldOr & b) == 0 && (oldOr & ~all) == 0, "atomicFetchOr",
            "type=" + a.name + " old=0x" + Long.toHexString(oldOr) + " should hold only other PEs' bits of 0x" + Long.toHexString(all));
        c.isTrue((oldAnd & b) != 0, "atomicFetchAnd",
            "type=" + a.name + " old=0x" + Long.toHexString(oldAnd) + " should still hold this PE's bit 0x" + Long.toHexString(b));
        c.isTrue((oldXor & b) == 0, "atomicFetchXor",
            "type=" + a.name + " old=0x" + Long.toHexString(oldXor) + " should not hold this PE's bit 0x" + Long.toHexString(b));
        s.barrierAll();
        if (me == 0)
        {
            c.eq("atomicOr", a.name, 16, all, a.local(x, 16));
            c.eq("atomicAnd", a.name, 17, a.wrap(~all), a.local(x, 17));
            c.eq("atomicXor", a.name, 18, a.wrap(pattern ^ all), a.local(x, 18));
            c.eq("atomicFetchOr (final)", a.name, 19, all, a.local(x, 19));
            c.eq("atomicFetchAnd (final)", a.name, 20, a.wrap(~all), a.local(x, 20));
            c.eq("atomicFetchXor (final)", a.name, 21, all, a.local(x, 21));
        }
        s.barrierAll();
    }

    /** PE p's bit: counted down from the sign bit, so the sign bit is always exercised. */
    private static long bit(final Amo a, final int pe)
    {
        return a.wrap(1L << (a.bits - 1 - pe % a.bits));
    }

    /** Tickets claimed by compare_swap: every ticket exactly once over all PEs. */
    private static void tickets(final Shmem s, final Check c, final Amo a, final SymmetricWords<?> x)
    {
        c.section("atomics " + a.name + " compare_swap tickets");
        final int n = c.nPes();
        final int total = 50 * n;
        final long[] mine = new long[total];
        int claimed = 0;
        int attempts = 0;
        while (true)
        {
            final long t = a.fetch(s, x, 24, 0);
            if (t >= total)
            {
                break;
            }
            attempts++;
            if (a.compareSwap(s, x, 24, t, t + 1, 0) == t)
            {
                mine[claimed++] = t;
            }
            if (attempts > 100 * total)
            {
                c.fail("atomicCompareSwap", "type=" + a.name + " no progress after " + attempts + " attempts");
                break;
            }
        }
        a.add(s, x, 25, claimed, 0);
        s.barrierAll();
        c.eq("atomicCompareSwap ticket counter", a.name, 24, total, a.fetch(s, x, 24, 0));
        c.eq("atomicAdd of claimed-ticket counts", a.name, 25, total, a.fetch(s, x, 25, 0));
        exactlyOnce(s, c, "atomicCompareSwap tickets (" + a.name + ")", java.util.Arrays.copyOf(mine, claimed), total);
    }

    private static void everyPe(final Shmem s, final Check c, final Amo a, final SymmetricWords<?> x)
    {
        c.section("atomics " + a.name + " to every PE");
        final int n = c.nPes();
        final int me = c.me();
        long oldSum = 0;
        for (int pe = 0; pe < n; pe++)
        {
            a.add(s, x, 26, me + 1, pe);
            oldSum += a.fetchAdd(s, x, 27, 1, pe);
        }
        c.isTrue(oldSum >= 0 && oldSum <= (long)n * (n - 1), "atomicFetchAdd", "type=" + a.name + " sum of old values " + oldSum +
            " outside 0.." + (long)n * (n - 1));
        s.barrierAll();
        c.eq("atomicAdd from every PE", a.name, 26, (long)n * (n + 1) / 2, a.local(x, 26));
        c.eq("atomicFetchAdd from every PE", a.name, 27, n, a.local(x, 27));
        s.barrierAll();
    }

    private static void nbi(final Shmem s, final Check c, final Amo a, final SymmetricWords<?> x)
    {
        c.section("atomics " + a.name + " fetching nbi forms");
        final int me = c.me();
        final int right = c.right();
        final int left = c.left();
        final int base = 32;
        for (int j = 0; j < 9; j++)
        {
            a.setLocal(x, base + j, init(a, me, j));
        }
        s.barrierAll();
        final long mask = a.wrap(0x0F0F_0F0F_0F0F_0F0FL);
        final Object buf = a.newFetchBuffer(9);
        a.nbi(Amo.NbiOp.FETCH, s, buf, 0, x, base, 0, 0, right);
        a.nbi(Amo.NbiOp.SWAP, s, buf, 1, x, base + 1, 0, init(a, me, 101), right);
        a.nbi(Amo.NbiOp.COMPARE_SWAP, s, buf, 2, x, base + 2, init(a, right, 2), init(a, me, 102), right);
        a.nbi(Amo.NbiOp.COMPARE_SWAP, s, buf, 3, x, base + 3, init(a, right, 3) + 1, init(a, me, 103), right);
        a.nbi(Amo.NbiOp.FETCH_INC, s, buf, 4, x, base + 4, 0, 0, right);
        a.nbi(Amo.NbiOp.FETCH_ADD, s, buf, 5, x, base + 5, 0, 5, right);
        a.nbi(Amo.NbiOp.FETCH_AND, s, buf, 6, x, base + 6, 0, mask, right);
        a.nbi(Amo.NbiOp.FETCH_OR, s, buf, 7, x, base + 7, 0, mask, right);
        a.nbi(Amo.NbiOp.FETCH_XOR, s, buf, 8, x, base + 8, 0, mask, right);
        s.quiet();
        final String[] names = {"atomicFetchNbi", "atomicSwapNbi", "atomicCompareSwapNbi (cond true)",
            "atomicCompareSwapNbi (cond false)", "atomicFetchIncNbi", "atomicFetchAddNbi", "atomicFetchAndNbi",
            "atomicFetchOrNbi", "atomicFetchXorNbi"};
        for (int j = 0; j < 9; j++)
        {
            c.eq(names[j] + " (fetched after quiet)", a.name, base + j, init(a, right, j), a.fetched(buf, j));
        }
        s.barrierAll();
        final long[] want = {
            init(a, me, 0),
            init(a, left, 101),
            init(a, left, 102),
            init(a, me, 3),
            a.wrap(init(a, me, 4) + 1),
            a.wrap(init(a, me, 5) + 5),
            a.wrap(init(a, me, 6) & mask),
            a.wrap(init(a, me, 7) | mask),
            a.wrap(init(a, me, 8) ^ mask)};
        for (int j = 0; j < 9; j++)
        {
            c.eq(names[j] + " (target after quiet + barrier)", a.name, base + j, want[j], a.local(x, base + j));
        }
        s.barrierAll();

        // every PE issues K fetch_inc_nbi to PE 0 before one quiet: each value exactly once
        final Object many = a.newFetchBuffer(K);
        for (int i = 0; i < K; i++)
        {
            a.nbi(Amo.NbiOp.FETCH_INC, s, many, i, x, 41, 0, 0, 0);
        }
        s.quiet();
        final long[] got = new long[K];
        for (int i = 0; i < K; i++)
        {
            got[i] = a.fetched(many, i);
        }
        s.barrierAll();
        exactlyOnce(s, c, "atomicFetchIncNbi x" + K + " (" + a.name + ")", got, K * c.nPes());
    }

    private static void extended(final Shmem s, final Check c)
    {
        c.section("atomics floats/doubles fetch/set/swap");
        final int me = c.me();
        final int right = c.right();
        final int left = c.left();
        final float[] fv = {-0.0f, Float.MIN_VALUE, Float.MAX_VALUE, -1.5f, Float.NEGATIVE_INFINITY, 3.25e-30f};
        final double[] dv = {-0.0, Double.MIN_VALUE, Double.MAX_VALUE, -1.5, Double.POSITIVE_INFINITY, 3.25e-300};
        final SymmetricFloats f = s.allocateFloats(4);
        final SymmetricDoubles d = s.allocateDoubles(4);
        f.setLocal(0, fv[me % fv.length]);
        d.setLocal(0, dv[me % dv.length]);
        s.barrierAll();
        c.eq("atomicFetch", "floats", 0, Float.floatToRawIntBits(fv[right % fv.length]),
            Float.floatToRawIntBits(s.atomicFetch(f, 0, right)));
        c.eq("atomicFetch", "doubles", 0, Double.doubleToRawLongBits(dv[right % dv.length]),
            Double.doubleToRawLongBits(s.atomicFetch(d, 0, right)));
        s.atomicSet(f, 1, fv[(me + 1) % fv.length], right);
        s.atomicSet(d, 1, dv[(me + 1) % dv.length], right);
        s.barrierAll();
        c.eq("atomicSet", "floats", 1, Float.floatToRawIntBits(fv[(left + 1) % fv.length]), Float.floatToRawIntBits(f.getLocal(1)));
        c.eq("atomicSet", "doubles", 1, Double.doubleToRawLongBits(dv[(left + 1) % dv.length]), Double.doubleToRawLongBits(d.getLocal(1)));
        s.barrierAll(); // the left neighbour's swap below must not overtake these checks
        c.eq("atomicSwap (old value)", "floats", 1, Float.floatToRawIntBits(fv[(me + 1) % fv.length]),
            Float.floatToRawIntBits(s.atomicSwap(f, 1, fv[(me + 2) % fv.length], right)));
        c.eq("atomicSwap (old value)", "doubles", 1, Double.doubleToRawLongBits(dv[(me + 1) % dv.length]),
            Double.doubleToRawLongBits(s.atomicSwap(d, 1, dv[(me + 2) % dv.length], right)));
        s.barrierAll();
        c.eq("atomicSwap (new value)", "floats", 1, Float.floatToRawIntBits(fv[(left + 2) % fv.length]), Float.floatToRawIntBits(f.getLocal(1)));
        c.eq("atomicSwap (new value)", "doubles", 1, Double.doubleToRawLongBits(dv[(left + 2) % dv.length]),
            Double.doubleToRawLongBits(d.getLocal(1)));
        s.barrierAll();
        s.free(d);
        s.free(f);
    }
}
