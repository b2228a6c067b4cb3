package io.jshmem.bootstrap;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TcpStore} against PyTorch's own c10d TCPStore (Debian's python3-torch, as torchrun's agent
 * hosts it): SET and GET both ways, ADD, WAIT on a key set later, a deadline on a key never set, and
 * a store that goes away.
 */
class TcpStoreIT
{
    private static final String SERVER = String.join("\n",
        "import sys, datetime, torch.distributed as d",
        "s = d.TCPStore('127.0.0.1', 0, 2, True, timeout=datetime.timedelta(seconds=30))",
        "print(s.port, flush=True)",
        "assert s.get('from-java') == b'jshmem uid', s.get('from-java')",
        "s.set('from-python', 'torch value')",
        "s.wait(['added'])",
        "assert s.add('counter', 0) == 5, s.add('counter', 0)",
        "print('ok', flush=True)");

    @Test
    void talksToPyTorchsStore() throws Exception
    {
        final Process py = new ProcessBuilder("/usr/bin/python3", "-c", SERVER).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(py.getInputStream(), StandardCharsets.UTF_8)))
        {
            final String portLine = out.readLine();
            assertTrue(portLine != null && portLine.matches("[0-9]+"), "python3 hosts a TCPStore: " + portLine);
            final InetSocketAddress at = new InetSocketAddress("127.0.0.1", Integer.parseInt(portLine));
            final long deadline = System.nanoTime() + 20_000_000_000L;
            try (TcpStore t = TcpStore.connect(at, deadline))
            {
                t.set("from-java", "jshmem uid".getBytes(StandardCharsets.UTF_8));
                assertArrayEquals("torch value".getBytes(StandardCharsets.UTF_8), t.get("from-python", deadline));
                assertEquals(2, t.add("counter", 2, deadline));
                assertEquals(5, t.add("counter", 3, deadline));
                t.set("added", new byte[] {1});
                final java.io.IOException late = assertThrows(java.io.IOException.class,
                    () -> t.get("never-set", System.nanoTime() + 300_000_000L));
                assertTrue(late.getMessage().contains("'never-set'") && late.getMessage().contains(at.toString()), late.getMessage());
            }
            assertEquals("ok", out.readLine());
            assertTrue(py.waitFor(20, TimeUnit.SECONDS));
            assertEquals(0, py.exitValue());
        }
        finally
        {
            py.destroyForcibly();
        }
        // nothing listens there any more: connect gives up at its deadline, naming the address
        final java.io.IOException gone = assertThrows(java.io.IOException.class,
            () -> TcpStore.connect(new InetSocketAddress("127.0.0.1", 9), System.nanoTime() + 200_000_000L));
        assertTrue(gone.getMessage().contains("127.0.0.1:9"), gone.getMessage());
    }
}
