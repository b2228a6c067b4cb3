package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricInts;
import io.jshmem.Team;
import io.jshmem.TeamConfig;
import io.jshmem.conformance.Check;

/**
 * The spec's team context example: teams of every 2nd and every 3rd PE (num_contexts 1), a context on
 * each; within each team every member puts its team number to its right neighbour through the
 * team's context (team-relative PE numbers); after quiet and a WORLD sync, PEs in both teams add the
 * two received values into PE 0 through the first team's context, and PE 0 checks the sum against
 * the left neighbours' numbers. The port also checks every received value on every member and that
 * {@code ctx.team()} names the team.
 */
public final class ShmemTeamContext extends CollProgram
{
    public ShmemTeamContext()
    {
        super("tests-sos test/spec-example/shmem_team_context.c", "shmem_team_split_strided", "shmem_team_create_ctx", "shmem_put",
            "shmem_atomic_add", "shmem_quiet", "shmem_sync", "shmem_ctx_get_team", "shmem_ctx_destroy", "shmem_team_destroy");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final int me = shmem.myPe();
        final SymmetricInts vals = shmem.allocateInts(3); // sum, val_2, val_3
        final TeamConfig conf = new TeamConfig(1);
        final Team team2 = shmem.teamWorld().splitStrided(0, 2, (n + 1) / 2, conf);
        final Team team3 = shmem.teamWorld().splitStrided(0, 3, (n + 2) / 3, conf);
        final ShmemContext ctx2 = team2.isValid() ? team2.createContext() : null;
        final ShmemContext ctx3 = team3.isValid() ? team3.createContext() : null;
        if (ctx2 != null)
        {
            check.isTrue(ctx2.team() == team2, "ctx_get_team", "context of team_2");
            final int pe = team2.myPe();
            ctx2.put(vals, 1, new int[] {pe}, 0, 1, (pe + 1) % team2.nPes());
        }
        if (ctx3 != null)
        {
            final int pe = team3.myPe();
            ctx3.put(vals, 2, new int[] {pe}, 0, 1, (pe + 1) % team3.nPes());
        }
        if (ctx2 != null)
        {
            ctx2.quiet();
        }
        if (ctx3 != null)
        {
            ctx3.quiet();
        }
        shmem.teamWorld().sync();
        if (team2.isValid())
        {
            check.eq("ctx_put", "ints", 1, (team2.myPe() + team2.nPes() - 1) % team2.nPes(), vals.getLocal(1));
        }
        if (team3.isValid())
        {
            check.eq("ctx_put", "ints", 2, (team3.myPe() + team3.nPes() - 1) % team3.nPes(), vals.getLocal(2));
        }
        if (team2.isValid() && team3.isValid())
        {
            ctx2.atomicAdd(vals, 0, vals.getLocal(1) + vals.getLocal(2), 0);
        }
        if (ctx2 != null)
        {
            ctx2.quiet();
        }
        shmem.teamWorld().sync();
        if (me == 0)
        {
            int vsum = 0;
            for (int i = 0; i < n; i++)
            {
                if (i % 2 == 0 && i % 3 == 0)
                {
                    vsum += i - 2 < 0 ? team2.nPes() - 1 : shmem.teamWorld().translatePe(i - 2, team2);
                    vsum += i - 3 < 0 ? team3.nPes() - 1 : shmem.teamWorld().translatePe(i - 3, team3);
                }
            }
            check.eq("ctx_atomic_add", "ints", 0, vsum, vals.getLocal(0));
        }
        if (ctx2 != null)
        {
            ctx2.close();
        }
        team2.close();
        if (ctx3 != null)
        {
            ctx3.close();
        }
        team3.close();
        shmem.barrierAll();
        shmem.free(vals);
    }
}
