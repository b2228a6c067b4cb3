package io.jshmem.examples.moe;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymmetricLongs;
import io.jshmem.SymmetricMemory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Normal mode (DeepEP's high-throughput kernels): each token goes once to every PE owning one of its
 * experts. Counts travel first (one signal word per source, tagged with the epoch), then one bulk
 * put-with-signal per destination into a per-source region sized for the worst case (every token); a
 * destination mapped here ({@link Shmem#ptr}, same host) gets the tokens written straight into that
 * region while packing, and only the signal.
 * Combine returns, per (token, PE), the PE's experts' outputs summed with the token's weights, again one
 * bulk put-with-signal per PE, and the source adds them.
 * <p>
 * One message in a region, 8-byte aligned:
 * <pre>
 *   0        4        8            8+4K          8+8K
 *   +--------+--------+------------+-------------+------------------------+
 *   | token  | unused | expert x K | weight x K  | payload (bf16 or fp8)  |
 *   +--------+--------+------------+-------------+------------------------+
 * </pre>
 * Signal words, 4 x npes longs: counts (two banks by epoch parity, so a PE one step ahead cannot
 * overwrite a count not yet read), data-arrived epoch per source, combine-arrived epoch per PE. A region
 * is rewritten only after its reader answered (combine), which is why one bank suffices for the data.
 */
class NormalExchange extends ExpertExchange
{
    protected static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    protected static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    protected static final ValueLayout.OfShort BF16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    protected final int headerBytes;
    protected final int msgBytes;
    protected final int combBytes;
    protected final SymmetricMemory recv;
    protected final SymmetricMemory combRecv;
    private final SymmetricLongs sig;

    /** Per destination PE: packed messages, their count, and the slot of token t at PE p ({@code t*npes+p}, -1: none). */
    protected final byte[][] staging;
    protected final int[] sendCount;
    protected final int[] slotOf;
    /** Per source PE: tokens received and where its region starts in {@link #recv}. */
    protected final int[] recvCount;
    protected final long[] recvBase;
    /** Per destination PE of combine: the outputs for its tokens, slot order; where PE p's answers start in combRecv. */
    protected final byte[][] combSend;
    protected final long[] combBase;
    /** The handle: per local expert, its tokens as {@code source * tokens + slot}. */
    private final int[][] expertTokens;
    private final int[] expertCount;
    private Tokens.Routing[] routes;
    /** Per destination PE: its region for this PE's tokens when it is reachable by load/store (p2p), else null. */
    private MemorySegment[] direct;

    NormalExchange(final Shmem shmem, final MoeOptions options, final Tokens tokens)
    {
        super(shmem, options, tokens);
        headerBytes = 8 + 8 * topk;
        msgBytes = (headerBytes + tokens.payloadBytes() + 7) & ~7;
        combBytes = tokens.combinedBytes();
        final long regionBytes = (long)tokensPerPe * msgBytes;
        if (regionBytes > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("[pe " + me + "/" + npes + "] moe: tokens=" + tokensPerPe + " x message bytes="
                + msgBytes + " exceeds 2 GiB per source region");
        }
        recv = shmem.malloc(regionBytes * npes);
        combRecv = shmem.malloc((long)tokensPerPe * combBytes * npes);
        sig = shmem.allocateLongs(4L * npes);
        staging = new byte[npes][tokensPerPe * msgBytes];
        combSend = new byte[npes][tokensPerPe * combBytes];
        sendCount = new int[npes];
        slotOf = new int[tokensPerPe * npes];
        recvCount = new int[npes];
        recvBase = new long[npes];
        combBase = new long[npes];
        expertTokens = new int[localExperts][npes * tokensPerPe];
        expertCount = new int[localExperts];
    }

    @Override
    public final void dispatch(final long epoch)
    {
        pack();
        transferDispatch(epoch);
        layout();
    }

    /**
     * @return true to write tokens straight into the regions of load/store-reachable PEs while packing (the
     *         p2p path of DeepEP's NVLink kernels: one copy instead of staging plus put); false to stage all.
     */
    protected boolean packDirect()
    {
        return true;
    }

    /**
     * Sorts this PE's tokens by destination PE, once per PE: into the destination's own region when it is
     * mapped here (a region is rewritten only after its reader answered the previous step's combine), else
     * into the staging buffer for a bulk put.
     */
    private void pack()
    {
        if (direct == null)
        {
            direct = new MemorySegment[npes];
            for (int p = 0; p < npes && packDirect(); p++)
            {
                final MemorySegment peer = shmem.ptr(recv, p);
                direct[p] = peer == null ? null : peer.asSlice((long)me * tokensPerPe * msgBytes, (long)tokensPerPe * msgBytes);
            }
        }
        Arrays.fill(sendCount, 0);
        Arrays.fill(slotOf, -1);
        final int[] idx = routing.idx();
        final float[] w = routing.weight();
        final int payload = tokens.payloadBytes();
        for (int t = 0; t < tokensPerPe; t++)
        {
            for (int k = 0; k < topk; k++)
            {
                final int p = tokens.owner(idx[t * topk + k]);
                if (slotOf[t * npes + p] >= 0)
                {
                    continue;
                }
                final int slot = sendCount[p]++;
                slotOf[t * npes + p] = slot;
                final MemorySegment m = (direct[p] != null ? direct[p] : MemorySegment.ofArray(staging[p]))
                    .asSlice((long)slot * msgBytes, msgBytes);
                m.set(I32, 0, t);
                m.set(I32, 4, 0);
                for (int j = 0; j < topk; j++)
                {
                    m.set(I32, 8 + 4L * j, idx[t * topk + j]);
                    m.set(F32, 8 + 4L * topk + 4L * j, w[t * topk + j]);
                }
                MemorySegment.copy(source, (long)t * payload, m, headerBytes, payload);
            }
        }
    }

    /** Moves the staged tokens; on return {@link #recvCount} and {@link #recvBase} describe what arrived. */
    protected void transferDispatch(final long epoch)
    {
        final int bank = (int)(epoch & 1) * npes;
        for (int i = 0; i < npes; i++)
        {
            final int p = peer(i);
            shmem.signalSet(sig, bank + me, epoch << 32 | sendCount[p], p);
        }
        for (int i = 0; i < npes; i++)
        {
            final int p = peer(i);
            if (sendCount[p] > 0 && direct[p] != null)
            {
                shmem.signalSet(sig, 2L * npes + me, epoch, p); // an atomic: ordered after the stores of pack()
            }
            else if (sendCount[p] > 0)
            {
                shmem.putSignal(recv, (long)me * tokensPerPe * msgBytes, staging[p], 0, sendCount[p] * msgBytes, sig,
                    2L * npes + me, epoch, SignalOp.SET, p);
            }
        }
        for (int s = 0; s < npes; s++)
        {
            final long v = sig.signalWaitUntil(bank + s, Cmp.GE, epoch << 32);
            if (v >>> 32 != epoch)
            {
                throw new IllegalStateException("[pe " + me + "/" + npes + "] moe: count from PE " + s + " carries epoch "
                    + (v >>> 32) + ", expected " + epoch);
            }
            recvCount[s] = (int)v;
            recvBase[s] = (long)s * tokensPerPe * msgBytes;
        }
        for (int s = 0; s < npes; s++)
        {
            if (recvCount[s] > 0)
            {
                sig.signalWaitUntil(2L * npes + s, Cmp.GE, epoch);
            }
        }
    }

    /** Builds the handle: which received tokens each local expert takes. */
    private void layout()
    {
        Arrays.fill(expertCount, 0);
        final MemorySegment in = recv.segment();
        for (int s = 0; s < npes; s++)
        {
            for (int slot = 0; slot < recvCount[s]; slot++)
            {
                final long m = recvBase[s] + (long)slot * msgBytes;
                for (int k = 0; k < topk; k++)
                {
                    final int e = in.get(I32, m + 8 + 4L * k);
                    if (tokens.owner(e) == me)
                    {
                        final int l = e - me * localExperts;
                        expertTokens[l][expertCount[l]++] = s * tokensPerPe + slot;
                    }
                }
            }
        }
    }

    @Override
    public final void compute()
    {
        final MemorySegment in = recv.segment();
        final float[] x = new float[hidden];
        final float[] y = new float[hidden];
        final float[] partial = new float[hidden];
        final int[] idx = new int[topk];
        final float[] w = new float[topk];
        for (int s = 0; s < npes; s++)
        {
            final MemorySegment out = MemorySegment.ofArray(combSend[s]);
            for (int slot = 0; slot < recvCount[s]; slot++)
            {
                final long m = recvBase[s] + (long)slot * msgBytes;
                for (int k = 0; k < topk; k++)
                {
                    idx[k] = in.get(I32, m + 8 + 4L * k);
                    w[k] = in.get(F32, m + 8 + 4L * topk + 4L * k);
                }
                tokens.decode(in, m + headerBytes, x);
                if (!tokens.partial(me, 0, idx, w, x, y, partial))
                {
                    mismatch("token " + in.get(I32, m) + " from PE " + s + " names no expert of this PE");
                    Arrays.fill(partial, 0f);
                }
                final long o = (long)slot * combBytes;
                for (int i = 0; i < hidden; i++)
                {
                    out.set(BF16, o + 2L * i, Tokens.bf16Bits(partial[i]));
                }
            }
        }
    }

    @Override
    public final void combine(final long epoch)
    {
        transferCombine(epoch);
        final MemorySegment in = combRecv.segment();
        final float[] acc = new float[hidden];
        for (int t = 0; t < tokensPerPe; t++)
        {
            Arrays.fill(acc, 0f);
            for (int p = 0; p < npes; p++)
            {
                final int slot = slotOf[t * npes + p];
                if (slot >= 0)
                {
                    final long o = combBase[p] + (long)slot * combBytes;
                    for (int i = 0; i < hidden; i++)
                    {
                        acc[i] += Tokens.bf16ToFloat(in.get(BF16, o + 2L * i));
                    }
                }
            }
            final long o = (long)t * combBytes;
            for (int i = 0; i < hidden; i++)
            {
                combined.set(BF16, o + 2L * i, Tokens.bf16Bits(acc[i]));
            }
        }
    }

    /** Returns the outputs; on return {@link #combBase} says where PE p's answers lie in {@link #combRecv}. */
    protected void transferCombine(final long epoch)
    {
        for (int i = 0; i < npes; i++)
        {
            final int p = peer(i);
            if (recvCount[p] > 0)
            {
                shmem.putSignal(combRecv, (long)me * tokensPerPe * combBytes, combSend[p], 0, recvCount[p] * combBytes, sig,
                    3L * npes + me, epoch, SignalOp.SET, p);
            }
        }
        for (int p = 0; p < npes; p++)
        {
            combBase[p] = (long)p * tokensPerPe * combBytes;
            if (sendCount[p] > 0)
            {
                sig.signalWaitUntil(3L * npes + p, Cmp.GE, epoch);
            }
        }
    }

    @Override
    public final void verifyDispatch()
    {
        if (routes == null)
        {
            routes = new Tokens.Routing[npes];
            for (int s = 0; s < npes; s++)
            {
                routes[s] = tokens.route(s);
            }
        }
        final MemorySegment in = recv.segment();
        final MemorySegment want = MemorySegment.ofArray(new byte[tokens.payloadBytes()]);
        final int[] perExpert = new int[localExperts];
        for (int s = 0; s < npes; s++)
        {
            final int[] idx = routes[s].idx();
            final float[] w = routes[s].weight();
            int slot = 0;
            for (int t = 0; t < tokensPerPe; t++)
            {
                boolean mine = false;
                for (int k = 0; k < topk; k++)
                {
                    if (tokens.owner(idx[t * topk + k]) == me)
                    {
                        mine = true;
                        perExpert[idx[t * topk + k] - me * localExperts]++;
                    }
                }
                if (!mine)
                {
                    continue;
                }
                if (slot >= recvCount[s])
                {
                    mismatch("token " + t + " of PE " + s + " routed here is missing (" + recvCount[s] + " received from PE " + s + ")");
                    slot++;
                    continue;
                }
                final long m = recvBase[s] + (long)slot++ * msgBytes;
                boolean header = in.get(I32, m) == t;
                for (int k = 0; k < topk; k++)
                {
                    header &= in.get(I32, m + 8 + 4L * k) == idx[t * topk + k]
                        && in.get(F32, m + 8 + 4L * topk + 4L * k) == w[t * topk + k];
                }
                tokens.fillPayload(s, t, want, 0);
                final long at = MemorySegment.mismatch(in, m + headerBytes, m + headerBytes + tokens.payloadBytes(), want, 0,
                    tokens.payloadBytes());
                if (!header || at >= 0)
                {
                    mismatch("token " + t + " from PE " + s + (header ? " payload differs at byte " + at : " header differs: token "
                        + in.get(I32, m)));
                }
            }
            if (slot != recvCount[s])
            {
                mismatch(recvCount[s] + " tokens received from PE " + s + ", expected " + slot);
            }
        }
        for (int l = 0; l < localExperts; l++)
        {
            if (perExpert[l] != expertCount[l])
            {
                mismatch("expert " + (me * localExperts + l) + " holds " + expertCount[l] + " tokens, expected " + perExpert[l]);
            }
        }
    }

    @Override
    public final long dispatchBytes()
    {
        return (long)Arrays.stream(sendCount).sum() * tokens.payloadBytes();
    }

    @Override
    public final long combineBytes()
    {
        return (long)Arrays.stream(recvCount).sum() * combBytes;
    }

    @Override
    public final long receivedTokens()
    {
        return Arrays.stream(recvCount).sum();
    }

    @Override
    public void close()
    {
        shmem.free(sig);
        shmem.free(combRecv);
        shmem.free(recv);
    }
}
