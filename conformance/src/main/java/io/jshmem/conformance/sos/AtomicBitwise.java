package io.jshmem.conformance.sos;

import io.jshmem.AtomicOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricArray;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;

/**
 * PEs in pairs (0 with 1, 2 with 3, ...) apply, to their partner's zeroed target and in this order,
 * xor 0xff, fetch_xor 0xffff, or 0xff, fetch_or 0xff0000, and 0xffff00, fetch_and 0xff0000, with a
 * barrier after each, checking the target and every fetched value; for ints and longs (the
 * original's unsigned and fixed-width types). The original needs an even PE count and silently passes
 * otherwise; here, with an odd count, the last PE is its own partner, so every count is checked.
 */
public final class AtomicBitwise implements Program
{
    @Override
    public String follows()
    {
        return "tests-sos test/unit/atomic_bitwise.c";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_xor", "shmem_atomic_fetch_xor", "shmem_atomic_or", "shmem_atomic_fetch_or",
            "shmem_atomic_and", "shmem_atomic_fetch_and");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final int partner = me % 2 == 0 ? (me + 1 < n ? me + 1 : me) : me - 1;
        for (final Word w : Word.ALL)
        {
            final SymmetricArray<?> t = w.allocate(shmem, 1);
            w.setLocal(t, 0, 0);
            shmem.barrierAll();
            w.atomic(shmem, AtomicOp.XOR, t, 0, 0xff, 0, partner);
            shmem.barrierAll();
            check.eq("shmem_atomic_xor", w.name(), 0, 0xff, w.local(t, 0));
            shmem.barrierAll();
            long old = w.atomic(shmem, AtomicOp.FETCH_XOR, t, 0, 0xffff, 0, partner);
            shmem.barrierAll();
            check.eq("shmem_atomic_fetch_xor", w.name() + " fetched", 0, 0xff, old);
            check.eq("shmem_atomic_fetch_xor", w.name(), 0, 0xff ^ 0xffff, w.local(t, 0));
            shmem.barrierAll();
            w.atomic(shmem, AtomicOp.OR, t, 0, 0xff, 0, partner);
            shmem.barrierAll();
            check.eq("shmem_atomic_or", w.name(), 0, 0xffff, w.local(t, 0));
            shmem.barrierAll();
            old = w.atomic(shmem, AtomicOp.FETCH_OR, t, 0, 0xff0000, 0, partner);
            shmem.barrierAll();
            check.eq("shmem_atomic_fetch_or", w.name() + " fetched", 0, 0xffff, old);
            check.eq("shmem_atomic_fetch_or", w.name(), 0, 0xffffff, w.local(t, 0));
            shmem.barrierAll();
            w.atomic(shmem, AtomicOp.AND, t, 0, 0xffff00, 0, partner);
            shmem.barrierAll();
            check.eq("shmem_atomic_and", w.name(), 0, 0xffff00, w.local(t, 0));
            shmem.barrierAll();
            old = w.atomic(shmem, AtomicOp.FETCH_AND, t, 0, 0xff0000, 0, partner);
            shmem.barrierAll();
            check.eq("shmem_atomic_fetch_and", w.name() + " fetched", 0, 0xffff00, old);
            check.eq("shmem_atomic_fetch_and", w.name(), 0, 0xff0000, w.local(t, 0));
            shmem.barrierAll();
            shmem.free(t);
        }
    }
}
