package io.jshmem.conformance;

import io.jshmem.Shmem;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Records the checks of one PE of a conformance program. A failed check does not stop the program
 * (every PE keeps calling the same collectives in the same order); it is printed at once, naming the
 * PE, the routine, the element type, the index, the expected and the actual value, and it makes the
 * PE's verdict {@link Spmd#FAIL}. Only the first {@link #MAX_PRINTED} failures are printed; the count
 * is always exact.
 * <p>
 * Threads: the thread that runs the program; {@link #fail} is also safe from helper threads.
 */
public final class Check
{
    /** Failures printed per PE before the rest are only counted. */
    public static final int MAX_PRINTED = 40;
    /** How long a bounded wait polls before it declares the awaited update lost. */
    public static final long AWAIT_TIMEOUT_NS = 30_000_000_000L;

    private final String program;
    private final Shmem shmem;
    private final int me;
    private final int nPes;
    private final PrintStream out;
    private int checks;
    private int failures;
    private String section = "";

    Check(final String program, final Shmem shmem, final PrintStream out)
    {
        this.program = program;
        this.shmem = shmem;
        this.me = shmem.myPe();
        this.nPes = shmem.nPes();
        this.out = out;
    }

    /** @return this PE's number. */
    public int me()
    {
        return me;
    }

    /** @return the number of PEs. */
    public int nPes()
    {
        return nPes;
    }

    /** @return the right neighbour, (me + 1) mod nPes. */
    public int right()
    {
        return (me + 1) % nPes;
    }

    /** @return the left neighbour, (me - 1) mod nPes. */
    public int left()
    {
        return (me + nPes - 1) % nPes;
    }

    /** @return the PE this check runs on. */
    public Shmem shmem()
    {
        return shmem;
    }

    /** Names the part of the program that follows (printed with failures and in the progress log). */
    public void section(final String name)
    {
        section = name;
        if (me == 0)
        {
            out.println("  " + program + ": " + name);
        }
    }

    /** @return the number of checks made so far. */
    public synchronized int checks()
    {
        return checks;
    }

    /** @return the number of failed checks so far. */
    public synchronized int failures()
    {
        return failures;
    }

    /**
     * Records one failure.
     *
     * @param routine the routine under test, e.g. {@code put}.
     * @param what    what went wrong, with every operand.
     */
    public synchronized void fail(final String routine, final String what)
    {
        checks++;
        failures++;
        if (failures <= MAX_PRINTED)
        {
            out.println("FAIL [pe " + me + "/" + nPes + "] " + program + (section.isEmpty() ? "" : " (" + section + ")") +
                " " + routine + ": " + what);
        }
        else if (failures == MAX_PRINTED + 1)
        {
            out.println("FAIL [pe " + me + "/" + nPes + "] ... further failures counted, not printed");
        }
    }

    private synchronized void pass()
    {
        checks++;
    }

    /**
     * Checks a condition.
     *
     * @return {@code condition}.
     */
    public boolean isTrue(final boolean condition, final String routine, final String what)
    {
        if (condition)
        {
            pass();
        }
        else
        {
            fail(routine, what);
        }
        return condition;
    }

    /** Checks {@code expected == actual} for one element. @return true if equal. */
    public boolean eq(final String routine, final String type, final long index, final long expected, final long actual)
    {
        if (expected == actual)
        {
            pass();
            return true;
        }
        fail(routine, "type=" + type + " index=" + index + " expected=" + expected + " actual=" + actual);
        return false;
    }

    /** Checks a value that is not indexed. @return true if equal. */
    public boolean eq(final String routine, final String what, final Object expected, final Object actual)
    {
        if (java.util.Objects.equals(expected, actual))
        {
            pass();
            return true;
        }
        fail(routine, what + " expected=" + expected + " actual=" + actual);
        return false;
    }

    /**
     * Runs {@code action} and checks that it throws one of {@code allowed}, with a message that
     * contains every one of {@code mustContain} (case-insensitive).
     *
     * @return the exception thrown, or null if none or the wrong one.
     */
    public Throwable throwsOneOf(final String routine, final String operands, final Runnable action,
        final String[] mustContain, final Class<?>... allowed)
    {
        final Throwable thrown;
        try
        {
            action.run();
            fail(routine, operands + ": no exception; expected one of " + names(allowed));
            return null;
        }
        catch (final Throwable t)
        {
            thrown = t;
        }
        boolean typeOk = false;
        for (final Class<?> c : allowed)
        {
            typeOk |= c.isInstance(thrown);
        }
        if (!typeOk)
        {
            fail(routine, operands + ": threw " + thrown + "; expected one of " + names(allowed));
            return null;
        }
        final String msg = String.valueOf(thrown.getMessage());
        final String lower = msg.toLowerCase(Locale.ROOT);
        for (final String s : mustContain)
        {
            if (!lower.contains(s.toLowerCase(Locale.ROOT)))
            {
                fail(routine, operands + ": message lacks '" + s + "': " + thrown);
                return thrown;
            }
        }
        pass();
        return thrown;
    }

    private static String names(final Class<?>[] classes)
    {
        final StringBuilder sb = new StringBuilder();
        for (final Class<?> c : classes)
        {
            sb.append(sb.isEmpty() ? "" : "/").append(c.getSimpleName());
        }
        return sb.toString();
    }

    /**
     * Polls {@code condition} (a local read) until it holds or {@link #AWAIT_TIMEOUT_NS} passes, so that
     * a lost update is reported as a failure instead of hanging the job. On timeout the PE prints the
     * failure and ends the whole job ({@code globalExit(1)}): the PEs could no longer stay in step.
     */
    public void await(final String routine, final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + AWAIT_TIMEOUT_NS;
        int polls = 0;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail(routine, "timed out after " + AWAIT_TIMEOUT_NS / 1_000_000_000L + " s waiting for " + what);
                fatal("an awaited update never arrived");
            }
            if (++polls > 1000)
            {
                Thread.onSpinWait();
                if ((polls & 63) == 0)
                {
                    Thread.yield();
                }
            }
        }
    }

    /** Prints the verdict and ends every PE of the job with status {@link Spmd#FAIL}. Does not return. */
    public void fatal(final String why)
    {
        out.println("FAIL [pe " + me + "/" + nPes + "] " + program + ": " + why + "; ending the job");
        out.flush();
        System.err.flush();
        Spmd.endJob(shmem, out);
        throw new IllegalStateException("unreachable: the PE exited");
    }
}
