package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * The procedure of tests-sos {@code shmalloc.c} and {@code shmem_calloc.c}: 50 rounds, each allocating
 * zero bytes (must give nothing), then a result (nPes × n words), a target (n words) and a source
 * (2n words), filling them with 1, 2 and 3, a barrier, checking each and freeing it; n starts at 32 and
 * grows by 1025 words a round. With {@code calloc} the fresh objects must also read zero.
 */
abstract class AllocCase implements Program
{
    private final boolean calloc;

    AllocCase(final boolean calloc)
    {
        this.calloc = calloc;
    }

    @Override
    public final List<String> routines()
    {
        return List.of(calloc ? "shmem_calloc" : "shmem_malloc", "shmem_free");
    }

    private SymmetricLongs alloc(final Shmem shmem, final Check check, final long words)
    {
        final SymmetricMemory m = calloc ? shmem.calloc(words, 8) : shmem.malloc(words * 8);
        check.isTrue(m != null, calloc ? "shmem_calloc" : "shmem_malloc", "allocation of " + words + " words returned null");
        final SymmetricLongs l = m.asLongs();
        if (calloc)
        {
            for (long i = 0; i < words; i++)
            {
                if (!check.eq("shmem_calloc", "longs", i, 0, l.getLocal(i)))
                {
                    break;
                }
            }
        }
        return l;
    }

    private static void fill(final SymmetricLongs l, final long v)
    {
        for (long i = 0; i < l.length(); i++)
        {
            l.setLocal(i, v);
        }
    }

    private static void verify(final Check check, final SymmetricLongs l, final long v)
    {
        for (long i = 0; i < l.length(); i++)
        {
            if (!check.eq("contents", "longs", i, v, l.getLocal(i)))
            {
                return;
            }
        }
    }

    @Override
    public final void run(final Shmem shmem, final Check check)
    {
        long words = 32;
        final String routine = calloc ? "shmem_calloc" : "shmem_malloc";
        for (int l = 0; l < 50; l++)
        {
            final SymmetricMemory zero = calloc ? shmem.calloc(0, 8) : shmem.malloc(0);
            check.isTrue(zero == null, routine, "zero-length allocation gave " + zero);
            final SymmetricLongs result = alloc(shmem, check, shmem.nPes() * words);
            fill(result, 1);
            final SymmetricLongs target = alloc(shmem, check, words);
            fill(target, 2);
            final SymmetricLongs source = alloc(shmem, check, 2 * words);
            fill(source, 3);
            shmem.barrierAll();
            verify(check, source, 3);
            shmem.free(source);
            verify(check, target, 2);
            shmem.free(target);
            verify(check, result, 1);
            shmem.free(result);
            words += 1025;
        }
    }
}
