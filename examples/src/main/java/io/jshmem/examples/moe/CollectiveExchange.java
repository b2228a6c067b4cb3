package io.jshmem.examples.moe;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;
import io.jshmem.Team;

import java.lang.foreign.MemorySegment;

/**
 * The same step as {@link NormalExchange} written with team collectives, as a program on an MPI-style
 * library would: an alltoall of the per-destination counts and a max-reduction of them, then one
 * alltoall of the tokens padded to the largest count (jshmem, like OpenSHMEM, has no alltoallv), and the
 * same shape back for combine. Packing, the layout, the experts and the reduction are NormalExchange's.
 */
final class CollectiveExchange extends NormalExchange
{
    private final Team world;
    private final SymmetricLongs counts;
    private final SymmetricMemory sendSym;
    private final SymmetricMemory combSendSym;
    private long maxCount;

    CollectiveExchange(final Shmem shmem, final MoeOptions options, final Tokens tokens)
    {
        super(shmem, options, tokens);
        world = shmem.teamWorld();
        counts = shmem.allocateLongs(2L * npes + 2); // [0,n) to send, [n,2n) received, 2n local max, 2n+1 global max
        sendSym = shmem.malloc((long)tokensPerPe * msgBytes * npes);
        combSendSym = shmem.malloc((long)tokensPerPe * combBytes * npes);
    }

    @Override
    protected boolean packDirect()
    {
        return false; // the collective formulation moves everything through the alltoall
    }

    @Override
    protected void transferDispatch(final long epoch)
    {
        long localMax = 0;
        for (int p = 0; p < npes; p++)
        {
            counts.setLocal(p, sendCount[p]);
            localMax = Math.max(localMax, sendCount[p]);
        }
        counts.setLocal(2L * npes, localMax);
        world.alltoall(counts.slice(npes, npes), counts.slice(0, npes), 1);
        world.reduce(ReduceOp.MAX, counts.slice(2L * npes + 1, 1), counts.slice(2L * npes, 1), 1);
        maxCount = counts.getLocal(2L * npes + 1);
        final long block = maxCount * msgBytes;
        final MemorySegment out = sendSym.segment();
        for (int p = 0; p < npes; p++)
        {
            MemorySegment.copy(MemorySegment.ofArray(staging[p]), 0, out, p * block, (long)sendCount[p] * msgBytes);
        }
        if (block > 0)
        {
            world.alltoall(recv.slice(0, npes * block), sendSym.slice(0, npes * block), block);
        }
        for (int s = 0; s < npes; s++)
        {
            recvCount[s] = (int)counts.getLocal(npes + s);
            recvBase[s] = s * block;
        }
    }

    @Override
    protected void transferCombine(final long epoch)
    {
        final long block = maxCount * combBytes;
        final MemorySegment out = combSendSym.segment();
        for (int s = 0; s < npes; s++)
        {
            MemorySegment.copy(MemorySegment.ofArray(combSend[s]), 0, out, s * block, (long)recvCount[s] * combBytes);
        }
        if (block > 0)
        {
            world.alltoall(combRecv.slice(0, npes * block), combSendSym.slice(0, npes * block), block);
        }
        for (int p = 0; p < npes; p++)
        {
            combBase[p] = p * block;
        }
    }

    @Override
    public void close()
    {
        shmem.free(combSendSym);
        shmem.free(sendSym);
        shmem.free(counts);
        super.close();
    }
}
