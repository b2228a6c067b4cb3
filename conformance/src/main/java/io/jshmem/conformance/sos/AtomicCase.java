package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of tests-sos's {@code c11_test_shmem_atomic_*.c} and {@code cxx_test_shmem_atomic_*.cpp}:
 * one procedure run for every element type (ints and longs; C's signed, unsigned and fixed-width types
 * map onto them), for each routine form: the blocking op on the default context, the same on a context
 * (the originals pass {@code SHMEM_CTX_DEFAULT}; in Java the default context is the {@link Shmem} itself,
 * so the port also exercises a created context), and for fetching ops the {@code _nbi} form completed by
 * {@code quiet}. Each variant allocates its own target, as the originals' per-expansion static.
 */
abstract class AtomicCase implements Program
{
    /** One routine form. */
    record Form(AtomicOp op, boolean ctx, boolean nbi)
    {
        @Override
        public String toString()
        {
            return (ctx ? "ctx_" : "") + "atomic_" + op.name().toLowerCase(java.util.Locale.ROOT) + (nbi ? "_nbi" : "");
        }
    }

    private final String original;

    AtomicCase(final String original)
    {
        this.original = original;
    }

    @Override
    public final String follows()
    {
        return "tests-sos test/unit/" + original;
    }

    /** @return the blocking ops the original covers; the fetching ones also run as nbi. */
    abstract List<AtomicOp> ops();

    /** Runs one variant on every PE. */
    abstract void variant(Shmem shmem, Check check, Word w, Form f);

    @Override
    public List<String> routines()
    {
        final List<String> r = new ArrayList<>(List.of("shmem_barrier_all", "shmem_ctx_create", "shmem_ctx_destroy"));
        for (final AtomicOp op : ops())
        {
            r.add("shmem_atomic_" + op.name().toLowerCase(java.util.Locale.ROOT));
            if (op.fetches() && op != AtomicOp.SET)
            {
                r.add("shmem_atomic_" + op.name().toLowerCase(java.util.Locale.ROOT) + "_nbi");
                r.add("shmem_quiet");
            }
        }
        return r;
    }

    /** The context the variant's routines go through (closed by {@link #run}). */
    private ShmemContext ctx;

    final ShmemContext ctx()
    {
        return ctx;
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        for (final Word w : Word.ALL)
        {
            for (final AtomicOp op : ops())
            {
                final List<Form> forms = new ArrayList<>(List.of(new Form(op, false, false), new Form(op, true, false)));
                if (op.fetches() && op != AtomicOp.SET)
                {
                    forms.add(new Form(op, false, true));
                    forms.add(new Form(op, true, true));
                }
                for (final Form f : forms)
                {
                    try (ShmemContext c = f.ctx() ? shmem.createContext() : null)
                    {
                        ctx = c == null ? shmem : c;
                        check.section(w + " " + f);
                        variant(shmem, check, w, f);
                    }
                    finally
                    {
                        ctx = null;
                    }
                }
            }
        }
    }

    /** Runs the form's routine on the variant's context; a fetching nbi form is completed with quiet. */
    final long op(final Word w, final Form f, final SymmetricArray<?> h, final long value, final long cond, final int pe)
    {
        if (f.nbi())
        {
            final Object buf = w.atomicNbi(ctx, f.op(), h, 0, value, cond, pe);
            ctx.quiet();
            return w.collect(buf);
        }
        return w.atomic(ctx, f.op(), h, 0, value, cond, pe);
    }
}
