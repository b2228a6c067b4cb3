package io.jshmem.conformance.spec;

import io.jshmem.ReduceOp;
import io.jshmem.SessionConfig;
import io.jshmem.SessionOption;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymmetricLongs;
import io.jshmem.conformance.Check;
import io.jshmem.conformance.Program;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The session example of OpenSHMEM 1.6 (a GUPS-like burst of atomic XOR updates to random entries
 * of a table on random PEs, between {@code shmem_ctx_session_start} and {@code shmem_ctx_session_stop}),
 * made self-checking: each PE keeps a ledger of what it sent where, the ledgers are XOR-reduced over
 * TEAM_WORLD, and every PE's table must equal its row of the reduction. One session runs on the
 * default context with the batch option and the expected operation count, one on a created context
 * with neither; sessions are hints, so the table must be exact either way. Argument checks: a null
 * configuration or option is refused, and so is a negative operation count.
 */
public final class SessionAmo implements Program
{
    private static final int INDICES = 128;
    private static final int UPDATES = 2048;

    @Override
    public String follows()
    {
        return "OpenSHMEM 1.6 specification, shmem_ctx_session_start/stop example";
    }

    @Override
    public List<String> routines()
    {
        return List.of("shmem_ctx_session_start", "shmem_ctx_session_stop", "shmem_atomic_xor", "shmem_ctx_create",
            "shmem_ctx_destroy", "shmem_quiet", "shmem_xor_reduce");
    }

    @Override
    public void run(final Shmem shmem, final Check check)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final SymmetricLongs table = shmem.allocateLongs(INDICES);
        final long[] ledger = new long[n * INDICES];
        final SplittableRandom random = new SplittableRandom(0x5E55_1000L + me);
        shmem.barrierAll(); // every table is zero before anyone updates it

        shmem.sessionStart(new SessionConfig(UPDATES), SessionOption.BATCH);
        burst(shmem, table, ledger, random, UPDATES, n);
        shmem.sessionStop();

        try (ShmemContext ctx = shmem.createContext())
        {
            ctx.sessionStart(SessionConfig.NONE);
            burst(ctx, table, ledger, random, UPDATES / 2, n);
            ctx.sessionStop();
            ctx.quiet();
        }
        shmem.quiet();
        shmem.barrierAll();

        final SymmetricLongs sent = shmem.allocateLongs(ledger.length);
        final SymmetricLongs all = shmem.allocateLongs(ledger.length);
        for (int i = 0; i < ledger.length; i++)
        {
            sent.setLocal(i, ledger[i]);
        }
        shmem.teamWorld().reduce(ReduceOp.XOR, all, sent, ledger.length);
        int wrong = 0;
        for (int i = 0; i < INDICES; i++)
        {
            final long expected = all.getLocal((long)me * INDICES + i);
            if (table.getLocal(i) != expected && wrong++ < 5)
            {
                check.eq("shmem_atomic_xor in a session", "longs", i, expected, table.getLocal(i));
            }
        }
        check.isTrue(wrong == 0, "shmem_ctx_session_stop", wrong + " of " + INDICES + " table entries differ from the XOR of every PE's updates");

        try
        {
            shmem.sessionStart(null);
            check.fail("shmem_ctx_session_start", "a null configuration was accepted");
        }
        catch (final NullPointerException expected)
        {
            check.isTrue(expected.getMessage() != null, "shmem_ctx_session_start", "null configuration refused without a message");
        }
        try
        {
            shmem.sessionStart(SessionConfig.NONE, (SessionOption)null);
            check.fail("shmem_ctx_session_start", "a null option was accepted");
        }
        catch (final NullPointerException expected)
        {
            // refused
        }
        try
        {
            new SessionConfig(-1);
            check.fail("shmem_ctx_session_start", "totalOps -1 was accepted");
        }
        catch (final IllegalArgumentException expected)
        {
            check.isTrue(expected.getMessage().contains("-1"), "shmem_ctx_session_start", expected.getMessage());
        }
        shmem.barrierAll();
        shmem.free(all);
        shmem.free(sent);
        shmem.free(table);
    }

    /** {@code count} atomic XORs of random values into random entries on random PEs, recorded in the ledger. */
    private static void burst(final ShmemContext ctx, final SymmetricLongs table, final long[] ledger, final SplittableRandom random,
        final int count, final int n)
    {
        for (int k = 0; k < count; k++)
        {
            final int pe = random.nextInt(n);
            final int index = random.nextInt(INDICES);
            final long value = random.nextLong();
            ctx.atomicXor(table, index, value, pe);
            ledger[pe * INDICES + index] ^= value;
        }
    }
}
