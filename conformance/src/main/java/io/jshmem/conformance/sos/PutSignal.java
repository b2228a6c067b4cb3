package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * A message relayed around the ring with put_signal: PE 0 sends 0..9 to its right neighbour with the
 * signal set to 1; every other PE waits for its signal, then forwards what it received the same way;
 * PE 0 finally waits for its own signal. Every PE's target holds 0..9 as soon as its signal arrived.
 * Then the same with SIGNAL_ADD of 1 onto a zeroed signal.
 */
public final class PutSignal implements Program
{
    private static final int MSG = 10;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/put_signal.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put_signal", "shmem_wait_until", "shmem_calloc");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int dest = (me + 1) % shmem.nPes();
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
                shmem.putSignal(target, 0, source, 0, MSG, sig, 0, 1, op, dest);
                sig.waitUntil(0, Cmp.EQ, 1);
            }
            else
            {
                sig.waitUntil(0, Cmp.EQ, 1);
                final long[] got = new long[MSG];
                for (int i = 0; i < MSG; i++)
                {
                    got[i] = target.getLocal(i);
                }
                shmem.putSignal(target, 0, got, 0, MSG, sig, 0, 1, op, dest);
            }
            for (int i = 0; i < MSG; i++)
            {
                check.eq("shmem_put_signal", "longs " + op, i, source[i], target.getLocal(i));
            }
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
