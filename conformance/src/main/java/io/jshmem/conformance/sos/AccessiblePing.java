package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/** PE 0 finds every other PE accessible; every PE also finds itself accessible and PEs −1 and n not. */
public final class AccessiblePing implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/accessible_ping.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_pe_accessible");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        if (shmem.myPe() == 0)
        {
            for (int pe = 1; pe < n; pe++)
            {
                check.isTrue(shmem.peAccessible(pe), "shmem_pe_accessible", "pe " + pe);
            }
        }
        check.isTrue(shmem.peAccessible(shmem.myPe()), "shmem_pe_accessible", "self");
        check.isTrue(!shmem.peAccessible(-1), "shmem_pe_accessible", "pe -1 reported accessible");
        check.isTrue(!shmem.peAccessible(n), "shmem_pe_accessible", "pe " + n + " reported accessible");
    }
}
