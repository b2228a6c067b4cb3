package io.jshmem.conformance;

import io.jshmem.launch.ShmemRun;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a job in this JVM through the launcher users run ({@link ShmemRun#run}), with this JVM's class
 * path, and captures every PE's tagged output.
 */
final class Launch
{
    /** A finished job. */
    record Result(String what, int status, String out, String err, long elapsedMs)
    {
        /** @return stdout and stderr together. */
        String all()
        {
            return out + err;
        }

        /** @return everything a failure report needs: the command, status, time and every PE's output. */
        String report()
        {
            return "\n==== " + what + ": exit " + status + " after " + elapsedMs + " ms\n---- stdout (every PE, tagged)\n" + out +
                "---- stderr (every PE, tagged, and shmemrun's own messages)\n" + err + "====\n";
        }

        /** @return the first line that says SKIP, or null. */
        String skipLine()
        {
            for (final String line : all().split("\n"))
            {
                if (line.contains("SKIP:"))
                {
                    return line.strip();
                }
            }
            return null;
        }
    }

    private Launch()
    {
    }

    /**
     * @param np         number of PEs.
     * @param timeoutS   the launcher's --timeout.
     * @param extra      further launcher options (e.g. {@code -x NAME=VALUE}).
     * @param mainClass  the program.
     * @param args       its arguments.
     * @return the job's result.
     */
    static Result run(final int np, final int timeoutS, final List<String> extra, final String mainClass, final String... args)
    {
        final List<String> cmd = new ArrayList<>(List.of("-np", String.valueOf(np), "--tag-output", "--timeout", String.valueOf(timeoutS),
            "-cp", System.getProperty("java.class.path")));
        cmd.addAll(extra);
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final long start = System.nanoTime();
        final int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8))
        {
            status = ShmemRun.run(cmd.toArray(new String[0]), o, e);
        }
        final long ms = (System.nanoTime() - start) / 1_000_000;
        final String what = "shmemrun -np " + np + " " + String.join(" ", extra) + " " + simple(mainClass) + " " +
            String.join(" ", java.util.Arrays.stream(args).map(Launch::simple).toList());
        final Result r = new Result(what.replaceAll(" +", " ").strip(), status, out.toString(StandardCharsets.UTF_8),
            err.toString(StandardCharsets.UTF_8), ms);
        System.out.printf("%-60s exit %3d  %6d ms%n", r.what(), status, ms);
        return r;
    }

    private static String simple(final String cls)
    {
        return cls.substring(cls.lastIndexOf('.') + 1);
    }
}
