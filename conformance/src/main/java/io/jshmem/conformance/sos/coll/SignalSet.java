package io.jshmem.conformance.sos.coll;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

/**
 * signal_set (shmemx in SOS, standard in 1.6) around a ring: PE 0 puts its 10 longs to PE 1 and sets
 * PE 1's signal to 1; PE k waits for signal k, then does the same to PE k+1 with k+1; PE 0 finally
 * waits for nPes. Each PE checks it received its left neighbour's data. The original issues put_nbi
 * and the signal with nothing between them, which the spec does not order; the port puts a fence
 * between them, which the spec requires for the data to be visible when the signal is.
 */
public final class SignalSet extends CollProgram
{
    private static final int MSG_SZ = 10;

    public SignalSet()
    {
        super("tests-sos test/shmemx/signal_set.c", "shmem_calloc", "shmem_put_nbi", "shmem_fence", "shmem_signal_set",
            "shmem_signal_wait_until");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final int destPe = (me + 1) % n;
        final long[] source = new long[MSG_SZ];
        for (int i = 0; i < MSG_SZ; i++)
        {
            source[i] = me + i;
        }
        final SymmetricLongs target = shmem.allocateLongs(MSG_SZ);
        final SymmetricLongs sig = shmem.allocateLongs(1);
        shmem.barrierAll();
        if (me == 0)
        {
            shmem.putNbi(target, 0, source, 0, MSG_SZ, destPe);
            shmem.fence();
            shmem.signalSet(sig, 0, me + 1, destPe);
            sig.signalWaitUntil(0, Cmp.EQ, n);
        }
        else
        {
            sig.signalWaitUntil(0, Cmp.EQ, me);
            shmem.putNbi(target, 0, source, 0, MSG_SZ, destPe);
            shmem.fence();
            shmem.signalSet(sig, 0, me + 1, destPe);
        }
        for (int i = 0; i < MSG_SZ; i++)
        {
            check.eq("signal_set", "longs", i, (me + n - 1) % n + i, target.getLocal(i));
        }
        shmem.barrierAll();
        shmem.free(sig);
        shmem.free(target);
    }
}
