package io.jshmem.conformance.sos;

import io.jshmem.Shmem;
import io.jshmem.SymmetricMemory;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * Allocates 257 longs with {@code align} at every power-of-two alignment from 8 to 2^23 and checks the
 * address is a multiple of it (the symmetric offset too, so the object is aligned on every PE), then
 * frees it. The original starts at 2; the spec requires a power-of-two multiple of
 * {@code sizeof(void *)} (8 here) and jshmem rejects smaller ones with an exception, which the port
 * checks for 2 and 4.
 */
public final class Shmemalign implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/shmemalign.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_align", "shmem_free");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final long bytes = 257 * 8;
        for (final long bad : new long[] {2, 4, 24})
        {
            check.throwsOneOf("shmem_align", "alignment=" + bad, () -> shmem.align(bad, bytes), new String[] {"[pe ", "alignment"},
                IllegalArgumentException.class);
        }
        for (long align = 8; align <= 1L << 23; align <<= 1)
        {
            final SymmetricMemory m = shmem.align(align, bytes);
            check.isTrue(m != null && m.byteSize() == bytes, "shmem_align", "align=" + align + " gave " + m);
            check.eq("shmem_align", "address mod " + align, align, 0, m.segment().address() & (align - 1));
            check.eq("shmem_align", "offset mod " + align, align, 0, m.offset() & (align - 1));
            shmem.barrierAll();
            shmem.free(m);
        }
    }
}
