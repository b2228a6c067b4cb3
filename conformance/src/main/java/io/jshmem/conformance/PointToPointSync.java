package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricWords;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Point-to-point synchronization (spec 1.8) on ints and longs: wait_until and test with every
 * comparison (signed), wait_until_all/any/some and their _vector forms with status masks,
 * test_all/any/some and their _vector forms, the empty-set rules (all elements masked, or a zero-length
 * slice: wait_until_all returns, wait_until_any returns -1, wait_until_some returns 0, test_all is
 * true, test_any is -1, test_some is 0), fairness of any (every satisfied element reported eventually),
 * and waits released by every PE's atomic. Flags are written with atomic set, as the spec requires;
 * each wait is preceded by a bounded poll with test so that a lost update fails instead of hanging.
 * Runs at any PE count.
 */
public final class PointToPointSync
{
    private static final int M = 8;

    private PointToPointSync()
    {
    }

    /** @param args unused. */
    public static void main(final String[] args)
    {
        Spmd.run("PointToPointSync", 1, (shmem, check) ->
        {
            for (final Amo amo : new Amo[] {Amo.INTS, Amo.LONGS})
            {
                new Run(shmem, check, amo).run();
            }
        });
    }

    private static final class Run
    {
        private final Shmem s;
        private final Check c;
        private final Amo a;
        private final String t;
        private final int right;
        private SymmetricWords<?> x;

        Run(final Shmem s, final Check c, final Amo a)
        {
            this.s = s;
            this.c = c;
            this.a = a;
            this.t = a.name;
            this.right = c.right();
        }

        void run()
        {
            x = a.allocate(s, M);
            single();
            all();
            any();
            some();
            vectors();
            emptySets();
            fairness();
            fromEveryPe();
            s.barrierAll();
            s.free(x);
        }

        /** Zeroes this PE's words (after the previous phase's barrier) and barriers. */
        private void reset()
        {
            for (int i = 0; i < M; i++)
            {
                a.setLocal(x, i, 0);
            }
            s.barrierAll();
        }

        private void awaitAll(final String routine, final int[] status, final Cmp cmp, final long value)
        {
            c.await(routine, "testAll(" + Arrays.toString(status) + ", " + cmp + ", " + value + ") on " + t + " " + dump(),
                () -> x.testAll(status, cmp, value));
        }

        private String dump()
        {
            final long[] v = new long[M];
            for (int i = 0; i < M; i++)
            {
                v[i] = a.local(x, i);
            }
            return Arrays.toString(v);
        }

        private void single()
        {
            c.section("waitUntil/test " + t);
            final Cmp[] cmps = {Cmp.EQ, Cmp.NE, Cmp.GT, Cmp.GE, Cmp.LT, Cmp.LE, Cmp.LT, Cmp.LE};
            final long[] value = {5, 0, 10, 10, -3, -3, 0, -1};
            final long[] target = {5, 7, 11, 10, -4, -3, a.wrap(Long.MIN_VALUE >> (64 - a.bits)), -1};
            reset();
            for (int k = 0; k < cmps.length; k++)
            {
                c.isTrue(!x.test(k, cmps[k], value[k]), "test", "type=" + t + " index=" + k + " 0 " + cmps[k] + " " + value[k] +
                    " should be false before the update");
            }
            s.barrierAll();
            for (int k = 0; k < cmps.length; k++)
            {
                a.set(s, x, k, target[k], right);
            }
            for (int k = 0; k < cmps.length; k++)
            {
                final int kk = k;
                c.await("waitUntil", "element " + k + " " + cmps[k] + " " + value[k] + " (" + t + ")",
                    () -> x.test(kk, cmps[kk], value[kk]));
                x.waitUntil(k, cmps[k], value[k]);
                c.eq("waitUntil(" + cmps[k] + ", " + value[k] + ") then read", t, k, target[k], a.local(x, k));
                c.isTrue(x.test(k, cmps[k], value[k]), "test", "type=" + t + " index=" + k + " " + a.local(x, k) + " " +
                    cmps[k] + " " + value[k] + " should be true after the update");
            }
            s.barrierAll();
        }

