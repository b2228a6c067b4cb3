package io.jshmem.launch;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The root agent's stdout protocol, read back from lines that a JVM diagnostic shares. */
class RootLinesTest
{
    private static final String UID = "jsuid1-SlNVSQACBAD3n64v9Jd4ILjaaCdzv3dN0mHShaN93yW3_qqKdmjquLJ5CnwAAQAA";

    @Test
    void eachLineIsOneLineOfItsOwnAndReadsBack()
    {
        for (final String written : List.of(RootLines.uid(UID), RootLines.exit(7), RootLines.exit(-1), RootLines.closed()))
        {
            assertTrue(written.startsWith("\n") && written.endsWith("\n") && written.strip().lines().count() == 1, written);
            final RootLines.Said said = RootLines.parse(written.strip());
            assertEquals("", said.before());
        }
        assertEquals(new RootLines.Said(RootLines.Kind.UID, UID, ""), RootLines.parse(RootLines.uid(UID).strip()));
        assertEquals(new RootLines.Said(RootLines.Kind.EXIT, "7", ""), RootLines.parse(RootLines.exit(7).strip()));
        assertEquals(new RootLines.Said(RootLines.Kind.EXIT, "-1", ""), RootLines.parse(RootLines.exit(-1).strip()));
        assertEquals(RootLines.Kind.CLOSED, RootLines.parse(RootLines.closed().strip()).kind());
    }

    @Test
    void aLineGluedToACompileLineOfTheJvmStillSaysTheId()
    {
        // what -XX:+PrintCompilation on the root agent's JVM made of a line of the old protocol (the id started no line)
        final String glued = "90  269       1       jdk.internal.classfile.impl.RawBytecodeHelper::isStoreIntoLocal"
            + RootLines.MARK + "uid " + UID;
        final RootLines.Said said = RootLines.parse(glued);
        assertEquals(RootLines.Kind.UID, said.kind());
        assertEquals(UID, said.value());
        assertEquals("90  269       1       jdk.internal.classfile.impl.RawBytecodeHelper::isStoreIntoLocal", said.before());
        assertEquals("3", RootLines.parse("  12 ok " + RootLines.MARK + "exit 3 (8 bytes)").value());
    }

    @Test
    void linesOfNoProtocolAreForTheLog()
    {
        for (final String line : List.of("", "   ", "uid " + UID, "exit 3", "closed", "  120018  327       1       java.lang.Shutdown::exit (14 bytes)",
            RootLines.MARK + "uid", RootLines.MARK + "exit x", RootLines.MARK + "exit 99999999999", RootLines.MARK + "hello"))
        {
            assertNull(RootLines.parse(line), line);
        }
    }

    @Test
    void printStreamWritesTheLineInOneWrite()
    {
        // HotSpot writes its diagnostics to the same file descriptor between the Java stream's writes: a line of the
        // protocol must reach the descriptor in one write, so no diagnostic lands inside it
        final List<Integer> writes = new java.util.ArrayList<>();
        final ByteArrayOutputStream sink = new ByteArrayOutputStream()
        {
            @Override
            public synchronized void write(final byte[] b, final int off, final int len)
            {
                writes.add(len);
                super.write(b, off, len);
            }
        };
        final PrintStream out = new PrintStream(new java.io.BufferedOutputStream(sink, 8192), true, StandardCharsets.UTF_8);
        out.print(RootLines.uid(UID));
        out.flush();
        assertEquals(List.of(RootLines.uid(UID).length()), writes);
        assertEquals(RootLines.uid(UID), sink.toString(StandardCharsets.UTF_8));
    }
}
