package io.jshmem.transport.ucx;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every struct offset, size and constant {@link Ucp} hard-codes, against the installed {@code ucp.h}: a C
 * program ({@code src/test/c/ucp_layout.c}) is compiled with gcc against the headers of Debian's
 * {@code libucx-dev} (which {@code .ci/run} installs) and prints the values; a mismatch (another UCX
 * whose structs moved) fails here rather than corrupting a job.
 */
class UcpLayoutTest
{
    @Test
    void everyHardCodedValueMatchesTheHeaders(@TempDir final Path dir) throws Exception
    {
        assertTrue(Files.exists(Path.of("/usr/include/ucp/api/ucp.h")), "ucp.h missing: apt-get install libucx-dev (.ci/run does)");
        final Path exe = dir.resolve("ucp_layout");
        run(dir, "gcc", "-o", exe.toString(), Path.of("src/test/c/ucp_layout.c").toAbsolutePath().toString());
        final Map<String, Long> c = new LinkedHashMap<>();
        for (final String line : run(dir, exe.toString()).split("\n"))
        {
            final String[] kv = line.strip().split(" ");
            c.put(kv[0], Long.parseLong(kv[1]));
        }
        int checked = 0;
        for (final Map.Entry<String, Long> e : c.entrySet())
        {
            final long java = switch (e.getKey())
            {
                case "API_MAJOR" -> Ucp.API_MAJOR;
                case "CONTIG_8" -> Ucp.contig(8);
                case "CONTIG_4" -> Ucp.contig(4);
                default -> field(e.getKey());
            };
            assertEquals(e.getValue().longValue(), java, e.getKey() + " in Ucp.java vs ucp.h");
            checked++;
        }
        assertTrue(checked >= 40, "only " + checked + " values printed");
    }

    private static long field(final String name) throws ReflectiveOperationException
    {
        final Field f = Ucp.class.getDeclaredField(name);
        assertTrue(Modifier.isStatic(f.getModifiers()), name);
        return ((Number)f.get(null)).longValue();
    }

    private static String run(final Path dir, final String... cmd) throws Exception
    {
        final Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd) + " did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }
}
