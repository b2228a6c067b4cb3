package io.jshmem.transport;

import io.jshmem.bootstrap.Bootstrap;
import io.jshmem.config.ShmemConfig;
import io.jshmem.heap.HeapFile;

import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;

/**
 * What every transport of one PE is made from.
 *
 * @param bootstrap the formed bootstrap (rank, size, nodes, allgather, failure reporting).
 * @param heap      this PE's heap file (its data segment is what remote PEs write).
 * @param directory where heap files live (p2p maps its peers' files from here).
 * @param config    the job's options.
 * @param idle      the waiting strategy of the PE's threads: called with a count of idle polls, returns the next
 *                  count (see the runtime's WaitIdle).
 * @param log       where a transport writes one-line notices (standard error, prefixed by the PE).
 */
public record TransportSetup(Bootstrap bootstrap, HeapFile heap, Path directory, ShmemConfig config, IntUnaryOperator idle,
    Consumer<String> log)
{
    /** @return the {@code [pe r/n] } prefix of this PE's messages. */
    public String prefix()
    {
        return io.jshmem.ShmemException.pePrefix(bootstrap.rank(), bootstrap.size());
    }

    /** @return whether this node runs more PEs than it has cores. */
    public boolean oversubscribed()
    {
        return bootstrap.nodeSize() > Runtime.getRuntime().availableProcessors();
    }
}
