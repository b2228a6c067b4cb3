package io.jshmem.conformance.team;

import io.jshmem.ContextOption;
import io.jshmem.ReduceOp;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricLock;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Spmd;

/**
 * Teams and collectives across real PE processes (spec 1.3, 1.4, 1.9, 1.11): split_strided into even
 * PEs and odd PEs in reverse order, split_2d with a ragged last row, then on each team sync,
 * broadcast (root's dest written too), fcollect, collect with per-PE counts, alltoall, every
 * reduction (in place too), inscan and exscan; a team context with team-relative PEs; a lock-guarded
 * non-atomic counter. Runs at any PE count; the algorithms are the automatic choice unless
 * {@code SHMEM_<COLLECTIVE>_ALGORITHM} forces one.
 */
public final class TeamCollectives
{
    private static final int COUNT = 300;

    private TeamCollectives()
    {
    }

    /** @param args unused. */
    public static void main(final String[] args)
    {
        Spmd.run("TeamCollectives", 1, (shmem, check) ->
        {
            final int n = shmem.nPes();
            final SymmetricLongs src = shmem.allocateLongs((long)COUNT * n);
            final SymmetricLongs dest = shmem.allocateLongs((long)COUNT * n);
            check.section("WORLD");
            collectives(check, shmem.teamWorld(), src, dest);
            check.section("split_strided");
            final Team even = shmem.teamWorld().splitStrided(0, 2, (n + 1) / 2);
            final Team odd = n > 1 ? shmem.teamWorld().splitStrided(n % 2 == 0 ? n - 1 : n - 2, -2, n / 2) : Team.INVALID;
            final Team mine = even.isValid() ? even : odd;
            check.isTrue(mine.isValid() && mine.translatePe(mine.myPe(), shmem.teamWorld()) == shmem.myPe(),
                "team_translate_pe", "this PE in its even/odd team");
            collectives(check, mine, src, dest);
            check.section("split_2d");
            try (Team.Split2d grid = shmem.teamWorld().split2d(2))
            {
                check.isTrue(grid.x().myPe() == shmem.myPe() % 2 && grid.y().myPe() == shmem.myPe() / 2, "team_split_2d",
                    "coordinates x=" + grid.x().myPe() + " y=" + grid.y().myPe());
                collectives(check, grid.y(), src, dest);
            }
            check.section("contexts");
            if (mine.nPes() > 1)
            {
                try (ShmemContext ctx = mine.createContext(ContextOption.PRIVATE))
                {
                    ctx.p(dest, 0, 1000L + shmem.myPe(), (mine.myPe() + 1) % mine.nPes());
                    ctx.quiet();
                }
            }
            shmem.barrierAll();
            if (mine.nPes() > 1)
            {
                final int left = mine.worldPe((mine.myPe() + mine.nPes() - 1) % mine.nPes());
                check.eq("ctx_p", "long", 0, 1000L + left, dest.getLocal(0));
            }
            even.close();
            odd.close();
            check.section("locks");
            final SymmetricLock lock = shmem.allocateLock(); // its barrier also orders the reset below before any increment
            src.setLocal(0, 0);
            shmem.barrierAll();
            for (int i = 0; i < 20; i++)
            {
                lock.set();
                shmem.p(src, 0, shmem.g(src, 0, 0) + 1, 0);
                lock.clear();
            }
            shmem.barrierAll();
            check.eq("set_lock", "long", 0, 20L * n, shmem.g(src, 0, 0));
            shmem.barrierAll();
            shmem.free(lock);
            shmem.free(dest);
            shmem.free(src);
        });
    }

    private static long value(final int worldPe, final long i)
    {
        return (worldPe * 5L + i) % 11 - 5;
    }

    private static void collectives(final Check check, final Team team, final SymmetricLongs src, final SymmetricLongs dest)
    {
        final int n = team.nPes();
        final int me = team.myPe();
        for (int i = 0; i < COUNT * n; i++)
        {
            src.setLocal(i, value(team.worldPe(me), i));
        }
        team.sync();
        final int root = n - 1;
        team.broadcast(dest, src, COUNT, root);
        for (int i = 0; i < COUNT; i++)
        {
            check.eq("broadcast", "long", i, value(team.worldPe(root), i), dest.getLocal(i));
        }
        team.sync();
        team.fcollect(dest, src, COUNT);
        for (int r = 0; r < n; r++)
        {
            check.eq("fcollect", "long", r * COUNT, value(team.worldPe(r), 0), dest.getLocal((long)r * COUNT));
        }
        team.sync();
        team.collect(dest, src, me + 1);
        long at = 0;
        for (int r = 0; r < n; r++)
        {
            for (int i = 0; i <= r; i++)
            {
                check.eq("collect", "long", at, value(team.worldPe(r), i), dest.getLocal(at++));
            }
        }
        team.sync();
        team.alltoall(dest, src, COUNT);
        for (int r = 0; r < n; r++)
        {
            check.eq("alltoall", "long", r * COUNT, value(team.worldPe(r), (long)me * COUNT), dest.getLocal((long)r * COUNT));
        }
        team.sync();
        for (final ReduceOp op : ReduceOp.values())
        {
            team.reduce(op, dest, src, COUNT);
            for (int i = 0; i < COUNT; i += 37)
            {
                long expect = value(team.worldPe(0), i);
                for (int r = 1; r < n; r++)
                {
                    final long v = value(team.worldPe(r), i);
                    expect = switch (op)
                    {
                        case AND -> expect & v;
                        case OR -> expect | v;
                        case XOR -> expect ^ v;
                        case MAX -> Math.max(expect, v);
                        case MIN -> Math.min(expect, v);
                        case SUM -> expect + v;
                        case PROD -> expect * v;
                    };
                }
                check.eq(op.name().toLowerCase() + "_reduce", "long", i, expect, dest.getLocal(i));
            }
            team.sync();
        }
        team.reduce(ReduceOp.SUM, src, src, COUNT); // in place
        team.sync();
        long sum = 0;
        for (int r = 0; r < n; r++)
        {
            sum += value(team.worldPe(r), 7);
        }
        check.eq("sum_reduce (in place)", "long", 7, sum, src.getLocal(7));
        for (int i = 0; i < COUNT; i++)
        {
            src.setLocal(i, value(team.worldPe(me), i));
        }
        team.sync();
        team.sumExscan(dest, src, COUNT);
        long below = 0;
        for (int r = 0; r < me; r++)
        {
            below += value(team.worldPe(r), 3);
        }
        check.eq("sum_exscan", "long", 3, below, dest.getLocal(3));
        team.sync();
        team.sumInscan(dest, src, COUNT);
        check.eq("sum_inscan", "long", 3, below + value(team.worldPe(me), 3), dest.getLocal(3));
        team.sync();
    }

}
