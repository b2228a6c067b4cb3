package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;

import java.util.List;

/**
 * The generic reductions over WORLD on nPes elements of value 1, for every operator and every
 * element type it applies to (bitwise: the integer types and raw memory; max, min, sum, prod: every
 * numeric type). Expected: and, or, max, min, prod 1; xor nPes mod 2; sum nPes. C's complex types
 * and long double have no Java type (doubles stand for long double).
 */
public final class C11ShmemTeamReduce extends CollProgram
{
    public C11ShmemTeamReduce()
    {
        super("tests-sos test/unit/c11_shmem_team_reduce.c",
            List.of("shmem_and_reduce", "shmem_or_reduce", "shmem_xor_reduce", "shmem_max_reduce", "shmem_min_reduce",
                "shmem_sum_reduce", "shmem_prod_reduce"),
            forced("REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        allOnes(shmem, check, ReduceOp.values());
    }

    /** Runs every op of {@code ops} on every type it applies to, on sources of ones. */
    static void allOnes(final Shmem shmem, final Check check, final ReduceOp... ops)
    {
        for (final ReduceOp op : ops)
        {
            for (final Num<?> t : List.of(Num.BYTES, Num.SHORTS, Num.CHARS, Num.INTS, Num.LONGS, Num.FLOATS, Num.DOUBLES, Num.MEMORY))
            {
                if (t.supports(op) && !(t == Num.MEMORY && !op.isBitwise()))
                {
                    one(shmem, check, op, t);
                }
            }
        }
    }

    private static <A> void one(final Shmem shmem, final Check check, final ReduceOp op, final Num<A> t)
    {
        final int n = shmem.nPes();
        final SymmetricArray<A> src = t.alloc(shmem, n);
        final SymmetricArray<A> dest = t.alloc(shmem, n);
        t.fill(src, n, 1);
        shmem.barrierAll();
        shmem.teamWorld().reduce(op, dest, src, n);
        shmem.barrierAll();
        final long expected = switch (op)
        {
            case XOR -> n % 2;
            case SUM -> n;
            default -> 1;
        };
        for (int i = 0; i < n; i++)
        {
            check.eq(op.name().toLowerCase() + "_reduce", t.name(), i, expected, t.get(dest, i));
        }
        shmem.free(dest);
        shmem.free(src);
    }
}
