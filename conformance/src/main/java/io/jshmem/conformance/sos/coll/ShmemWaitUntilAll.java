package io.jshmem.conformance.sos.coll;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

/** The spec's wait_until_all example: every PE sets its flag on every PE; wait_until_all (no status) returns with every flag 1. */
public final class ShmemWaitUntilAll extends CollProgram
{
    public ShmemWaitUntilAll()
    {
        super("tests-sos test/spec-example/shmem_wait_until_all.c", "shmem_calloc", "shmem_atomic_set", "shmem_wait_until_all");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final FlagExchange x = new FlagExchange(shmem, false);
        x.flags.waitUntilAll(null, Cmp.EQ, 1);
        for (int i = 0; i < n; i++)
        {
            check.eq("wait_until_all", "flags", i, 1, x.flags.getLocal(i));
        }
        x.free(shmem);
    }
}
