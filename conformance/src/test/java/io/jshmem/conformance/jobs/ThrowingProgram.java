package io.jshmem.conformance.jobs;

import io.jshmem.Shmem;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

/** Fixture of {@code SuiteRunnerIT}: PE 0 throws while the others wait in a barrier it never reaches. */
public final class ThrowingProgram implements Program
{
    @Override
    public String follows()
    {
        return "SuiteRunnerIT fixture";
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        if (shmem.myPe() == 0)
        {
            throw new IllegalStateException("fixture failure");
        }
        shmem.barrierAll();
    }
}
