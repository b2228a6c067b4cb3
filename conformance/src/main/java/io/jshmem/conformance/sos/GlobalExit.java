package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * PE 0 calls global_exit(0) while every other PE waits in a barrier PE 0 never reaches: the job must
 * end with status 0 before its deadline (without global exit the others would wait forever), and
 * global_exit must not return (if it does, PE 0 prints a failure). The others must be ended in the
 * barrier (as {@code Shmem.globalExit} documents), not see it fail and run on. Runs in its own job.
 */
public final class GlobalExit implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/global_exit.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_global_exit");
    }

    @Override
    public boolean ownJob()
    {
        return true;
    }

    @Override
    public boolean endsJob()
    {
        return true;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        if (shmem.myPe() == 0)
        {
            shmem.globalExit(0);
            check.fail("shmem_global_exit", "global_exit(0) returned");
            return;
        }
        try
        {
            shmem.barrierAll();
            check.fail("shmem_global_exit", "barrier returned although PE 0 never entered it");
        }
        catch (final io.jshmem.JobFailedException e)
        {
            check.fail("shmem_global_exit", "the barrier threw instead of the PE being ended (application code runs after " +
                "PE 0's global exit): " + e);
        }
    }
}
