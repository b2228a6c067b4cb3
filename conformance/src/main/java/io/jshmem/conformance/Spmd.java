package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;

import java.io.PrintStream;

/**
 * Runs one conformance program on this PE: init, the body, close, and the exit status that is the
 * PE's verdict. Every PE of the job calls {@link #run} from its {@code main}.
 * <ul>
 *   <li>{@link #PASS} (0): every check passed;</li>
 *   <li>{@link #SKIP} (77, automake's convention): the program needs more PEs than the job has; the PE
 *       prints {@code SKIP: <why>} first. Never a silent pass;</li>
 *   <li>{@link #FAIL} (1): a check failed or the body threw; every failure was printed.</li>
 * </ul>
 * An exception escaping the body ends the whole job with {@code globalExit(FAIL)} after printing it,
 * so that the other PEs do not wait for this one in a barrier until the launcher's timeout.
 */
public final class Spmd
{
    /** Exit status of a PE whose checks all passed. */
    public static final int PASS = 0;
    /** Exit status of a PE with a failed check. */
    public static final int FAIL = 1;
    /** Exit status of a PE that lacks PEs to run the program (printed {@code SKIP: ...}). */
    public static final int SKIP = 77;

    /** The body of a conformance program. */
    @FunctionalInterface
    public interface Body
    {
        /**
         * Runs the checks; called on every PE.
         *
         * @param shmem this PE.
         * @param check where results go.
         * @throws Exception anything unexpected, which fails the program.
         */
        void run(Shmem shmem, Check check) throws Exception;
    }

    private Spmd()
    {
    }

    /** As {@link #run(String, int, ThreadLevel, Body)} at {@link ThreadLevel#SINGLE}. */
    public static void run(final String program, final int minPes, final Body body)
    {
        run(program, minPes, ThreadLevel.SINGLE, body);
    }

    /**
     * Runs {@code body} on this PE and exits the JVM with the PE's verdict.
     *
     * @param program name printed with every line.
     * @param minPes  fewest PEs the program can check anything with; fewer is a SKIP.
     * @param level   thread level to request.
     * @param body    the checks.
     */
    public static void run(final String program, final int minPes, final ThreadLevel level, final Body body)
    {
        System.exit(execute(program, minPes, level, body, System.out));
    }

    /**
     * Ends every PE with {@link #FAIL}. globalExit does not return; should it throw (another PE's
     * global exit already under way), this PE exits by itself.
     */
    static void endJob(final Shmem shmem, final PrintStream out)
    {
        try
        {
            shmem.globalExit(FAIL);
        }
        catch (final Throwable t)
        {
            out.println("note: globalExit(" + FAIL + ") threw (another exit under way?): " + t);
        }
        out.flush();
        System.exit(FAIL);
    }

    static int execute(final String program, final int minPes, final ThreadLevel level, final Body body, final PrintStream out)
    {
        final long start = System.nanoTime();
        int status;
        final Shmem shmem;
        try
        {
            shmem = Shmem.init(level);
        }
        catch (final Throwable t)
        {
            out.println("FAIL [pe ?] " + program + ": init failed: " + t);
            t.printStackTrace(out);
            out.flush();
            return FAIL;
        }
        final Check check = new Check(program, shmem, out);
        try
        {
            if (shmem.nPes() < minPes)
            {
                out.println("SKIP: " + program + " needs at least " + minPes + " PEs, the job has " + shmem.nPes());
                status = SKIP;
            }
            else
            {
                body.run(shmem, check);
                status = check.failures() == 0 ? PASS : FAIL;
            }
        }
        catch (final Throwable t)
        {
            out.println("FAIL [pe " + check.me() + "/" + check.nPes() + "] " + program + ": unexpected " + t);
            t.printStackTrace(out);
            out.flush();
            // The other PEs may be blocked in a collective this PE will never reach: end them all now
            // rather than at the launcher's timeout (close() here would wait for them forever).
            endJob(shmem, out);
            return FAIL;
        }
        try
        {
            shmem.close();
        }
        catch (final Throwable t)
        {
            out.println("FAIL [pe " + check.me() + "/" + check.nPes() + "] " + program + ": close (finalize) threw " + t);
            t.printStackTrace(out);
            status = FAIL;
        }
        if (status != SKIP)
        {
            out.printf("%s [pe %d/%d] %s: %d checks, %d failed, %d ms%n", status == PASS ? "PASS" : "FAIL",
                check.me(), check.nPes(), program, check.checks(), check.failures(), (System.nanoTime() - start) / 1_000_000);
        }
        out.flush();
        return status;
    }
}
