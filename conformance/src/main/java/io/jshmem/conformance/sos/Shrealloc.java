package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Grows three objects with {@code realloc} (from nothing) over 50 rounds: result ((nPes − 1) × n
 * words), target (n) and source (2n), n from 32 by 1025; each round fills only the new tail with 1, 2
 * or 3, so the checks after the barrier prove realloc kept every earlier word. Needs 2 PEs, as the
 * original.
 */
public final class Shrealloc implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/shrealloc.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_realloc", "shmem_free");
    }

    @Override
    public int minPes()
    {
        return 2;
    }

    private static SymmetricMemory grow(final Shmem shmem, final Check check, final SymmetricMemory m, final long words, final long v)
    {
        final long before = m == null ? 0 : m.byteSize() / 8;
        final SymmetricMemory r = shmem.realloc(m, words * 8);
        check.isTrue(r != null && r.byteSize() == words * 8, "shmem_realloc", "to " + words + " words gave " + r);
        final SymmetricLongs l = r.asLongs();
        for (long i = before; i < words; i++)
        {
            l.setLocal(i, v);
        }
        return r;
    }

    private static void verify(final Check check, final SymmetricMemory m, final long v)
    {
        final SymmetricLongs l = m.asLongs();
        for (long i = 0; i < l.length(); i++)
        {
            if (!check.eq("shmem_realloc", "longs", i, v, l.getLocal(i)))
            {
                return;
            }
        }
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        SymmetricMemory result = null;
        SymmetricMemory target = null;
        SymmetricMemory source = null;
        long words = 32;
        for (int l = 0; l < 50; l++)
        {
            result = grow(shmem, check, result, (shmem.nPes() - 1) * words, 1);
            target = grow(shmem, check, target, words, 2);
            source = grow(shmem, check, source, 2 * words, 3);
            shmem.barrierAll();
            verify(check, source, 3);
            verify(check, target, 2);
            verify(check, result, 1);
            words += 1025;
        }
        shmem.barrierAll();
        shmem.free(source);
        shmem.free(target);
        shmem.free(result);
    }
}
