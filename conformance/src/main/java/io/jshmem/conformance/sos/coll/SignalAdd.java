package io.jshmem.conformance.sos.coll;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;

/**
 * signal_add (shmemx in SOS, standard in 1.6): every PE puts 10 longs to every PE, fences, and adds
 * me + 1 to the PE's signal; each PE waits for the signal to reach nPes(nPes+1)/2 and checks the
 * data.
 */
public final class SignalAdd extends CollProgram
{
    private static final int MSG_SZ = 10;

    public SignalAdd()
    {
        super("tests-sos test/shmemx/signal_add.c", "shmem_calloc", "shmem_put", "shmem_fence", "shmem_signal_add",
            "shmem_signal_wait_until");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final long[] source = new long[MSG_SZ];
        for (int i = 0; i < MSG_SZ; i++)
        {
            source[i] = i;
        }
        final SymmetricLongs target = shmem.allocateLongs(MSG_SZ);
        final SymmetricLongs sig = shmem.allocateLongs(1);
        shmem.barrierAll();
        for (int i = 0; i < n; i++)
        {
            shmem.put(target, 0, source, 0, MSG_SZ, i);
            shmem.fence();
            shmem.signalAdd(sig, 0, me + 1, i);
        }
        final long got = sig.signalWaitUntil(0, Cmp.EQ, (long)n * (n + 1) / 2);
        check.eq("signal_wait_until", "returned value", (long)n * (n + 1) / 2, got);
        for (int i = 0; i < MSG_SZ; i++)
        {
            check.eq("signal_add", "longs", i, source[i], target.getLocal(i));
        }
        shmem.barrierAll();
        shmem.free(sig);
        shmem.free(target);
    }
}
