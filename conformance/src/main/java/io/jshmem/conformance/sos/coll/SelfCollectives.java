package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.Team;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * Every collective over a team of one PE (WORLD PE 0 alone, from split_strided(0, 1, 1)): broadcast,
 * fcollect, collect, the seven reductions, alltoall and alltoalls, on 32- and 64-bit integers (ints,
 * longs; the unsigned reductions of the original on chars and longs read as unsigned). A collective
 * over one PE must copy (or reduce) the PE's own source into its dest: dest equals the source.
 * The original's deprecated active-set forms (a set of just this PE) are the same calls on this team.
 */
public final class SelfCollectives extends CollProgram
{
    public SelfCollectives()
    {
        super("tests-sos test/unit/self_collectives.c",
            List.of("shmem_team_split_strided", "shmem_broadcast", "shmem_fcollect", "shmem_collect", "shmem_and_reduce",
                "shmem_or_reduce", "shmem_xor_reduce", "shmem_min_reduce", "shmem_max_reduce", "shmem_sum_reduce", "shmem_prod_reduce",
                "shmem_alltoall", "shmem_alltoalls"),
            forced("BROADCAST", BROADCAST, "REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final Team self = shmem.teamWorld().splitStrided(0, 1, 1);
        for (final Num<?> t : List.of(Num.INTS, Num.LONGS, Num.CHARS))
        {
            each(shmem, check, self, t);
        }
        self.close();
    }

    private static <A> void each(final Shmem shmem, final Check check, final Team self, final Num<A> t)
    {
        check.section(t.name());
        final SymmetricArray<A> in = t.alloc(shmem, 1);
        final SymmetricArray<A> out = t.alloc(shmem, 1);
        final long mine = shmem.myPe() + 5;
        final String[] names = {"broadcast", "fcollect", "collect", "alltoall", "alltoalls"};
        for (int c = 0; c < names.length + ReduceOp.values().length; c++)
        {
            t.set(in, 0, mine);
            t.set(out, 0, -1);
            if (self.isValid())
            {
                final String name;
                switch (c)
                {
                    case 0 -> self.broadcast(out, in, 1, 0);
                    case 1 -> self.fcollect(out, in, 1);
                    case 2 -> self.collect(out, in, 1);
                    case 3 -> self.alltoall(out, in, 1);
                    case 4 -> self.alltoalls(out, in, 1, 1, 1);
                    default -> self.reduce(ReduceOp.values()[c - names.length], out, in, 1);
                }
                name = c < names.length ? names[c] : ReduceOp.values()[c - names.length].name().toLowerCase() + "_reduce";
                check.eq(name, t.name(), 0, t.norm(mine), t.get(out, 0));
                check.eq(name + " (source unchanged)", t.name(), 0, t.norm(mine), t.get(in, 0));
            }
            shmem.barrierAll();
        }
        shmem.free(out);
        shmem.free(in);
    }
}
