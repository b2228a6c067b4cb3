package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Kind;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * The procedure shared by tests-sos's {@code iput*.c}: PE 0 sends every other element of a ten-element
 * source (stride 2, five elements) to each other PE's contiguous target with {@code iput}; after a
 * barrier every other PE holds source elements 0, 2, 4, 6, 8, and PE 0's target is untouched.
 */
abstract class IputCase implements Program
{
    private final Kind<?> kind;
    private final String original;

    IputCase(final Kind<?> kind, final String original)
    {
        this.kind = kind;
        this.original = original;
    }

    @Override
    public final String follows()
    {
        return "tests-sos test/unit/" + original;
    }

    @Override
    public final List<String> routines()
    {
        return List.of("shmem_iput", "shmem_barrier_all");
    }

    @Override
    public final void run(final Shmem shmem, final Check check)
    {
        body(kind, shmem, check);
    }

    private static <A> void body(final Kind<A> kind, final Shmem shmem, final Check check)
    {
        final A source = kind.pattern(10, 1, 1);
        final SymmetricArray<A> target = kind.allocate(shmem, 10);
        kind.writeLocal(target, kind.pattern(10, 1000, 0));
        shmem.barrierAll();
        if (shmem.myPe() == 0)
        {
            for (int pe = 1; pe < shmem.nPes(); pe++)
            {
                shmem.iput(target, 0, 1, source, 0, 2, 5, pe);
            }
        }
        shmem.barrierAll();
        final A got = kind.readLocal(target);
        for (int i = 0; i < 10; i++)
        {
            final long expected = shmem.myPe() != 0 && i < 5 ? kind.bits(source, 2 * i) : kind.conv(1000);
            check.eq("shmem_iput", kind.name(), i, expected, kind.bits(got, i));
        }
        shmem.barrierAll();
        shmem.free(target);
    }
}
