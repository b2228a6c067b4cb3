package io.jshmem.conformance.jobs;

import io.jshmem.Shmem;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

/** Fixture of {@code SuiteRunnerIT}: PE 1 fails one check, every other PE passes. */
public final class FailingProgram implements Program
{
    @Override
    public String follows()
    {
        return "SuiteRunnerIT fixture";
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        check.eq("fixture", "ints", 0, 1, shmem.myPe() == 1 ? 2 : 1);
    }
}
