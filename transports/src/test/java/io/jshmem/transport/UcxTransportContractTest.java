package io.jshmem.transport;

import io.jshmem.JobFailedException;
import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.heap.HeapFile;
import io.jshmem.transport.ucx.UcxTransport;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.IntUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport contract on the UCX transport: PEs that are threads of this JVM, each with its own UCP
 * context and worker, over whatever UCX selects between them (tcp over loopback, or shared memory into
 * the /dev/shm heaps, both served by the target's progress thread). libucp (Debian's libucx0) must be
 * installed: {@code .ci/run} installs it; a missing library fails the test rather than skipping it.
 */
class UcxTransportContractTest extends TransportContractTest
{
    @Override
    Transport make(final Bootstrap bootstrap, final HeapFile heap, final IntUnaryOperator idle)
    {
        return new UcxTransport(bootstrap, heap.dataSegment(), new UcxTransport.Settings("libucp.so.0", 50_000L, 30_000_000_000L, System.err::println), idle);
    }

    @Override
    byte peerId()
    {
        return ReachabilityMap.UCX;
    }

    @Test
    void aLostPeerFailsEveryWaitNamingItWithinSeconds() throws Exception
    {
        run(pe ->
        {
            final int victim = pe.n() - 1;
            if (pe.me() == victim)
            {
                // every other PE is past the bootstrap barrier once its flag is here (a failure reported while a
                // PE still waits in that barrier would fail the barrier, not the transport's wait under test)
                for (int q = 0; q < victim; q++)
                {
                    while (pe.heap().get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * q) == 0)
                    {
                        Thread.onSpinWait();
                    }
                }
                pe.transport().close(); // its endpoints drop, as when the process dies
                final long deadline = System.nanoTime() + 10_000_000_000L;
                while (pe.bootstrap().failure() == null && System.nanoTime() < deadline)
                {
                    Thread.sleep(10);
                }
                assertNotNull(pe.bootstrap().failure(), "the job failed");
                return;
            }
            pe.transport().put(pe.ctx(), victim, 8L * pe.me(), MemorySegment.ofArray(new long[] {1}), false);
            pe.transport().quiet(pe.ctx());
            final long start = System.nanoTime();
            final JobFailedException ex = assertThrows(JobFailedException.class, () ->
            {
                final long[] one = new long[1];
                while (true)
                {
                    pe.transport().get(pe.ctx(), victim, 0, MemorySegment.ofArray(one), false);
                }
            });
            final long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms < 5000, "failed after " + ms + " ms");
            assertTrue(String.valueOf(ex.getMessage()).contains("pe " + victim), ex::getMessage);
        });
    }
}
