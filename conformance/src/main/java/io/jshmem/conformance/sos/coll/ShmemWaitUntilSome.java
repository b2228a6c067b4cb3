package io.jshmem.conformance.sos.coll;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.conformance.Check;

/**
 * The spec's wait_until_some example: put_nbi of every PE's 100 ints, fence, flag set; wait_until_some
 * is called until it returns 0 (every index excluded through status), each returned block summed;
 * the total is M(M+1)/2 with M = 100 nPes - 1; with no status, wait_until_some reports all nPes.
 */
public final class ShmemWaitUntilSome extends CollProgram
{
    public ShmemWaitUntilSome()
    {
        super("tests-sos test/spec-example/shmem_wait_until_some.c", "shmem_put_nbi", "shmem_fence", "shmem_atomic_set",
            "shmem_wait_until_some");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final FlagExchange x = new FlagExchange(shmem, true);
        final int[] status = new int[n];
        final int[] indices = new int[n];
        long total = 0;
        int rounds = 0;
        int k;
        while ((k = x.flags.waitUntilSome(indices, status, Cmp.NE, 0)) > 0 && rounds++ <= n)
        {
            for (int i = 0; i < k; i++)
            {
                total += x.block(indices[i]);
                status[indices[i]] = 1;
            }
        }
        check.isTrue(rounds <= n, "wait_until_some", "ended after " + rounds + " rounds for " + n + " flags");
        x.checkFlagsAndSum(check, "wait_until_some", n, total);
        check.eq("wait_until_some", "count with no status", n, x.flags.waitUntilSome(indices, null, Cmp.EQ, 1));
        x.free(shmem);
    }
}
