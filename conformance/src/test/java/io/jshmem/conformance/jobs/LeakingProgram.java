package io.jshmem.conformance.jobs;

import io.jshmem.Shmem;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

/** Fixture of {@code SuiteRunnerIT}: passes its checks but leaves symmetric memory allocated. */
public final class LeakingProgram implements Program
{
    @Override
    public String follows()
    {
        return "SuiteRunnerIT fixture";
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        shmem.allocateLongs(4);
        check.isTrue(true, "fixture", "always");
    }
}
