package io.jshmem.conformance.sos;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricArray;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Kind;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * put_signal and put_signal_nbi for every Java element type, with SET and ADD, directly and through a
 * context (the original's {@code SHMEM_CTX_DEFAULT}; in Java a created context). Blocking: a message of
 * ten elements relayed around the ring, each PE forwarding what it received once its signal is 1, PE 0
 * waiting for its own at the end. Non-blocking: PE 0 sends to every PE and quiets; each waits for its
 * signal. Every PE's target then holds the message.
 */
public final class C11TestShmemPutSignal implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/c11_test_shmem_put_signal.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_put_signal", "shmem_put_signal_nbi", "shmem_wait_until", "shmem_quiet", "shmem_ctx_create");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        for (final boolean nbi : new boolean[] {false, true})
        {
            for (final boolean useCtx : new boolean[] {false, true})
            {
                for (final SignalOp op : SignalOp.values())
                {
                    for (final Kind<?> kind : Kind.ALL)
                    {
                        try (ShmemContext c = useCtx ? shmem.createContext() : null)
                        {
                            variant(shmem, c == null ? shmem : c, check, kind, nbi, op);
                        }
                    }
                }
            }
        }
    }

    private static <A> void variant(final Shmem shmem, final ShmemContext ctx, final Check check, final Kind<A> kind,
        final boolean nbi, final SignalOp op)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final String r = nbi ? "shmem_put_signal_nbi" : "shmem_put_signal";
        final SymmetricArray<A> remote = kind.allocate(shmem, 10);
        final SymmetricLongs sig = shmem.allocateLongs(1);
        final A local = kind.pattern(10, 0, 1);
        shmem.barrierAll();
        if (!nbi)
        {
            if (me == 0)
            {
                ctx.putSignal(remote, 0, local, 0, 10, sig, 0, 1, op, (me + 1) % n);
                sig.waitUntil(0, Cmp.EQ, 1);
            }
            else
            {
                sig.waitUntil(0, Cmp.EQ, 1);
                ctx.putSignal(remote, 0, kind.readLocal(remote), 0, 10, sig, 0, 1, op, (me + 1) % n);
            }
        }
        else
        {
            if (me == 0)
            {
                for (int pe = 0; pe < n; pe++)
                {
                    ctx.putSignalNbi(remote, 0, local, 0, 10, sig, 0, 1, op, pe);
                }
                ctx.quiet();
            }
            sig.waitUntil(0, Cmp.EQ, 1);
        }
        final A got = kind.readLocal(remote);
        for (int i = 0; i < 10; i++)
        {
            check.eq(r, kind.name() + " " + op, i, kind.bits(local, i), kind.bits(got, i));
        }
        shmem.barrierAll();
        shmem.free(sig);
        shmem.free(remote);
    }
}