        private void all()
        {
            c.section("waitUntilAll/testAll " + t);
            reset();
            final int[] oddMasked = {0, 1, 0, 1, 0, 1, 0, 1};
            for (int i = 0; i < M; i += 2)
            {
                a.set(s, x, i, 1, right);
            }
            awaitAll("waitUntilAll", oddMasked, Cmp.EQ, 1);
            x.waitUntilAll(oddMasked, Cmp.EQ, 1);
            for (int i = 0; i < M; i++)
            {
                c.eq("waitUntilAll(status masks odd elements)", t, i, i % 2 == 0 ? 1 : 0, a.local(x, i));
            }
            c.isTrue(!x.testAll(null, Cmp.EQ, 1), "testAll", "type=" + t + " status=null should be false: odd elements are 0");
            c.isTrue(x.testAll(oddMasked, Cmp.EQ, 1), "testAll", "type=" + t + " status masks odd elements: should be true");
            c.isTrue(x.testAll(null, Cmp.GE, 0), "testAll", "type=" + t + " GE 0 over all elements should be true");
            s.barrierAll();
        }

        private void any()
        {
            c.section("waitUntilAny/testAny " + t);
            reset();
            c.eq("testAny", t + " nothing satisfied yet", -1L, x.testAny(null, Cmp.EQ, 1));
            s.barrierAll();
            a.set(s, x, 2, 1, right);
            a.set(s, x, 5, 1, right);
            final int[] mask5 = new int[M];
            mask5[5] = 1;
            c.await("waitUntilAny", "element 2 == 1 (" + t + ")", () -> x.test(2, Cmp.EQ, 1));
            c.eq("waitUntilAny(status masks 5)", t, -1, 2L, x.waitUntilAny(mask5, Cmp.EQ, 1));
            final long either = x.waitUntilAny(null, Cmp.EQ, 1);
            c.isTrue(either == 2 || either == 5, "waitUntilAny", "type=" + t + " returned " + either + ", expected 2 or 5");
            awaitAll("waitUntilAny", new int[] {1, 1, 0, 1, 1, 0, 1, 1}, Cmp.EQ, 1);
            c.eq("testAny(status masks 5)", t, -1, 2L, x.testAny(mask5, Cmp.EQ, 1));
            final long any = x.testAny(null, Cmp.NE, 0);
            c.isTrue(any == 2 || any == 5, "testAny", "type=" + t + " returned " + any + ", expected 2 or 5");
            c.eq("testAny(GT 1)", t, -1, -1L, x.testAny(null, Cmp.GT, 1));
            s.barrierAll();
        }

        private void some()
        {
            c.section("waitUntilSome/testSome " + t);
            reset();
            final int[] idx = new int[M];
            c.eq("testSome", t + " nothing satisfied yet", 0, x.testSome(idx, null, Cmp.EQ, 1));
            s.barrierAll();
            a.set(s, x, 1, 1, right);
            a.set(s, x, 3, 1, right);
            a.set(s, x, 6, 1, right);
            c.await("waitUntilSome", "element 1, 3 or 6 == 1 (" + t + ")", () -> x.testAny(null, Cmp.EQ, 1) >= 0);
            Arrays.fill(idx, -7);
            final int got = x.waitUntilSome(idx, null, Cmp.EQ, 1);
            c.isTrue(got >= 1 && got <= 3, "waitUntilSome", "type=" + t + " returned " + got + ", expected 1..3");
            for (int j = 0; j < got && j < M; j++)
            {
                c.isTrue(idx[j] == 1 || idx[j] == 3 || idx[j] == 6, "waitUntilSome",
                    "type=" + t + " indices[" + j + "]=" + idx[j] + ", expected one of 1, 3, 6; indices=" + Arrays.toString(idx));
            }
            awaitAll("waitUntilSome", new int[] {1, 0, 1, 0, 1, 1, 0, 1}, Cmp.EQ, 1);
            Arrays.fill(idx, -7);
            c.eq("testSome", t + " count", 3, x.testSome(idx, null, Cmp.EQ, 1));
            c.eq("testSome", t + " indices", "[1, 3, 6]", Arrays.toString(Arrays.copyOf(idx, 3)));
            final int[] mask3 = new int[M];
            mask3[3] = 1;
            c.eq("testSome(status masks 3)", t + " count", 2, x.testSome(idx, mask3, Cmp.EQ, 1));
            c.eq("waitUntilSome(status masks 3)", t + " count", 2, x.waitUntilSome(idx, mask3, Cmp.EQ, 1));
            c.eq("waitUntilSome(status masks 3)", t + " indices", "[1, 6]", Arrays.toString(Arrays.copyOf(idx, 2)));
            s.barrierAll();
        }

