package io.jshmem.examples.stress;

import io.jshmem.Shmem;
import io.jshmem.ShmemTimeoutException;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricLongs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One job of the synchronization stress ({@link SyncStress} runs many): rounds of barrier_all, sync_all and
 * team syncs with puts, gets, atomics and signals to other PEs between them, every result checked.
 * <p>
 * Each round every PE puts a tag of the round into its right neighbour's slot (blocking, nbi, or put-with-signal,
 * chosen per PE and round), reads its left neighbour's counter word with a get, takes a ticket from PE 0 and the
 * last PE with fetch_add, adds to a random PE's counter with a non-fetching add and bumps a random word with
 * compare_swap; now and then it floods random PEs with small nbi puts and its right neighbour with a 64 KiB nbi put (as
 * RemoteBench's put rate and bandwidth rows do); in one round of eight (the same on every PE) PE 0 alone runs one of
 * RemoteBench's latency rows (20-200 gets, puts with quiet, fetches or compare_swaps) to the last PE between two
 * barrier_alls that the others wait in; then every PE runs the round's collective (the same sequence on every PE: barrier_all, sync_all
 * after a quiet, WORLD's sync after a quiet, or a burst of 2-20 of them back to back) and checks that its left
 * neighbour's tag arrived. At the end PE 0 checks that every counter holds every add made to it and that no ticket
 * was handed out twice. The collectives' deadline is {@code SHMEM_COLLECTIVE_TIMEOUT} (set it short: a hang then
 * becomes a named timeout).
 * <p>
 * Output: {@code storm ok pe P/N rounds R ...} per PE on success. On a failure the PE prints
 * {@code storm FAILED pe P/N round R step S: why}, the step (which collective of the round, so which barrier every
 * PE is in), and a dump of all its threads, waits two seconds (so that the other PEs' own deadlines pass and they
 * dump too) and exits with status 3.
 * <p>
 * Usage: {@code bin/shmemrun ... io.jshmem.examples.stress.SyncStorm [ROUNDS [SEED]]} (default 200 rounds, seed 1).
 */
public final class SyncStorm
{
    /** Counter words per PE: 0 adds, 1 tickets (fetch_add), 2 compare_swap increments, 3 signal_set (unchecked). */
    private static final int COUNTERS = 4;
    /** The flood's target: small puts go to its first words, a bulk put covers it. */
    private static final int FLOOD_BYTES = 64 << 10;
    private static final int FLOOD_WORDS = 256;

    private SyncStorm()
    {
    }

    public static void main(final String[] args)
    {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        final long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        final State state = new State();
        final Shmem shmem;
        try
        {
            shmem = Shmem.init();
        }
        catch (final RuntimeException | Error ex)
        {
            fail(state, ex);
            return;
        }
        try
        {
            run(shmem, rounds, seed, state);
        }
        catch (final RuntimeException | Error ex)
        {
            fail(state, ex); // before finalize: its barrier would only wait again
        }
        shmem.close();
    }

    /** Where a PE is: printed when it fails, so every PE's position in the collective sequence is known. */
    private static final class State
    {
        volatile int me = -1;
        volatile int n = -1;
        volatile int round = -1;
        volatile String step = "init";
        /** Collectives this PE completed (barrier_all, sync_all and team syncs all count). */
        volatile long collectives;
    }

