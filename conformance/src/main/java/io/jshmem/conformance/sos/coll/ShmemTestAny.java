package io.jshmem.conformance.sos.coll;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

/**
 * The spec's test_any example: every PE sets its flag on every PE; test_any is polled, excluding each
 * completed index through the status array, until all nPes flags were found; then, with no status,
 * repeated test_any must eventually return every index (fairness); with no status it returns an index
 * in range. Polls are bounded by the check deadline.
 */
public final class ShmemTestAny extends CollProgram
{
    public ShmemTestAny()
    {
        super("tests-sos test/spec-example/shmem_test_any.c", "shmem_calloc", "shmem_atomic_set", "shmem_test_any");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final FlagExchange x = new FlagExchange(shmem, false);
        final int[] status = new int[n];
        final int[] completed = {0};
        check.await("test_any", "every flag", () ->
        {
            final long idx = x.flags.testAny(status, Cmp.EQ, 1);
            if (idx != -1)
            {
                status[(int)idx] = 1;
                completed[0]++;
            }
            return completed[0] == n;
        });
        for (int i = 0; i < n; i++)
        {
            check.eq("test_any", "flags", i, 1, x.flags.getLocal(i));
        }
        final boolean[] found = new boolean[n];
        final int[] distinct = {0};
        check.await("test_any", "every index from repeated calls without status (fairness)", () ->
        {
            final int idx = (int)x.flags.testAny(null, Cmp.EQ, 1);
            if (!found[idx])
            {
                found[idx] = true;
                distinct[0]++;
            }
            return distinct[0] == n;
        });
        final long idx = x.flags.testAny(null, Cmp.EQ, 1);
        check.isTrue(idx >= 0 && idx < n, "test_any", "index " + idx + " in [0, " + n + ") with no status");
        x.free(shmem);
    }
}
