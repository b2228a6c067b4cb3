package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Kind;
import io.jshmem.conformance.Program;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of tests-sos's {@code c11_test_shmem_{p,g,put,get}.c} and their {@code cxx_} twins: every
 * PE moves its number to (p, put, iput with strides 1, put_nbi + quiet) or from (g, get, iget, get_nbi
 * + quiet) its right neighbour, for every Java element type (bytes for C's char types, shorts, chars for
 * the unsigned 16-bit types, ints, longs, floats, doubles, raw memory; C's long double has no Java
 * type), directly and through a context (the originals use {@code SHMEM_CTX_DEFAULT}, which in Java is
 * the {@link Shmem} itself, so the port uses a created context for that half). The put forms check
 * the target after a barrier; the get forms check the fetched array.
 */
abstract class RmaCase implements Program
{
    /** The routine forms an original covers. */
    enum Op
    {
        P, G, PUT, IPUT, PUT_NBI, GET, IGET, GET_NBI
    }

    private final String original;
    private final List<Op> ops;

    RmaCase(final String original, final Op... ops)
    {
        this.original = original;
        this.ops = List.of(ops);
    }

    @Override
    public final String follows()
    {
        return "tests-sos test/unit/" + original;
    }

    @Override
    public final List<String> routines()
    {
        final List<String> r = new ArrayList<>(List.of("shmem_barrier_all", "shmem_ctx_create", "shmem_ctx_destroy"));
        for (final Op op : ops)
        {
            r.add("shmem_" + op.name().toLowerCase(java.util.Locale.ROOT));
            if (op == Op.PUT_NBI || op == Op.GET_NBI)
            {
                r.add("shmem_quiet");
            }
        }
        return r;
    }

    @Override
    public final void run(final Shmem shmem, final Check check)
    {
        for (final Op op : ops)
        {
            for (final boolean useCtx : new boolean[] {false, true})
            {
                for (final Kind<?> kind : Kind.ALL)
                {
                    try (ShmemContext c = useCtx ? shmem.createContext() : null)
                    {
                        variant(shmem, c == null ? shmem : c, check, kind, op, useCtx);
                    }
                }
            }
        }
    }

    private static <A> void variant(final Shmem shmem, final ShmemContext ctx, final Check check, final Kind<A> kind, final Op op,
        final boolean useCtx)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        final String r = (useCtx ? "shmem_ctx_" : "shmem_") + op.name().toLowerCase(java.util.Locale.ROOT);
        final int count = op == Op.P || op == Op.G ? 1 : 10;
        final SymmetricArray<A> remote = kind.allocate(shmem, count);
        switch (op)
        {
            case P, PUT, IPUT, PUT_NBI ->
            {
                final A local = kind.pattern(count, me, 0);
                switch (op)
                {
                    case P -> kind.p(ctx, remote, 0, me, right);
                    case PUT -> ctx.put(remote, 0, local, 0, count, right);
                    case IPUT -> ctx.iput(remote, 0, 1, local, 0, 1, count, right);
                    default ->
                    {
                        ctx.putNbi(remote, 0, local, 0, count, right);
                        ctx.quiet();
                    }
                }
                shmem.barrierAll();
                final A got = kind.readLocal(remote);
                for (int i = 0; i < count; i++)
                {
                    check.eq(r, kind.name(), i, kind.conv(left), kind.bits(got, i));
                }
            }
            default ->
            {
                kind.writeLocal(remote, kind.pattern(count, me, 0));
                shmem.barrierAll();
                final A local = kind.newArray(count);
                switch (op)
                {
                    case G -> kind.set(local, 0, 0);
                    case GET -> ctx.get(local, 0, remote, 0, count, right);
                    case IGET -> ctx.iget(local, 0, 1, remote, 0, 1, count, right);
                    default ->
                    {
                        ctx.getNbi(local, 0, remote, 0, count, right);
                        ctx.quiet();
                    }
                }
                for (int i = 0; i < count; i++)
                {
                    final long got = op == Op.G ? kind.g(ctx, remote, 0, right) : kind.bits(local, i);
                    check.eq(r, kind.name(), i, kind.conv(right), got);
                }
            }
        }
        shmem.barrierAll();
        shmem.free(remote);
    }
}
