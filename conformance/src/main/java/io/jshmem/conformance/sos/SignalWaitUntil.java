package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Every PE sends 0..9 to every PE with put_signal ADD 1. Each PE then calls signal_wait_until with LE n
 * (returns some value ≤ n), EQ n (returns n) and LT n + 1 (returns n), and finds the data. After a
 * barrier, every PE sends again with SET n + 1; GE n returns ≥ n, EQ n + 1 returns n + 1; data again.
 */
public final class SignalWaitUntil implements Program
{
    private static final int MSG = 10;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/signal_wait_until.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_signal_wait_until", "shmem_put_signal");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final String r = "shmem_signal_wait_until";
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
            shmem.putSignal(target, 0, source, 0, MSG, sig, 0, 1, SignalOp.ADD, pe);
        }
        long v = sig.signalWaitUntil(0, Cmp.LE, n);
        check.isTrue(Long.compareUnsigned(v, n) <= 0, r, "LE " + n + " returned " + v);
        v = sig.signalWaitUntil(0, Cmp.EQ, n);
        check.eq(r, "EQ", 0, n, v);
        v = sig.signalWaitUntil(0, Cmp.LT, n + 1);
        check.eq(r, "LT", 0, n, v);
        for (int i = 0; i < MSG; i++)
        {
            check.eq("shmem_put_signal", "longs ADD", i, source[i], target.getLocal(i));
            target.setLocal(i, 0);
        }
        shmem.barrierAll();
        for (int pe = 0; pe < n; pe++)
        {
            shmem.putSignal(target, 0, source, 0, MSG, sig, 0, n + 1, SignalOp.SET, pe);
        }
        v = sig.signalWaitUntil(0, Cmp.GE, n);
        check.isTrue(Long.compareUnsigned(v, n) >= 0, r, "GE " + n + " returned " + v);
        v = sig.signalWaitUntil(0, Cmp.EQ, n + 1);
        check.eq(r, "EQ", 1, n + 1, v);
        shmem.barrierAll();
        for (int i = 0; i < MSG; i++)
        {
            check.eq("shmem_put_signal", "longs SET", i, source[i], target.getLocal(i));
        }
        shmem.barrierAll();
        shmem.free(sig);
        shmem.free(mem);
    }
}
