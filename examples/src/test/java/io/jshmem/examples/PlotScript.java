package io.jshmem.examples;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The benchmarks' Python tools in {@code benchmarks/plot}, run with python3 by the tests of those tools. */
final class PlotScript
{
    private static final Path DIR = Path.of("..", "benchmarks", "plot").toAbsolutePath().normalize();

    private PlotScript()
    {
    }

    /** @return the command line that runs script {@code name} with {@code args}. */
    static List<String> command(final String name, final String... args)
    {
        final List<String> cmd = new ArrayList<>(List.of("python3", DIR.resolve(name).toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Runs script {@code name} to its end (60 s at most), asserts it exited 0, and returns its output. */
    static String run(final String name, final String... args) throws Exception
    {
        final Process p = new ProcessBuilder(command(name, args)).redirectErrorStream(true).start();
        try
        {
            final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), name + " did not end");
            assertEquals(0, p.exitValue(), name + ":\n" + out);
            return out;
        }
        finally
        {
            p.destroyForcibly();
        }
    }
}
