package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricInts;
import io.jshmem.conformance.Check;

/**
 * The spec's pipelined reduction: two contexts, two symmetric staging buffers; stage p's 512 ints
 * are put_nbi to every PE on one context while the previous stage, completed by quiet on the other
 * context and sync_all, is summed locally. Every element of the result is the sum of the PE numbers.
 */
public final class ShmemCtxPipelinedReduce extends CollProgram
{
    private static final int LEN = 8192;
    private static final int PLEN = 512;

    public ShmemCtxPipelinedReduce()
    {
        super("tests-sos test/spec-example/shmem_ctx_pipelined_reduce.c", "shmem_ctx_create", "shmem_put_nbi", "shmem_quiet",
            "shmem_sync_all", "shmem_ctx_destroy");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricInts[] pbuf = {shmem.allocateInts((long)PLEN * n), shmem.allocateInts((long)PLEN * n)};
        final ShmemContext[] ctx = {shmem.createContext(), shmem.createContext()};
        final int[] in = new int[LEN];
        final int[] out = new int[LEN];
        java.util.Arrays.fill(in, me);
        int pIdx = 0;
        int p = 0;
        for (int i = 1; i <= n; i++)
        {
            ctx[pIdx].putNbi(pbuf[pIdx], (long)PLEN * me, in, PLEN * p, PLEN, (me + i) % n);
        }
        for (p = 1; p < LEN / PLEN; p++)
        {
            pIdx ^= 1;
            for (int i = 1; i <= n; i++)
            {
                ctx[pIdx].putNbi(pbuf[pIdx], (long)PLEN * me, in, PLEN * p, PLEN, (me + i) % n);
            }
            ctx[pIdx ^ 1].quiet();
            shmem.syncAll();
            accumulate(out, pbuf[pIdx ^ 1], p - 1, n);
            // as in the example, a faster PE's stage p+1 may land in this buffer while it is summed;
            // every stage carries the same values (the sender's number), so the sum is unaffected
        }
        ctx[pIdx].quiet();
        shmem.syncAll();
        accumulate(out, pbuf[pIdx], p - 1, n);
        final int expected = (n - 1) * n / 2;
        for (int i = 0; i < LEN; i++)
        {
            check.eq("put_nbi + quiet + sync_all", "ints", i, expected, out[i]);
        }
        ctx[0].close();
        ctx[1].close();
        shmem.barrierAll();
        shmem.free(pbuf[1]);
        shmem.free(pbuf[0]);
    }

    private static void accumulate(final int[] out, final SymmetricInts buf, final int stage, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            for (int j = 0; j < PLEN; j++)
            {
                out[PLEN * stage + j] += buf.getLocal((long)PLEN * i + j);
            }
        }
    }
}
