package io.jshmem.conformance.sos.coll;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Kind;

/**
 * shmem_ibput (shmemx in SOS, standard in 1.6) with strides 1, block size 1 and 10 blocks, for every
 * Java element type and raw memory (C's 24 types fold onto them), first on the default context and
 * then on a created one (Java has one method for C's context and context-free forms): PE me
 * writes its number into its right neighbour's object; after a barrier each PE holds its left
 * neighbour's number.
 */
public final class C11TestShmemIbput extends CollProgram
{
    public C11TestShmemIbput()
    {
        super("tests-sos test/shmemx/c11_test_shmem_ibput.c", "shmem_ibput", "shmem_barrier_all", "shmem_ctx_create");
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
            k.set(expected, i, (me + n - 1) % n);
        }
        c.ibput(remote, 0, 1, local, 0, 1, 1, 10, right);
        shmem.barrierAll();
        final A got = k.readLocal(remote);
        for (int i = 0; i < 10; i++)
        {
            check.eq("ibput (" + how + ")", k.name(), i, k.bits(expected, i), k.bits(got, i));
        }
        shmem.barrierAll();
        shmem.free(remote);
    }
}