        private void vectors()
        {
            c.section("_vector forms " + t);
            reset();
            final long[] values = new long[M];
            for (int i = 0; i < M; i++)
            {
                values[i] = a.wrap(100 + i - (i % 3 == 0 ? 1L << (a.bits - 2) : 0));
            }
            final int[] oddMasked = {0, 1, 0, 1, 0, 1, 0, 1};
            c.isTrue(!x.testAllVector(oddMasked, Cmp.EQ, values), "testAllVector", "type=" + t + " should be false before the update");
            c.eq("testAnyVector", t + " before the update", -1L, x.testAnyVector(null, Cmp.EQ, values));
            s.barrierAll();
            for (int i = 0; i < M; i += 2)
            {
                a.set(s, x, i, values[i], right);
            }
            c.await("waitUntilAnyVector", "an even element == values[i] (" + t + ") " + dump(),
                () -> x.testAnyVector(null, Cmp.EQ, values) >= 0);
            final long any = x.waitUntilAnyVector(null, Cmp.EQ, values);
            c.isTrue(any >= 0 && any % 2 == 0, "waitUntilAnyVector", "type=" + t + " returned " + any + ", expected an even index");
            final int[] idx = new int[M];
            final int some = x.waitUntilSomeVector(idx, null, Cmp.EQ, values);
            c.isTrue(some >= 1 && some <= 4, "waitUntilSomeVector", "type=" + t + " returned " + some + ", expected 1..4");
            for (int j = 0; j < some && j < M; j++)
            {
                c.isTrue(idx[j] % 2 == 0, "waitUntilSomeVector", "type=" + t + " indices=" + Arrays.toString(idx) + ": odd index");
            }
            c.await("waitUntilAllVector", "even elements == values[i] (" + t + ") " + dump(),
                () -> x.testAllVector(oddMasked, Cmp.EQ, values));
            x.waitUntilAllVector(oddMasked, Cmp.EQ, values);
            for (int i = 0; i < M; i++)
            {
                c.eq("waitUntilAllVector then read", t, i, i % 2 == 0 ? values[i] : 0, a.local(x, i));
            }
            c.isTrue(x.testAllVector(oddMasked, Cmp.EQ, values), "testAllVector", "type=" + t + " odd masked: should be true");
            c.isTrue(!x.testAllVector(null, Cmp.EQ, values), "testAllVector", "type=" + t + " nothing masked: should be false");
            Arrays.fill(idx, -7);
            c.eq("testSomeVector", t + " count", 4, x.testSomeVector(idx, null, Cmp.EQ, values));
            c.eq("testSomeVector", t + " indices", "[0, 2, 4, 6]", Arrays.toString(Arrays.copyOf(idx, 4)));
            final int[] mask02 = {1, 0, 1, 0, 0, 0, 0, 0};
            c.eq("testSomeVector(status masks 0, 2)", t + " count", 2, x.testSomeVector(idx, mask02, Cmp.EQ, values));
            c.eq("testSomeVector(status masks 0, 2)", t + " indices", "[4, 6]", Arrays.toString(Arrays.copyOf(idx, 2)));
            final long a4 = x.testAnyVector(new int[] {1, 1, 1, 1, 0, 1, 1, 1}, Cmp.EQ, values);
            c.eq("testAnyVector(only 4 included)", t, -1, 4L, a4);
            final long[] lower = values.clone();
            for (int i = 0; i < M; i++)
            {
                lower[i] = i % 2 == 0 ? values[i] : 1;
            }
            c.isTrue(!x.testAllVector(null, Cmp.GE, lower), "testAllVector(GE)", "type=" + t + " odd elements are 0 < 1: false");
            c.isTrue(x.testAllVector(null, Cmp.LE, maxed(values)),
                "testAllVector(LE)", "type=" + t + " every element <= its value: true");
            s.barrierAll();
        }

        /** @return values with odd entries raised to the maximum, so that 0 <= them. */
        private long[] maxed(final long[] values)
        {
            final long[] m = values.clone();
            for (int i = 1; i < M; i += 2)
            {
                m[i] = a.wrap(Long.MAX_VALUE >>> (64 - a.bits));
            }
            return m;
        }

