package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Kind;

/**
 * shmem_ibget (shmemx in SOS, standard in 1.6) with strides 1, block size 1 and 10 blocks, for every
 * Java element type and raw memory (C's 24 types fold onto them), first on the default context and
 * then on a created one (Java has one method for C's context and context-free forms): PE me
 * reads its right neighbour's object, which holds that neighbour's number.
 */
public final class C11TestShmemIbget extends CollProgram
{
    public C11TestShmemIbget()
    {
        super("tests-sos test/shmemx/c11_test_shmem_ibget.c", "shmem_ibget", "shmem_barrier_all", "shmem_ctx_create");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        try (ShmemContext ctx = shmem.createContext())
        {
            for (final ShmemContext c : new ShmemContext[] {shmem, ctx})
            {
                for (final Kind<?> k : Kind.ALL)
                {
                    one(shmem, c, check, k, c == shmem ? "default context" : "created context");
                }
            }
        }
    }

    private static <A> void one(final Shmem shmem, final ShmemContext c, final Check check, final Kind<A> k, final String how)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final int right = (me + 1) % n;
        final SymmetricArray<A> remote = k.allocate(shmem, 10);
        final A local = k.newArray(10);
        final A expected = k.newArray(10);
        for (int i = 0; i < 10; i++)
        {
            k.set(local, i, me);
            k.set(expected, i, right);
        }
        k.writeLocal(remote, local);
        shmem.barrierAll();
        final A got = k.newArray(10);
        c.ibget(got, 0, 1, remote, 0, 1, 1, 10, right);
        for (int i = 0; i < 10; i++)
        {
            check.eq("ibget (" + how + ")", k.name(), i, k.bits(expected, i), k.bits(got, i));
        }
        shmem.barrierAll();
        shmem.free(remote);
    }
}
