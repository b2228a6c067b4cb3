package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * PE 0 sends 0..9 to every PE with put_signal_nbi, signal SET to 1; every PE waits for its signal and
 * finds the data. Then again with SIGNAL_ADD of pe + 1 onto zeroed signals, each PE waiting for
 * me + 1. PE 0 completes its puts with quiet before the next round.
 */
public final class PutSignalNbi implements Program
{
    private static final int MSG = 10;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/put_signal_nbi.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put_signal_nbi", "shmem_wait_until", "shmem_quiet");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final long[] source = new long[MSG];
        for (int i = 0; i < MSG; i++)
        {
            source[i] = i;
        }
        final var mem = shmem.calloc(MSG, 8);
        final SymmetricLongs target = mem.asLongs();
        final SymmetricLongs sig = shmem.allocateLongs(1);
        shmem.barrierAll();
        for (final SignalOp op : new SignalOp[] {SignalOp.SET, SignalOp.ADD})
        {
            if (me == 0)
            {
                for (int pe = 0; pe < n; pe++)
                {
                    shmem.putSignalNbi(target, 0, source, 0, MSG, sig, 0, op == SignalOp.SET ? 1 : pe + 1, op, pe);
                }
            }
            sig.waitUntil(0, Cmp.EQ, op == SignalOp.SET ? 1 : me + 1);
            for (int i = 0; i < MSG; i++)
            {
                check.eq("shmem_put_signal_nbi", "longs " + op, i, source[i], target.getLocal(i));
            }
            shmem.quiet();
            shmem.barrierAll();
            for (int i = 0; i < MSG; i++)
            {
                target.setLocal(i, 0);
            }
            sig.setLocal(0, 0);
            shmem.barrierAll();
        }
        shmem.free(sig);
        shmem.free(mem);
    }
}
