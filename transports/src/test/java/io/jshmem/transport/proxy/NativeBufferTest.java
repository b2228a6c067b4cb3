package io.jshmem.transport.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class NativeBufferTest
{
    @Test
    void withNativeAccessBuffersComeFromLibcAlignedAndLittleEndian()
    {
        assertTrue(NativeBuffer.fromLibc(), "surefire runs with --enable-native-access=ALL-UNNAMED");
        final NativeBuffer b = NativeBuffer.allocate(4096);
        try
        {
            assertEquals(0, b.segment.address() % 64, "64-byte aligned");
            assertEquals(4096, b.segment.byteSize());
            assertEquals(4096, b.bytes.capacity());
            assertEquals(0, b.bytes.position());
            assertEquals(ByteOrder.LITTLE_ENDIAN, b.bytes.order());
            b.bytes.putLong(0x0102030405060708L);
            assertEquals(0x08, b.segment.get(ValueLayout.JAVA_BYTE, 0), "little-endian through the ByteBuffer");
        }
        finally
        {
            b.free();
        }
    }

    @Test
    void resizeKeepsTheBytesUpToThePositionAndFreesTheOldOne()
    {
        NativeBuffer b = NativeBuffer.allocate(4096);
        for (int i = 0; i < 1000; i++)
        {
            b.bytes.putInt(i);
        }
        final NativeBuffer old = b;
        b = b.resize(NativeBuffer.MAP_MIN); // a mapping of its own from here
        assertEquals(0, b.segment.address() % 4096, "a mapping starts on a page");
        assertEquals(4000, b.bytes.position());
        assertEquals(NativeBuffer.MAP_MIN, b.bytes.capacity());
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(i, b.bytes.getInt(4 * i), "int " + i);
        }
        old.free(); // a second free of the replaced buffer does nothing
        b.bytes.position(40); // shrinking keeps what is below the position
        b = b.resize(4096);
        assertEquals(40, b.bytes.position());
        assertEquals(9, b.bytes.getInt(36));
        b.free();
        b.free();
    }

    @Test
    void aCapacityBelow64BytesIsRefused()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> NativeBuffer.allocate(-8));
        assertTrue(ex.getMessage().contains("-8"), ex::getMessage);
        assertThrows(IllegalArgumentException.class, () -> NativeBuffer.allocate(0));
    }

    /** Without native access, buffers are shared arenas: they work, and no restricted call prints the JDK's warning. */
    @Test
    void withoutNativeAccessBuffersAreArenasAndNothingWarns() throws Exception
    {
        final String java = ProcessHandle.current().info().command().orElseThrow();
        final Process p = new ProcessBuilder(List.of(java, "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
            Child.class.getName())).redirectErrorStream(true).start();
        final String out;
        try
        {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM ended");
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        finally
        {
            p.destroyForcibly();
        }
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("libc=false ok"), out);
        assertFalse(out.contains("WARNING"), out);
    }

    /** The child JVM of {@link #withoutNativeAccessBuffersAreArenasAndNothingWarns}. */
    static final class Child
    {
        public static void main(final String[] args) throws IOException
        {
            NativeBuffer b = NativeBuffer.allocate(4096);
            b.bytes.putLong(42);
            b = b.resize(8192);
            final boolean ok = b.bytes.getLong(0) == 42 && b.bytes.position() == 8;
            b.free();
            System.out.println("libc=" + NativeBuffer.fromLibc() + (ok ? " ok" : " lost bytes"));
        }
    }
}
