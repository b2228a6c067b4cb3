package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Spmd;

import java.util.SplittableRandom;
import java.util.function.IntUnaryOperator;

/**
 * Property-based checks of teams and collectives against their arithmetic definitions, driven by one
 * seed that every PE shares (so every PE draws the same random choices and the collectives stay
 * matched). Each round draws:
 * <ul>
 *   <li>a triplet (start, stride, size) of WORLD, sometimes one that leaves WORLD (every PE must get
 *       {@code IllegalArgumentException}); membership, team numbers, {@code worldPe} and
 *       {@code translatePe} of every PE in both directions are checked against
 *       {@code start + i * stride};</li>
 *   <li>a nested triplet of that team, checked against the composed arithmetic;</li>
 *   <li>split_2d of WORLD or the team with a random x range (1 .. nPes + 2): row = pe div x, column =
 *       pe mod x, team sizes and translations;</li>
 *   <li>on the team: a random collective (broadcast with a random root, fcollect, collect with random
 *       per-PE counts, alltoall, alltoalls with random strides, a random reduction on a random type,
 *       inscan, exscan) with a random count (0 .. 5000 elements, so that chunked and direct paths
 *       run), checked element by element, dest guard elements included.</li>
 * </ul>
 * Run by {@code CollPropertiesIT} with printed seeds: {@code CollProperties SEED ROUNDS}; a failure
 * line names the seed and the round so the case can be replayed.
 */
public final class CollProperties
{
    private static final int MAX_COUNT = 5000;

    private CollProperties()
    {
    }

    /** @param args seed, rounds. */
    public static void main(final String[] args)
    {
        final long seed = Long.parseLong(args[0]);
        final int rounds = Integer.parseInt(args[1]);
        Spmd.run("CollProperties", 1, (shmem, check) -> run(shmem, check, seed, rounds));
    }

