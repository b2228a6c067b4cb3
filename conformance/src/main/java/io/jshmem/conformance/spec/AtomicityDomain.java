package io.jshmem.conformance.spec;

import io.jshmem.Shmem;
import io.jshmem.SymmetricInts;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.BitSet;
import java.util.List;

/**
 * The spec's atomicity guarantee (section 9.8: atomic operations on one object are atomic with respect to
 * each other, from every PE) where it is easiest to break: every PE hammers the same words on PE 0 and on
 * the last PE at once, so on a job spanning hosts the target's node-local peers use CPU atomics on the
 * mapped word while the other hosts' PEs reach it through the remote transport (proxy or ucx). Tickets
 * from 64-bit fetch_add and from compare_swap increments must each be exactly 0..n*R-1 with none
 * repeated, and the 32-bit counter must end at n*R; every PE checks the gathered tickets itself.
 */
public final class AtomicityDomain implements Program
{
    private static final int ROUNDS = 300;

    @Override
    public String follows()
    {
        return "OpenSHMEM 1.6 section 9.8 (atomicity guarantees), self-checking";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_atomic_fetch_add", "shmem_atomic_compare_swap", "shmem_atomic_add", "shmem_atomic_fetch",
            "shmem_fcollect");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int n = shmem.nPes();
        final SymmetricLongs words = shmem.allocateLongs(2);          // [0] fetch_add counter, [1] compare_swap counter
        final SymmetricInts small = shmem.allocateInts(2);            // [0] 32-bit counter
        final SymmetricLongs mine = shmem.allocateLongs(2L * ROUNDS);  // this PE's tickets: fetch_add, then compare_swap
        final SymmetricLongs all = shmem.allocateLongs(2L * ROUNDS * n);
        for (final int target : n == 1 ? new int[] {0} : new int[] {0, n - 1})
        {
            shmem.barrierAll(); // every counter is zero (fresh, or reset below) before anyone adds
            for (int r = 0; r < ROUNDS; r++)
            {
                mine.setLocal(r, shmem.atomicFetchAdd(words, 0, 1L, target));
                long seen = shmem.atomicFetch(words, 1, target);
                while (true)
                {
                    final long old = shmem.atomicCompareSwap(words, 1, seen, seen + 1, target);
                    if (old == seen)
                    {
                        break;
                    }
                    seen = old;
                }
                mine.setLocal(ROUNDS + r, seen);
                shmem.atomicAdd(small, 0, 1, target);
            }
            shmem.quiet();
            shmem.barrierAll();
            shmem.teamWorld().fcollect(all, mine, 2L * ROUNDS);
            final BitSet adds = new BitSet();
            final BitSet swaps = new BitSet();
            int repeated = 0;
            int outside = 0;
            for (int pe = 0; pe < n; pe++)
            {
                for (int r = 0; r < ROUNDS; r++)
                {
                    final long a = all.getLocal((long)pe * 2 * ROUNDS + r);
                    final long s = all.getLocal((long)pe * 2 * ROUNDS + ROUNDS + r);
                    repeated += record(adds, a, n) + record(swaps, s, n);
                    outside += inRange(a, n) ? 0 : 1;
                    outside += inRange(s, n) ? 0 : 1;
                }
            }
            final String where = "on pe " + target + " from " + n + " PEs x " + ROUNDS;
            check.isTrue(outside == 0, "shmem_atomic_fetch_add", outside + " tickets outside [0, " + n * ROUNDS + ") " + where);
            check.isTrue(repeated == 0, "shmem_atomic_compare_swap", repeated + " tickets handed out twice " + where);
            check.isTrue(adds.cardinality() == n * ROUNDS, "shmem_atomic_fetch_add", adds.cardinality() + " distinct tickets, expected " +
                n * ROUNDS + " " + where);
            check.isTrue(swaps.cardinality() == n * ROUNDS, "shmem_atomic_compare_swap", swaps.cardinality() +
                " distinct tickets, expected " + n * ROUNDS + " " + where);
            check.eq("shmem_atomic_fetch_add", "final 64-bit counter " + where, (long)n * ROUNDS, shmem.atomicFetch(words, 0, target));
            check.eq("shmem_atomic_add", "final 32-bit counter " + where, n * ROUNDS, shmem.atomicFetch(small, 0, target));
            shmem.barrierAll(); // everyone has read the totals before the target resets them
            if (shmem.myPe() == target)
            {
                words.setLocal(0, 0);
                words.setLocal(1, 0);
                small.setLocal(0, 0);
            }
        }
        shmem.barrierAll();
        shmem.free(all);
        shmem.free(mine);
        shmem.free(small);
        shmem.free(words);
    }

    private static boolean inRange(final long ticket, final int n)
    {
        return ticket >= 0 && ticket < (long)n * ROUNDS;
    }

    /** @return 1 if the ticket was already handed out, else 0 (and it is marked). */
    private static int record(final BitSet seen, final long ticket, final int n)
    {
        if (!inRange(ticket, n))
        {
            return 0;
        }
        if (seen.get((int)ticket))
        {
            return 1;
        }
        seen.set((int)ticket);
        return 0;
    }
}
