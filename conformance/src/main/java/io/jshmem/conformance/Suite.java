package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a list of {@link Program}s on this PE, in one job: every PE of the job runs
 * {@code io.jshmem.conformance.Suite Class1 Class2 ...} (fully qualified class names) under shmemrun.
 * <ol>
 *   <li>one {@code Shmem.init} at the highest {@link Program#threadLevel()} of the list;</li>
 *   <li>for each program: {@code barrierAll}, then the program with a fresh {@link Check}, then one
 *       verdict line per PE, {@code VERDICT PASS|FAIL|SKIP [pe i/n] Name (...)}; a program that
 *       leaves symmetric heap in use fails (programs share the PE, so each must clean up);</li>
 *   <li>a program that throws prints the exception and its FAIL verdict and ends the whole job with
 *       {@code globalExit(1)}, so no PE waits for it in a barrier; the programs after it get no
 *       verdict, which the IT reports as failures;</li>
 *   <li>a program needing more PEs than the job has prints {@code SKIP} (never a pass);</li>
 *   <li>close; the PE exits {@link Spmd#FAIL} if a program failed, {@link Spmd#SKIP} (77) if every
 *       program skipped, 0 otherwise.</li>
 * </ol>
 * An {@link Program#ownJob()} program must be the only one of its job. The IT that drives this
 * ({@code SuiteIT}) parses the verdict lines with {@link #VERDICT}.
 */
public final class Suite
{
    /** A verdict line: group 1 PASS/FAIL/SKIP, 2 PE, 3 nPes, 4 program name, 5 detail. */
    public static final Pattern VERDICT = Pattern.compile("VERDICT (PASS|FAIL|SKIP) \\[pe (\\d+)/(\\d+)] (\\S+) \\((.*)\\)");

    private Suite()
    {
    }

    /**
     * @param args fully qualified names of {@link Program} classes.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out));
    }

    /**
     * Instantiates a program class by name.
     *
     * @param className fully qualified.
     * @return the program.
     */
    public static Program instantiate(final String className)
    {
        try
        {
            final Class<?> c = Class.forName(className);
            if (!Program.class.isAssignableFrom(c))
            {
                throw new IllegalArgumentException(className + " does not implement " + Program.class.getName());
            }
            return (Program)c.getConstructor().newInstance();
        }
        catch (final ReflectiveOperationException e)
        {
            throw new IllegalArgumentException("cannot instantiate program " + className + ": " + e, e);
        }
    }

    /**
     * Runs the programs on this PE.
     *
     * @param classNames the program classes.
     * @param out        where verdicts go.
     * @return this PE's exit status.
     */
    public static int run(final String[] classNames, final PrintStream out)
    {
        final List<Program> programs = new ArrayList<>();
        ThreadLevel level = ThreadLevel.SINGLE;
        try
        {
            for (final String name : classNames)
            {
                final Program p = instantiate(name);
                programs.add(p);
                if (p.threadLevel().compareTo(level) > 0)
                {
                    level = p.threadLevel();
                }
            }
            if (programs.isEmpty())
            {
                throw new IllegalArgumentException("usage: Suite ProgramClass... (no program given)");
            }
            for (final Program p : programs)
            {
                if (p.ownJob() && programs.size() > 1)
                {
                    throw new IllegalArgumentException(p.name() + " must own its job, but the list has " + programs.size() + " programs");
                }
            }
        }
        catch (final RuntimeException e)
        {
            out.println("FAIL [pe ?] Suite: " + e.getMessage());
            out.flush();
            return Spmd.FAIL;
        }

        final Shmem shmem;
        try
        {
            shmem = Shmem.init(level);
        }
        catch (final Throwable t)
        {
            out.println("FAIL [pe ?] Suite: init(" + level + ") failed: " + t);
            t.printStackTrace(out);
            out.flush();
            return Spmd.FAIL;
        }
        final int me = shmem.myPe();
        final int nPes = shmem.nPes();
        if (shmem.threadLevel().compareTo(level) < 0)
        {
            out.println("FAIL [pe " + me + "/" + nPes + "] Suite: asked for thread level " + level + ", got " + shmem.threadLevel());
            Spmd.endJob(shmem, out);
        }
        boolean allOk = true;
        boolean allSkipped = true;
        for (final Program p : programs)
        {
            shmem.barrierAll();
            allOk &= runOne(shmem, p, out);
            allSkipped &= shmem.nPes() < p.minPes();
        }
        try
        {
            shmem.close();
        }
        catch (final Throwable t)
        {
            out.println("FAIL [pe " + me + "/" + nPes + "] Suite: close (finalize) threw " + t);
            t.printStackTrace(out);
            allOk = false;
        }
        out.flush();
        return !allOk ? Spmd.FAIL : allSkipped ? Spmd.SKIP : Spmd.PASS;
    }

    private static boolean runOne(final Shmem shmem, final Program p, final PrintStream out)
    {
        final String name = p.name();
        final String tag = "[pe " + shmem.myPe() + "/" + shmem.nPes() + "] " + name;
        if (shmem.nPes() < p.minPes())
        {
            out.println("SKIP: " + name + " needs at least " + p.minPes() + " PEs, the job has " + shmem.nPes());
            out.println("VERDICT SKIP " + tag + " (needs at least " + p.minPes() + " PEs, the job has " + shmem.nPes() + ")");
            out.flush();
            return true;
        }
        final Check check = new Check(name, shmem, out);
        final long heapBefore = shmem.heapUsedBytes();
        final long start = System.nanoTime();
        try
        {
            p.run(shmem, check);
        }
        catch (final Throwable t)
        {
            out.println("FAIL " + tag + ": unexpected " + t);
            t.printStackTrace(out);
            out.println("VERDICT FAIL " + tag + " (threw " + t + "; ending the job)");
            out.flush();
            Spmd.endJob(shmem, out);
            return false;
        }
        final long ms = (System.nanoTime() - start) / 1_000_000;
        final long heapAfter = shmem.heapUsedBytes();
        if (heapAfter != heapBefore)
        {
            check.fail("free", "the program left " + (heapAfter - heapBefore) + " bytes of symmetric heap in use (before " +
                heapBefore + ", after " + heapAfter + ")");
        }
        final boolean ok = check.failures() == 0;
        out.println("VERDICT " + (ok ? "PASS " : "FAIL ") + tag + " (" + check.checks() + " checks, " + check.failures() + " failed, " + ms + " ms)");
        out.flush();
        return ok;
    }

    /**
     * Parses a verdict line.
     *
     * @param line a line of a PE's output (tagged or not).
     * @return the matcher positioned on the verdict, or null if the line holds none.
     */
    public static Matcher verdict(final String line)
    {
        final Matcher m = VERDICT.matcher(line);
        return m.find() ? m : null;
    }
}