        private void emptySets()
        {
            c.section("empty-set rules " + t);
            reset();
            final int[] allMasked = new int[M];
            Arrays.fill(allMasked, 1);
            final long[] values = new long[M];
            Arrays.fill(values, 12345);
            final int[] idx = new int[M];
            x.waitUntilAll(allMasked, Cmp.EQ, 12345);
            c.isTrue(true, "waitUntilAll", "all masked: returned");
            x.waitUntilAllVector(allMasked, Cmp.EQ, values);
            c.isTrue(true, "waitUntilAllVector", "all masked: returned");
            c.eq("waitUntilAny(all masked)", t, -1, -1L, x.waitUntilAny(allMasked, Cmp.EQ, 12345));
            c.eq("waitUntilAnyVector(all masked)", t, -1, -1L, x.waitUntilAnyVector(allMasked, Cmp.EQ, values));
            c.eq("waitUntilSome(all masked)", t, -1, 0, x.waitUntilSome(idx, allMasked, Cmp.EQ, 12345));
            c.eq("waitUntilSomeVector(all masked)", t, -1, 0, x.waitUntilSomeVector(idx, allMasked, Cmp.EQ, values));
            c.isTrue(x.testAll(allMasked, Cmp.EQ, 12345), "testAll", "type=" + t + " all masked must be true");
            c.isTrue(x.testAllVector(allMasked, Cmp.EQ, values), "testAllVector", "type=" + t + " all masked must be true");
            c.eq("testAny(all masked)", t, -1, -1L, x.testAny(allMasked, Cmp.EQ, 12345));
            c.eq("testAnyVector(all masked)", t, -1, -1L, x.testAnyVector(allMasked, Cmp.EQ, values));
            c.eq("testSome(all masked)", t, -1, 0, x.testSome(idx, allMasked, Cmp.EQ, 12345));
            c.eq("testSomeVector(all masked)", t, -1, 0, x.testSomeVector(idx, allMasked, Cmp.EQ, values));

            final SymmetricWords<?> empty = (SymmetricWords<?>)x.slice(3, 0);
            final long[] none = new long[0];
            empty.waitUntilAll(null, Cmp.EQ, 12345);
            c.isTrue(true, "waitUntilAll", "zero-length slice: returned");
            c.eq("waitUntilAny(zero-length slice)", t, -1, -1L, empty.waitUntilAny(null, Cmp.EQ, 12345));
            c.eq("waitUntilSome(zero-length slice)", t, -1, 0, empty.waitUntilSome(new int[0], null, Cmp.EQ, 12345));
            c.isTrue(empty.testAll(null, Cmp.EQ, 12345), "testAll", "type=" + t + " zero-length slice must be true");
            c.eq("testAny(zero-length slice)", t, -1, -1L, empty.testAny(null, Cmp.EQ, 12345));
            c.eq("testSome(zero-length slice)", t, -1, 0, empty.testSome(new int[0], null, Cmp.EQ, 12345));
            c.eq("testAnyVector(zero-length slice)", t, -1, -1L, empty.testAnyVector(null, Cmp.EQ, none));
            s.barrierAll();
        }

        /** Repeated any calls must eventually report every satisfied element. */
        private void fairness()
        {
            c.section("fairness of any " + t);
            for (int i = 0; i < M; i++)
            {
                a.setLocal(x, i, 1);
            }
            final BitSet seenTest = new BitSet();
            final BitSet seenWait = new BitSet();
            for (int r = 0; r < 4000 && (seenTest.cardinality() < M || seenWait.cardinality() < M); r++)
            {
                seenTest.set((int)x.testAny(null, Cmp.EQ, 1));
                seenWait.set((int)x.waitUntilAny(null, Cmp.EQ, 1));
            }
            c.eq("testAny fairness", t + " indices reported over 4000 calls", M, seenTest.cardinality());
            c.eq("waitUntilAny fairness", t + " indices reported over 4000 calls", M, seenWait.cardinality());
            s.barrierAll();
        }

        /** Every PE releases PE 0's wait on its own element. */
        private void fromEveryPe()
        {
            c.section("waits released by every PE " + t);
            reset();
            final int n = Math.min(c.nPes(), M);
            if (c.me() < n)
            {
                a.set(s, x, c.me(), c.me() + 1, 0);
            }
            if (c.me() == 0)
            {
                final SymmetricWords<?> mine = (SymmetricWords<?>)x.slice(0, n);
                c.await("waitUntilAll", "every PE's element != 0 (" + t + ") " + dump(), () -> mine.testAll(null, Cmp.NE, 0));
                mine.waitUntilAll(null, Cmp.NE, 0);
                for (int i = 0; i < n; i++)
                {
                    c.eq("waitUntilAll released by every PE", t, i, i + 1, a.local(x, i));
                }
            }
            s.barrierAll();
        }
    }
}
