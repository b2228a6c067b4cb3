package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.ArrayList;
import java.util.List;

/**
 * Every PE creates 32 contexts, increments its right neighbour's counter once through each, quiets
 * each, and after sync_all the counter is 32. The original falls back to the default context when
 * creation fails; jshmem must create all 32 (a failure is an exception, failing the program). The
 * contexts are destroyed at the end.
 */
public final class ManyCtx implements Program
{
    private static final int NUM_CTX = 32;

    @Override
    public String follows()
    {
        return "tests-sos test/unit/many-ctx.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_ctx_create", "shmem_ctx_destroy", "shmem_atomic_inc", "shmem_quiet", "shmem_sync_all");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final SymmetricLongs data = shmem.allocateLongs(1);
        final List<ShmemContext> ctx = new ArrayList<>();
        try
        {
            for (int i = 0; i < NUM_CTX; i++)
            {
                ctx.add(shmem.createContext());
            }
            final int right = (shmem.myPe() + 1) % shmem.nPes();
            for (final ShmemContext c : ctx)
            {
                c.atomicInc(data, 0, right);
            }
            for (final ShmemContext c : ctx)
            {
                c.quiet();
            }
            shmem.syncAll();
            check.eq("shmem_ctx_create", "longs counter", 0, NUM_CTX, data.getLocal(0));
        }
        finally
        {
            for (final ShmemContext c : ctx)
            {
                c.close();
            }
        }
        shmem.barrierAll();
        shmem.free(data);
    }
}
