package io.jshmem.conformance.sos.coll;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;

import java.util.List;
import java.util.function.IntBinaryOperator;

/**
 * Every reduction over WORLD on 128 elements of every type the original covers (short, int, long,
 * long long, float, double, long double and the unsigned types of the bitwise ops; in Java shorts,
 * chars, ints, longs, floats, doubles, bytes): max and min of pe + i, sum of pe, prod of pe + 1
 * (nPes!), and of pe, or of (pe + 1) mod 4, xor of pe mod 2. Every PE checks every element (the
 * original checks PE 0's), against the arithmetic fold in the element type.
 */
public final class ToAll extends CollProgram
{
    private static final int N = 128;

    public ToAll()
    {
        super("tests-sos test/unit/to_all.c",
            List.of("shmem_max_reduce", "shmem_min_reduce", "shmem_sum_reduce", "shmem_prod_reduce", "shmem_and_reduce",
                "shmem_or_reduce", "shmem_xor_reduce"),
            forced("REDUCE", REDUCE));
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        one(shmem, check, ReduceOp.MAX, (pe, i) -> pe + i);
        one(shmem, check, ReduceOp.MIN, (pe, i) -> pe + i);
        one(shmem, check, ReduceOp.SUM, (pe, i) -> pe);
        one(shmem, check, ReduceOp.AND, (pe, i) -> pe);
        one(shmem, check, ReduceOp.PROD, (pe, i) -> pe + 1);
        one(shmem, check, ReduceOp.OR, (pe, i) -> (pe + 1) % 4);
        one(shmem, check, ReduceOp.XOR, (pe, i) -> pe % 2);
    }

    private static void one(final Shmem shmem, final Check check, final ReduceOp op, final IntBinaryOperator value)
    {
        check.section(op.name().toLowerCase());
        for (final Num<?> t : List.of(Num.SHORTS, Num.INTS, Num.LONGS, Num.FLOATS, Num.DOUBLES, Num.CHARS, Num.BYTES))
        {
            if (t.supports(op))
            {
                typed(shmem, check, op, t, value);
            }
        }
    }

    private static <A> void typed(final Shmem shmem, final Check check, final ReduceOp op, final Num<A> t, final IntBinaryOperator value)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricArray<A> src = t.alloc(shmem, N);
        final SymmetricArray<A> dst = t.alloc(shmem, N);
        for (int i = 0; i < N; i++)
        {
            t.set(src, i, value.applyAsInt(me, i));
            t.set(dst, i, -9);
        }
        shmem.barrierAll();
        shmem.teamWorld().reduce(op, dst, src, N);
        for (int i = 0; i < N; i++)
        {
            long expected = t.norm(value.applyAsInt(0, i));
            for (int pe = 1; pe < n; pe++)
            {
                expected = t.combine(op, expected, value.applyAsInt(pe, i));
            }
            check.eq(op.name().toLowerCase() + "_reduce", t.name(), i, expected, t.get(dst, i));
        }
        shmem.barrierAll();
        shmem.free(dst);
        shmem.free(src);
    }
}
