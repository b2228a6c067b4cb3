package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Every WORLD collective with a count of zero, on ints and longs (the original's 32- and 64-bit
 * forms), each followed by a barrier: broadcast, fcollect, collect, the seven reductions, alltoall
 * and alltoalls (strides 1). The original passes NULL buffers, which is what C's shmem_malloc(0)
 * returns, as jshmem's allocations of 0 elements do; the port makes each call twice: on real objects
 * (which must stay untouched) and on null handles, which a zero count must accept as C does.
 */
public final class NopCollectives extends CollProgram
{
    public NopCollectives()
    {
        super("tests-sos test/unit/nop_collectives.c",
            List.of("shmem_broadcast", "shmem_fcollect", "shmem_collect", "shmem_and_reduce", "shmem_or_reduce", "shmem_xor_reduce",
                "shmem_min_reduce", "shmem_max_reduce", "shmem_sum_reduce", "shmem_prod_reduce", "shmem_alltoall", "shmem_alltoalls"),
            forced("BROADCAST", BROADCAST, "COLLECT", COLLECT, "FCOLLECT", COLLECT, "ALLTOALL", ALLTOALL, "REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        for (final Num<?> t : List.of(Num.INTS, Num.LONGS))
        {
            each(shmem, check, t);
        }
    }

    private static <A> void each(final Shmem shmem, final Check check, final Num<A> t)
    {
        final Team world = shmem.teamWorld();
        final SymmetricArray<A> in = t.alloc(shmem, 4);
        final SymmetricArray<A> out = t.alloc(shmem, 4);
        check.isTrue(t.alloc(shmem, 0) == null, "malloc", "0 elements give null (C: NULL)");
        for (final boolean nulls : new boolean[] {false, true})
        {
            check.section(t.name() + (nulls ? " null handles" : " real objects"));
            for (int i = 0; i < 4; i++)
            {
                t.set(in, i, shmem.myPe() + 1);
                t.set(out, i, -7);
            }
            shmem.barrierAll();
            final SymmetricArray<A> d = nulls ? null : out;
            final SymmetricArray<A> s = nulls ? null : in;
            final int calls = 5 + ReduceOp.values().length;
            for (int c = 0; c < calls; c++)
            {
                final String name = c < 5 ? new String[] {"broadcast", "fcollect", "collect", "alltoall", "alltoalls"}[c]
                    : ReduceOp.values()[c - 5].name().toLowerCase() + "_reduce";
                try
                {
                    switch (c)
                    {
                        case 0 -> world.broadcast(d, s, 0, 0);
                        case 1 -> world.fcollect(d, s, 0);
                        case 2 -> world.collect(d, s, 0);
                        case 3 -> world.alltoall(d, s, 0);
                        case 4 -> world.alltoalls(d, s, 1, 1, 0);
                        default -> world.reduce(ReduceOp.values()[c - 5], d, s, 0);
                    }
                    check.isTrue(true, name, "count 0");
                }
                catch (final RuntimeException e)
                {
                    check.fail(name, "count 0" + (nulls ? " with null handles" : "") + " threw " + e);
                }
                shmem.barrierAll();
                for (int i = 0; i < 4; i++)
                {
                    check.eq(name + " (count 0 leaves dest)", t.name(), i, -7, t.get(out, i));
                }
            }
        }
        shmem.free(out);
        shmem.free(in);
    }
}
