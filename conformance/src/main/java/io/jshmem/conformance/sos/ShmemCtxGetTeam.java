package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.Team;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * The default context's team is WORLD; a context created on the team of the even PEs
 * (split_strided 0, 2, ⌈n/2⌉) reports that team; a PE outside the split gets the invalid team. The
 * original's query of {@code SHMEM_CTX_INVALID} has no Java form (there is no invalid context object).
 */
public final class ShmemCtxGetTeam implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/shmem_ctx_get_team.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_ctx_get_team", "shmem_team_split_strided", "shmem_team_create_ctx", "shmem_team_destroy");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        check.isTrue(shmem.team() == shmem.teamWorld(), "shmem_ctx_get_team", "default context's team is " + shmem.team());
        final int n = shmem.nPes();
        final Team evens = shmem.teamWorld().splitStrided(0, 2, (n + 1) / 2);
        final boolean member = shmem.myPe() % 2 == 0;
        check.isTrue(evens.isValid() == member, "shmem_team_split_strided", "valid=" + evens.isValid() + " on pe " + shmem.myPe());
        if (evens.isValid())
        {
            try (ShmemContext c = evens.createContext())
            {
                check.isTrue(c.team() == evens, "shmem_ctx_get_team", "team context reports " + c.team() + ", expected " + evens);
            }
            evens.close();
        }
        shmem.barrierAll();
    }
}
