package io.jshmem.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module names of docs/library.md hold: a named application module that {@code requires io.jshmem.runtime}
 * and {@code io.jshmem.api} compiles and runs a singleton PE with jshmem's jars (and Agrona) on the module
 * path, the runtime found through ServiceLoader across automatic modules.
 */
class ModulePathIT
{
    @Test
    void namedModuleRequiresJshmemByModuleName(@TempDir final Path dir) throws Exception
    {
        final String modulePath = Files.readString(Path.of("target", "jshmem-classpath.txt")).strip();
        final Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("app"));
        Files.writeString(src.resolve("module-info.java"), "module app { requires io.jshmem.runtime; requires io.jshmem.api; }\n");
        Files.writeString(src.resolve("app/Main.java"), """
            package app;
            public class Main {
                public static void main(String[] args) {
                    try (io.jshmem.Shmem shmem = io.jshmem.Shmem.init()) {
                        io.jshmem.SymmetricLongs box = shmem.allocateLongs(1);
                        shmem.p(box, 0, 42, 0);
                        shmem.barrierAll();
                        System.out.println("got " + box.getLocal(0) + " in " + io.jshmem.Shmem.class.getModule().getName()
                            + " and " + shmem.getClass().getModule().getName());
                        shmem.free(box);
                    }
                }
            }
            """);
        final Path out = dir.resolve("out");
        final Path bin = Path.of(System.getProperty("java.home"), "bin");
        run(List.of(bin.resolve("javac").toString(), "-d", out.toString(), "--module-path", modulePath,
            src.resolve("module-info.java").toString(), src.resolve("app/Main.java").toString()));
        final String text = run(List.of(bin.resolve("java").toString(), "-XX:TieredStopAtLevel=1", "--module-path",
            modulePath + java.io.File.pathSeparator + out, "-m", "app/app.Main"));
        assertTrue(text.contains("got 42 in io.jshmem.api and io.jshmem.runtime"), text);
    }

    private static String run(final List<String> command) throws IOException, InterruptedException
    {
        final ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("SHMEM_") || k.startsWith("JSHMEM_"));
        final Process p = pb.start();
        final String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish: " + text);
        assertEquals(0, p.exitValue(), String.join(" ", command) + "\n" + text);
        return text;
    }
}
