package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.Team;
import io.jshmem.TeamConfig;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * team_get_config: WORLD's configuration is readable; INVALID's is an error (C: nonzero return;
 * Java: {@code IllegalStateException}); the even team created with num_contexts = 3 reports 3; the
 * odd team created with that configuration but without the NUM_CONTEXTS mask bit reports 0 (Java has
 * no mask: passing no configuration is the same request).
 */
public final class ShmemTeamGetConfig extends CollProgram
{
    public ShmemTeamGetConfig()
    {
        super("tests-sos test/unit/shmem_team_get_config.c", "shmem_team_get_config", "shmem_team_split_strided", "shmem_team_my_pe");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        check.isTrue(shmem.teamWorld().config() != null, "team_get_config", "WORLD has a configuration");
        check.throwsOneOf("team_get_config", "Team.INVALID", () -> Team.INVALID.config(), new String[] {"INVALID"},
            IllegalStateException.class);
        final Team even = shmem.teamWorld().splitStrided(0, 2, (n - 1) / 2 + 1, new TeamConfig(3));
        if (even.myPe() != -1)
        {
            check.eq("team_get_config", "even team num_contexts", 3, even.config().numContexts());
        }
        else
        {
            check.eq("team_split_strided", "odd PE gets INVALID", false, even.isValid());
        }
        final Team odd = shmem.teamWorld().splitStrided(1, 2, n / 2);
        if (odd.myPe() != -1)
        {
            check.eq("team_get_config", "odd team num_contexts", 0, odd.config().numContexts());
        }
        else
        {
            check.eq("team_split_strided", "even PE gets INVALID", false, odd.isValid());
        }
        odd.close();
        even.close();
    }
}
