package io.jshmem.conformance.sos.coll;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

/**
 * The spec's wait_until_any example: put_nbi of every PE's 100 ints, fence, flag set; nPes calls of
 * wait_until_any, each returned block summed and excluded; the total is M(M+1)/2 with
 * M = 100 nPes - 1; with no status the returned index is in range.
 */
public final class ShmemWaitUntilAny extends CollProgram
{
    public ShmemWaitUntilAny()
    {
        super("tests-sos test/spec-example/shmem_wait_until_any.c", "shmem_put_nbi", "shmem_fence", "shmem_atomic_set",
            "shmem_wait_until_any");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final FlagExchange x = new FlagExchange(shmem, true);
        final int[] status = new int[n];
        long total = 0;
        for (int i = 0; i < n; i++)
        {
            final long idx = x.flags.waitUntilAny(status, Cmp.NE, 0);
            if (!check.isTrue(idx >= 0 && idx < n && status[(int)idx] == 0, "wait_until_any", "returned a new index: " + idx))
            {
                break;
            }
            total += x.block((int)idx);
            status[(int)idx] = 1;
        }
        x.checkFlagsAndSum(check, "wait_until_any", n, total);
        final long idx = x.flags.waitUntilAny(null, Cmp.EQ, 1);
        check.isTrue(idx >= 0 && idx < n, "wait_until_any", "index " + idx + " in range with no status");
        x.free(shmem);
    }
}