    private static void run(final Shmem shmem, final int rounds, final long seed, final State st)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        st.me = me;
        st.n = n;
        final int right = (me + 1) % n;
        final int left = (me - 1 + n) % n;
        // slot[2q + round parity]: the tag PE q put here (q may already put the next round's while this PE checks)
        final SymmetricLongs slots = shmem.allocateLongs(2L * n);
        final SymmetricLongs counters = shmem.allocateLongs(COUNTERS);
        final SymmetricLongs tickets = shmem.allocateLongs(2L * rounds * n); // on PE 0: which tickets were seen
        final SymmetricLongs adds = shmem.allocateLongs((long)n * COUNTERS);  // on PE 0: [q*COUNTERS+c] what q added to c, per target
        final SymmetricLongs sig = shmem.allocateLongs(1);
        final SymmetricLongs flood = shmem.allocateLongs(FLOOD_BYTES / 8); // written, never checked
        final MemorySegment bulk = Arena.ofAuto().allocate(FLOOD_BYTES, 64);
        final long[] added = new long[n * COUNTERS];                  // what this PE added to counter c of PE t (c 2: compare_swap)
        final SplittableRandom collectiveOrder = new SplittableRandom(seed);         // the same on every PE
        final SplittableRandom mine = new SplittableRandom(seed * 1_000_003L + me);  // this PE's own choices
        final long[] one = new long[1];
        sync(shmem, st, "start");
        for (int round = 0; round < rounds; round++)
        {
            st.round = round;
            final long tag = ((long)round << 16) | me;
            // --- the communication between the collectives
            st.step = "put";
            one[0] = tag;
            switch (mine.nextInt(3))
            {
                case 0 -> shmem.put(slots, 2L * me + (round & 1), one, 0, 1, right);
                case 1 -> shmem.putNbi(slots, 2L * me + (round & 1), one, 0, 1, right);
                default -> shmem.putSignal(slots, 2L * me + (round & 1), one, 0, 1, sig, 0, 1, SignalOp.ADD, right);
            }
            st.step = "get";
            final long leftCounter = shmem.g(counters, 0, left);
            if (leftCounter < 0)
            {
                throw new IllegalStateException("get of pe " + left + "'s counter 0 gave " + leftCounter);
            }
            st.step = "fetch_add";
            for (final int t : new int[] {0, n - 1})
            {
                final long ticket = shmem.atomicFetchAdd(counters, 1, 1L, t);
                added[t * COUNTERS + 1]++;
                if (t == 0)
                {
                    if (ticket < 0 || ticket >= 2L * rounds * n)
                    {
                        throw new IllegalStateException("ticket " + ticket + " from pe 0 out of range");
                    }
                    shmem.atomicAdd(tickets, ticket, 1L, 0); // PE 0 checks every ticket was handed out once
                }
            }
            st.step = "add";
            final int target = mine.nextInt(n);
            final long v = 1 + mine.nextInt(5);
            shmem.atomicAdd(counters, 0, v, target);
            added[target * COUNTERS] += v;
            st.step = "compare_swap";
            final int cs = mine.nextInt(n);
            while (true)
            {
                final long old = shmem.atomicFetch(counters, 2, cs);
                if (shmem.atomicCompareSwap(counters, 2, old, old + 1, cs) == old)
                {
                    added[cs * COUNTERS + 2]++;
                    break;
                }
            }
            if (mine.nextInt(16) == 0)
            {
                // a flood of small nbi puts and a 64 KiB one, completed by the collective's quiet (RemoteBench's put rate
                // and bandwidth rows fill UCX's socket and its pending queues this way)
                st.step = "flood";
                final int puts = 64 + mine.nextInt(1024);
                for (int i = 0; i < puts; i++)
                {
                    shmem.putNbi(flood, i & (FLOOD_WORDS - 1), one, 0, 1, mine.nextInt(n));
                }
                shmem.putmemNbi(flood, 0, bulk, right);
            }
            if (mine.nextInt(4) == 0)
            {
                st.step = "signal_set";
                shmem.signalSet(counters, 3, tag, mine.nextInt(n));
            }
            if (collectiveOrder.nextInt(8) == 0)
            {
                // RemoteBench's latency rows: PE 0 alone runs round trips to the last PE while every other PE waits in
                // barrier_all (and serves them from its wait); the rows' order and lengths are the same on every PE
                final int row = collectiveOrder.nextInt(4);
                final int count = 20 + collectiveOrder.nextInt(180);
                st.step = "row " + row + " x" + count + " (pe 0 -> pe " + (n - 1) + "), barrier_all before";
                shmem.barrierAll();
                st.collectives++;
                if (me == 0)
                {
                    st.step = "row " + row + " x" + count + " (pe 0 -> pe " + (n - 1) + ")";
                    for (int i = 0; i < count; i++)
                    {
                        switch (row)
                        {
                            case 0 -> shmem.get(one, 0, counters, 0, 1, n - 1);
                            case 1 ->
                            {
                                shmem.put(flood, 1, one, 0, 1, n - 1);
                                shmem.quiet();
                            }
                            case 2 -> shmem.atomicFetch(counters, 0, n - 1);
                            default -> shmem.atomicCompareSwap(counters, 3, -1L, -1L, n - 1); // never matches
                        }
                    }
                }
                st.step = "row " + row + " x" + count + " (pe 0 -> pe " + (n - 1) + "), barrier_all after";
                shmem.barrierAll();
                st.collectives++;
            }
            // --- the round's collective(s): the same on every PE
            final int kind = collectiveOrder.nextInt(8);
            final int burst = kind >= 6 ? 2 + collectiveOrder.nextInt(19) : 1;
            for (int b = 0; b < burst; b++)
            {
                final int which = kind >= 6 ? collectiveOrder.nextInt(3) : kind % 3;
                switch (which)
                {
                    case 0 ->
                    {
                        st.step = "barrier_all #" + b;
                        shmem.barrierAll();
                    }
                    case 1 ->
                    {
                        st.step = "quiet+sync_all #" + b;
                        shmem.quiet();
                        shmem.syncAll();
                    }
                    default ->
                    {
                        st.step = "quiet+team_world.sync #" + b;
                        shmem.quiet();
                        shmem.teamWorld().sync();
                    }
                }
                st.collectives++;
            }
            st.step = "check";
            final long got = slots.getLocal(2L * left + (round & 1));
            if (got != ((long)round << 16 | left))
            {
                throw new IllegalStateException("round " + round + ": slot of pe " + left + " holds " + Long.toHexString(got) +
                    ", expected " + Long.toHexString((long)round << 16 | left) + " (its put before the collective)");
            }
        }
        // --- totals: every PE reports what it added to every counter, PE 0 checks
        st.step = "totals";
        for (int t = 0; t < n; t++)
        {
            for (int c = 0; c < COUNTERS - 1; c++)
            {
                if (added[t * COUNTERS + c] != 0)
                {
                    shmem.atomicAdd(adds, (long)t * COUNTERS + c, added[t * COUNTERS + c], 0);
                }
            }
        }
        sync(shmem, st, "totals");
        final long[] got = new long[COUNTERS - 1];
        for (int c = 0; c < COUNTERS - 1; c++)
        {
            got[c] = counters.getLocal(c);
        }
        final long[] want = new long[COUNTERS - 1];
        for (int c = 0; c < COUNTERS - 1; c++)
        {
            want[c] = shmem.g(adds, (long)me * COUNTERS + c, 0);
        }
        for (int c = 0; c < COUNTERS - 1; c++)
        {
            if (got[c] != want[c])
            {
                throw new IllegalStateException("counter " + c + " holds " + got[c] + ", the PEs added " + want[c]);
            }
        }
        if (me == 0)
        {
            final long issued = counters.getLocal(1);
            for (long t = 0; t < issued; t++)
            {
                if (tickets.getLocal(t) != 1)
                {
                    throw new IllegalStateException("ticket " + t + " of " + issued + " was handed out " + tickets.getLocal(t) + " times");
                }
            }
        }
        sync(shmem, st, "end");
        System.out.println("storm ok pe " + me + "/" + n + " rounds " + rounds + " collectives " + st.collectives +
            " counters " + java.util.Arrays.toString(got));
        shmem.free(flood);
        shmem.free(sig);
        shmem.free(adds);
        shmem.free(tickets);
        shmem.free(counters);
        shmem.free(slots);
    }

    private static void sync(final Shmem shmem, final State st, final String what)
    {
        st.step = "barrier_all (" + what + ")";
        shmem.barrierAll();
        st.collectives++;
    }

    /** Prints where this PE is and what every thread of it does, waits 2 s for the others' deadlines, exits 3. */
    private static void fail(final State st, final Throwable ex)
    {
        final StringBuilder b = new StringBuilder();
        b.append("storm FAILED pe ").append(st.me).append('/').append(st.n).append(" round ").append(st.round).append(" step ")
            .append(st.step).append(" after ").append(st.collectives).append(" collectives")
            .append(ex instanceof ShmemTimeoutException && String.valueOf(ex.getMessage()).contains("SHMEM_COLLECTIVE_TIMEOUT")
                ? " (collective timeout)" : "").append(": ").append(ex).append('\n');
        for (Throwable c = ex.getCause(); c != null; c = c.getCause())
        {
            b.append("  caused by ").append(c).append('\n');
        }
        b.append("storm threads of pe ").append(st.me).append(":\n");
        for (final Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet())
        {
            final Thread t = e.getKey();
            b.append("  \"").append(t.getName()).append("\" ").append(t.getState()).append('\n');
            for (final StackTraceElement f : e.getValue())
            {
                b.append("      at ").append(f).append('\n');
            }
        }
        System.err.print(b);
        System.err.flush();
        try
        {
            Thread.sleep(2000);
        }
        catch (final InterruptedException ie)
        {
            Thread.currentThread().interrupt();
        }
        System.exit(3);
    }
}