    static void run(final Shmem shmem, final Check check, final long seed, final int rounds)
    {
        final int n = shmem.nPes();
        if (shmem.myPe() == 0)
        {
            System.out.println("  CollProperties: seed " + seed + ", " + rounds + " rounds, " + n + " PEs");
        }
        final SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < rounds; round++)
        {
            check.section("seed " + seed + " round " + round);
            final int start = rnd.nextInt(n);
            int stride = rnd.nextInt(-n, n + 1);
            final int maxSize = stride == 0 ? 1 : stride > 0 ? (n - 1 - start) / stride + 1 : start / -stride + 1;
            final boolean bad = rnd.nextInt(6) == 0;
            int size = bad ? maxSize + 1 + rnd.nextInt(3) : 1 + rnd.nextInt(maxSize);
            if (bad && stride == 0)
            {
                stride = 0;
                size = 2;
            }
            final int st = stride;
            final int sz = size;
            if (bad)
            {
                check.throwsOneOf("team_split_strided", "start=" + start + " stride=" + st + " size=" + sz + " (outside WORLD)",
                    () -> shmem.teamWorld().splitStrided(start, st, sz), new String[] {"[pe ", "splitStrided"},
                    IllegalArgumentException.class);
                continue;
            }
            final Team team = shmem.teamWorld().splitStrided(start, st, sz);
            checkTriplet(shmem, check, team, shmem.teamWorld(), start, st, sz, "(" + start + ", " + st + ", " + sz + ")");
            // nested: a triplet of the team, relative to it (drawn on every PE to keep the draws in step)
            {
                final int pStart = rnd.nextInt(sz);
                final int pStride = sz == 1 ? 0 : rnd.nextInt(-sz + 1, sz);
                final int pMax = pStride == 0 ? 1 : pStride > 0 ? (sz - 1 - pStart) / pStride + 1 : pStart / -pStride + 1;
                final int pSize = 1 + rnd.nextInt(pMax);
                if (team.isValid())
                {
                    final Team sub = team.splitStrided(pStart, pStride, pSize);
                    checkTriplet(shmem, check, sub, team, pStart, pStride, pSize,
                        "(" + pStart + ", " + pStride + ", " + pSize + ") of (" + start + ", " + st + ", " + sz + ")");
                    sub.close();
                }
            }
            final boolean twoDOfTeam = rnd.nextBoolean();
            final int xrange = 1 + rnd.nextInt((twoDOfTeam ? sz : n) + 2);
            final Team parent = twoDOfTeam ? team : shmem.teamWorld();
            if (parent.isValid())
            {
                check2d(shmem, check, parent, xrange);
            }
            final long r = rnd.nextLong();
            collective(shmem, check, team, sz, i -> start + i * st, new SplittableRandom(r));
            team.close();
            shmem.barrierAll();
        }
    }

    private static void checkTriplet(final Shmem shmem, final Check check, final Team team, final Team parent, final int start,
        final int stride, final int size, final String what)
    {
        final Team world = shmem.teamWorld();
        final int meInParent = parent.myPe();
        final int d = meInParent - start;
        final int expectMe = stride == 0 ? (d == 0 ? 0 : -1) : d % stride == 0 && d / stride >= 0 && d / stride < size ? d / stride : -1;
        check.eq("team_my_pe", what, expectMe, team.myPe());
        check.eq("team_n_pes", what, expectMe < 0 ? -1 : size, team.nPes());
        if (!team.isValid())
        {
            check.eq("team_translate_pe", what + " INVALID to WORLD", -1, team.translatePe(0, world));
            return;
        }
        for (int i = 0; i < size; i++)
        {
            final int inParent = start + i * stride;
            final int w = parent.worldPe(inParent);
            check.eq("team_translate_pe", what + " team PE " + i + " in parent", inParent, team.translatePe(i, parent));
            check.eq("team_translate_pe", what + " team PE " + i + " in WORLD", w, team.translatePe(i, world));
            check.eq("team_translate_pe", what + " WORLD " + w + " in team", i, world.translatePe(w, team));
        }
        for (int w = 0; w < shmem.nPes(); w++)
        {
            final int p = parent.teamPeOf(w);
            final int dd = p - start;
            final int expect = p < 0 ? -1 : stride == 0 ? (dd == 0 ? 0 : -1)
                : dd % stride == 0 && dd / stride >= 0 && dd / stride < size ? dd / stride : -1;
            check.eq("team_translate_pe", what + " WORLD " + w + " in team", expect, world.translatePe(w, team));
        }
        check.eq("team_translate_pe", what + " out of range", -1, team.translatePe(size, world));
    }

    private static void check2d(final Shmem shmem, final Check check, final Team parent, final int xrange)
    {
        final int n = parent.nPes();
        final int x = Math.min(xrange, n);
        final int me = parent.myPe();
        final String what = "split_2d(" + xrange + ") of (" + parent.start() + ", " + parent.stride() + ", " + n + ")";
        try (Team.Split2d grid = parent.split2d(xrange))
        {
            check.eq("team_split_2d", what + " column", me % x, grid.x().myPe());
            check.eq("team_split_2d", what + " row", me / x, grid.y().myPe());
            final int rows = (n + x - 1) / x;
            final int rowLen = Math.min(x, n - me / x * x);
            check.eq("team_n_pes", what + " x team", rowLen, grid.x().nPes());
            check.eq("team_n_pes", what + " y team", me % x < n - (rows - 1) * x ? rows : rows - 1, grid.y().nPes());
            for (int i = 0; i < grid.x().nPes(); i++)
            {
                check.eq("team_translate_pe", what + " x PE " + i, me / x * x + i, grid.x().translatePe(i, parent));
            }
            for (int i = 0; i < grid.y().nPes(); i++)
            {
                check.eq("team_translate_pe", what + " y PE " + i, i * x + me % x, grid.y().translatePe(i, parent));
            }
        }
    }

    private static long value(final long salt, final int worldPe, final long i)
    {
        long z = salt + worldPe * 0x9E3779B97F4A7C15L + i * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * Runs one random collective of {@code team} (INVALID on non-members, which take part in the WORLD
     * allocations and barriers around it only).
     */
    private static void collective(final Shmem shmem, final Check check, final Team team, final int n, final IntUnaryOperator w,
        final SplittableRandom rnd)
    {
        final int kind = rnd.nextInt(8);
        final int count = rnd.nextInt(4) == 0 ? rnd.nextInt(4) : rnd.nextInt(MAX_COUNT + 1);
        final long salt = rnd.nextLong();
        final Num<?> type = Num.ALL.get(rnd.nextInt(Num.ALL.size()));
        final ReduceOp op = ReduceOp.values()[rnd.nextInt(ReduceOp.values().length)];
        final int root = rnd.nextInt(n);
        final int dst = 1 + rnd.nextInt(3);
        final int sst = 1 + rnd.nextInt(3);
        final int[] counts = new int[n];
        for (int r = 0; r < n; r++)
        {
            counts[r] = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(count + 1);
        }
        switch (kind)
        {
            case 0 -> broadcast(shmem, check, team, w, count, root, salt);
            case 1 -> gather(shmem, check, team, n, w, count, null, salt);
            case 2 -> gather(shmem, check, team, n, w, count, counts, salt);
            case 3 -> alltoall(shmem, check, team, n, w, Math.min(count, 400), 1, 1, salt);
            case 4 -> alltoall(shmem, check, team, n, w, Math.min(count, 200), dst, sst, salt);
            case 5, 6 -> reduce(shmem, check, team, n, w, type.supports(op) ? op : ReduceOp.SUM, type, count, salt);
            default -> scan(shmem, check, team, w, rnd.nextBoolean(), Math.min(count, 2000), salt);
        }
    }

    private static final int GUARD = 3;
    private static final long GUARD_VALUE = 0x5A5A5A5A5A5AL;

    private static SymmetricLongs guarded(final Shmem shmem, final long n)
    {
        final SymmetricLongs all = shmem.allocateLongs(n + 2 * GUARD);
        for (long i = 0; i < n + 2 * GUARD; i++)
        {
            all.setLocal(i, GUARD_VALUE);
        }
        return all;
    }

    private static void checkGuards(final Check check, final String routine, final SymmetricLongs all, final long n)
    {
        for (int g = 0; g < GUARD; g++)
        {
            check.eq(routine + " (guard before dest)", "longs", g - GUARD, GUARD_VALUE, all.getLocal(g));
            check.eq(routine + " (guard after dest)", "longs", n + g, GUARD_VALUE, all.getLocal(GUARD + n + g));
        }
    }

    private static void broadcast(final Shmem shmem, final Check check, final Team team, final IntUnaryOperator w, final int count,
        final int root, final long salt)
    {
        final String routine = "broadcast count=" + count + " root=" + root;
        final SymmetricLongs src = shmem.allocateLongs(Math.max(count, 1));
        final SymmetricLongs all = guarded(shmem, count);
        for (int i = 0; i < count; i++)
        {
            src.setLocal(i, value(salt, shmem.myPe(), i));
        }
        shmem.barrierAll();
        if (team.isValid())
        {
            team.broadcast(all.slice(GUARD, count), src, count, root);
            for (int i = 0; i < count; i++)
            {
                if (!check.eq(routine, "longs", i, value(salt, w.applyAsInt(root), i), all.getLocal(GUARD + i)))
                {
                    break;
                }
            }
            checkGuards(check, routine, all, count);
        }
        shmem.barrierAll();
        shmem.free(all);
        shmem.free(src);
    }

    private static void gather(final Shmem shmem, final Check check, final Team team, final int n, final IntUnaryOperator w,
        final int count, final int[] counts, final long salt)
    {
        final int me = team.myPe();
        long total = 0;
        for (int r = 0; r < n; r++)
        {
            total += counts == null ? count : counts[r];
        }
        final String routine = counts == null ? "fcollect count=" + count : "collect counts up to " + count;
        final int mine = !team.isValid() ? 0 : counts == null ? count : counts[me];
        final SymmetricLongs src = shmem.allocateLongs(Math.max(count, 1));
        final SymmetricLongs all = guarded(shmem, total);
        for (int i = 0; i < mine; i++)
        {
            src.setLocal(i, value(salt, shmem.myPe(), i));
        }
        shmem.barrierAll();
        if (team.isValid())
        {
            if (counts == null)
            {
                team.fcollect(all.slice(GUARD, total), src, count);
            }
            else
            {
                team.collect(all.slice(GUARD, total), src, mine);
            }
            long at = 0;
            outer:
            for (int r = 0; r < n; r++)
            {
                final int c = counts == null ? count : counts[r];
                for (int i = 0; i < c; i++, at++)
                {
                    if (!check.eq(routine, "longs", at, value(salt, w.applyAsInt(r), i), all.getLocal(GUARD + at)))
                    {
                        break outer;
                    }
                }
            }
            checkGuards(check, routine, all, total);
        }
        shmem.barrierAll();
        shmem.free(all);
        shmem.free(src);
    }

    private static void alltoall(final Shmem shmem, final Check check, final Team team, final int n, final IntUnaryOperator w,
        final int count, final int dst, final int sst, final long salt)
    {
        final int me = team.myPe();
        final long span = (long)n * count;
        final long destLen = span == 0 ? 0 : (span - 1) * dst + 1;
        final long srcLen = span == 0 ? 1 : (span - 1) * sst + 1;
        final String routine = (dst == 1 && sst == 1 ? "alltoall" : "alltoalls dst=" + dst + " sst=" + sst) + " count=" + count;
        final SymmetricLongs src = shmem.allocateLongs(srcLen);
        final SymmetricLongs all = guarded(shmem, destLen);
        for (long i = 0; i < span; i++)
        {
            src.setLocal(i * sst, value(salt, shmem.myPe(), i));
        }
        shmem.barrierAll();
        if (!team.isValid())
        {
            shmem.barrierAll();
            shmem.free(all);
            shmem.free(src);
            return;
        }
        if (dst == 1 && sst == 1)
        {
            team.alltoall(all.slice(GUARD, destLen), src, count);
        }
        else
        {
            team.alltoalls(all.slice(GUARD, destLen), src, dst, sst, count);
        }
        outer:
        for (int r = 0; r < n; r++)
        {
            for (int k = 0; k < count; k++)
            {
                final long at = ((long)r * count + k) * dst;
                if (!check.eq(routine, "longs", at, value(salt, w.applyAsInt(r), (long)me * count + k), all.getLocal(GUARD + at)))
                {
                    break outer;
                }
            }
        }
        for (long at = 0; at < destLen; at++)
        {
            if (at % dst != 0 && !check.eq(routine + " (between strided elements)", "longs", at, GUARD_VALUE, all.getLocal(GUARD + at)))
            {
                break;
            }
        }
        checkGuards(check, routine, all, destLen);
        shmem.barrierAll();
        shmem.free(all);
        shmem.free(src);
    }

    private static long small(final Num<?> type, final ReduceOp op, final long v)
    {
        if (type.integral())
        {
            return op == ReduceOp.PROD ? v % 5 : v;
        }
        return op == ReduceOp.PROD ? v % 4 : v % 100_000;
    }

    private static <A> void reduce(final Shmem shmem, final Check check, final Team team, final int n, final IntUnaryOperator w,
        final ReduceOp op, final Num<A> type, final int count, final long salt)
    {
        final String routine = op.name().toLowerCase() + "_reduce count=" + count;
        final boolean inPlace = (salt & 1) == 0;
        final SymmetricArray<A> src = type.alloc(shmem, Math.max(count, 1));
        final SymmetricArray<A> dest = inPlace ? src : type.alloc(shmem, Math.max(count, 1));
        for (int i = 0; i < count; i++)
        {
            type.set(src, i, small(type, op, value(salt, shmem.myPe(), i)));
        }
        shmem.barrierAll();
        if (team.isValid())
        {
            team.reduce(op, dest, src, count);
            for (int i = 0; i < count; i++)
            {
                long expect = type.norm(small(type, op, value(salt, w.applyAsInt(0), i)));
                for (int r = 1; r < n; r++)
                {
                    expect = type.combine(op, expect, small(type, op, value(salt, w.applyAsInt(r), i)));
                }
                if (!check.eq(routine + (inPlace ? " (in place)" : ""), type.name(), i, expect, type.get(dest, i)))
                {
                    break;
                }
            }
        }
        shmem.barrierAll();
        if (!inPlace)
        {
            shmem.free(dest);
        }
        shmem.free(src);
    }

    private static void scan(final Shmem shmem, final Check check, final Team team, final IntUnaryOperator w, final boolean inclusive,
        final int count, final long salt)
    {
        final int me = team.myPe();
        final String routine = (inclusive ? "sum_inscan" : "sum_exscan") + " count=" + count;
        final SymmetricLongs src = shmem.allocateLongs(Math.max(count, 1));
        final SymmetricLongs all = guarded(shmem, count);
        for (int i = 0; i < count; i++)
        {
            src.setLocal(i, value(salt, shmem.myPe(), i));
        }
        shmem.barrierAll();
        if (team.isValid())
        {
            if (inclusive)
            {
                team.sumInscan(all.slice(GUARD, count), src, count);
            }
            else
            {
                team.sumExscan(all.slice(GUARD, count), src, count);
            }
            for (int i = 0; i < count; i++)
            {
                long expect = 0;
                for (int r = 0; r < (inclusive ? me + 1 : me); r++)
                {
                    expect += value(salt, w.applyAsInt(r), i);
                }
                if (!check.eq(routine, "longs", i, expect, all.getLocal(GUARD + i)))
                {
                    break;
                }
            }
            checkGuards(check, routine, all, count);
        }
        shmem.barrierAll();
        shmem.free(all);
        shmem.free(src);
    }
}
