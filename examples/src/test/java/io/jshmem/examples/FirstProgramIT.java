package io.jshmem.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * README's "A first program", as a newcomer meets it: the Java block is written to Main.java exactly as
 * the README shows it, compiled with {@code bin/jshmem javac} and run with {@code bin/shmemrun -np 4 -cp out Main}
 * (the README's commands), and every PE's line is checked against what the program computes.
 */
class FirstProgramIT
{
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void theReadmeProgramBuildsAndRunsWithTheReadmeCommands(@TempDir final Path dir) throws IOException, InterruptedException
    {
        final String readme = Files.readString(ROOT.resolve("README.md"));
        final int section = readme.indexOf("## A first program");
        assertTrue(section >= 0, "README has no 'A first program' section");
        final Matcher java = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertTrue(java.find(section), "README's first program section has no java block");
        final Matcher sh = Pattern.compile("```sh\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertTrue(sh.find(java.end()), "README's first program section has no sh block");
        final List<String> commands = sh.group(1).lines()
            .map(l -> l.replaceFirst("\\s+#.*$", "").trim())
            .filter(l -> !l.isEmpty() && !l.startsWith("bin/demo"))
            .toList();
        assertEquals(List.of("bin/jshmem javac -d out Main.java", "bin/shmemrun -np 4 -cp out Main"), commands,
            "the test runs the README's commands; update both together");
        Files.writeString(dir.resolve("Main.java"), java.group(1));

        final Result javac = run(dir, "bin/jshmem", "javac", "-d", "out", "Main.java");
        assertEquals(0, javac.status(), javac.output());
        final Result job = run(dir, "bin/shmemrun", "-np", "4", "-cp", "out", "Main");
        assertEquals(0, job.status(), job.output());

        final List<String> lines = job.output().lines().filter(l -> l.startsWith("PE ")).toList();
        assertEquals(4, lines.size(), job.output());
        final List<Long> tickets = new ArrayList<>();
        for (int me = 0; me < 4; me++)
        {
            final Matcher m = Pattern.compile("PE " + me + " of 4: left neighbour " + ((me + 3) % 4) + ", ticket (\\d+)").matcher(job.output());
            assertTrue(m.find(), "PE " + me + "'s line is missing or wrong:\n" + job.output());
            tickets.add(Long.parseLong(m.group(1)));
        }
        assertEquals(List.of(0L, 1L, 2L, 3L), tickets.stream().sorted().toList(), "each PE draws its own ticket from PE 0's counter");
    }

    @Test
    void theScriptsBuildOutputHasNoRawEscapesWhenNotATerminal(@TempDir final Path dir) throws IOException, InterruptedException
    {
        // bin/demo and bin/test run Maven through jshmem_mvn; Maven 3.8 prints ANSI resets even with -B
        final Result r = run(dir, "/bin/bash", "-c", "set -euo pipefail; source '" + ROOT.resolve("bin/jshmem-env") + "'; cd '" + ROOT
            + "'; jshmem_mvn -B -q -ntp -o validate -pl shmem-api");
        assertEquals(0, r.status(), r.output());
        assertTrue(r.output().indexOf('\u001b') < 0, () -> "raw escape codes in: " + r.output().replace("\u001b", "ESC"));
        final Result bad = run(dir, "/bin/bash", "-c", "set -euo pipefail; source '" + ROOT.resolve("bin/jshmem-env") + "'; cd '" + ROOT
            + "'; jshmem_mvn -B -q -ntp -o validate -pl no-such-module");
        assertTrue(bad.status() != 0, "a failing Maven run must fail the script through the filter: " + bad.output());
    }

    private record Result(int status, String output)
    {
    }

    private static Result run(final Path dir, final String script, final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>();
        command.add(script.startsWith("/") ? script : ROOT.resolve(script).toString());
        command.addAll(List.of(args));
        final Path log = Files.createTempFile(dir, "out", ".txt");
        final Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        p.getOutputStream().close();
        if (!p.waitFor(120, TimeUnit.SECONDS))
        {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(command + " did not end within 120 s:\n" + Files.readString(log));
        }
        return new Result(p.exitValue(), String.join(" ", command) + " (exit " + p.exitValue() + "):\n"
            + Files.readString(log, StandardCharsets.UTF_8));
    }
}
