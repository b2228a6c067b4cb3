package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Every PE sends 0..9 to every PE with put_signal, adding its number to the signal; each PE reads its
 * signal with signal_fetch (waiting for a change between reads) until it reaches n(n − 1)/2, then finds
 * the data.
 */
public final class SignalFetch implements Program
{
    private static final int MSG = 10;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/signal_fetch.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_signal_fetch", "shmem_put_signal", "shmem_wait_until");
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
        for (int pe = 0; pe < n; pe++)
        {
            shmem.putSignal(target, 0, source, 0, MSG, sig, 0, me, SignalOp.ADD, pe);
        }
        final long total = (long)n * (n - 1) / 2;
        final long deadline = System.nanoTime() + Check.AWAIT_TIMEOUT_NS;
        long value = sig.signalFetch(0);
        while (value != total)
        {
            if (System.nanoTime() - deadline > 0)
            {
                check.fatal("signal_fetch stuck at " + value + ", expected " + total);
            }
            if (n > 1)
            {
                sig.waitUntil(0, Cmp.NE, 0);
            }
            value = sig.signalFetch(0);
        }
        check.eq("shmem_signal_fetch", "signal", 0, total, value);
        for (int i = 0; i < MSG; i++)
        {
            check.eq("shmem_put_signal", "longs", i, source[i], target.getLocal(i));
        }
        shmem.barrierAll();
        shmem.free(sig);
        shmem.free(mem);
    }
}
