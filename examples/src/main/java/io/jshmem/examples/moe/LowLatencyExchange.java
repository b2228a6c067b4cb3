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
 * Low-latency mode (DeepEP's low-latency kernels): no count phase. Every (token, expert) pair is one
 * non-blocking put-with-signal into a receive buffer per (local expert, source PE) sized for the worst
 * case (all of the source's tokens), its signal adding 1 to that pair's arrival counter; after its tokens
 * each source sets, per expert, a done word to {@code epoch << 32 | count}, and the receiver waits until
 * the arrival counter has reached the running total. Combine returns each expert's unweighted output
 * with a put-with-signal into the source's {@code [token][k]} slot, adding 1 to one counter; the source
 * sums {@code weight_k * out_k}.
 * <p>
 * {@code --inflight N} bounds the puts issued since the last quiet (flow control, as UCCL-EP's proxy does
 * for its NIC queues); 0 leaves it to the transport.
 * <pre>
 *   message: | token (int) | unused (int) | expert x K (int) | payload |   8-byte aligned
 *   signals: done[2 banks][local expert][source] | arrivals[local expert][source] | combine arrivals
 * </pre>
 */
final class LowLatencyExchange extends ExpertExchange
{
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort BF16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    private final int experts;
    private final int headerBytes;
    private final int msgBytes;
    private final int combBytes;
    private final SymmetricMemory recv;
    private final SymmetricMemory combRecv;
    private final SymmetricLongs sig;
    private final long arrivalsBase;
    private final long combArrivals;
    private final byte[] staging;
    private final int[] sendCount;
    /** Per (local expert, source): tokens received in this step, and their running total. */
    private final int[] recvCount;
    private final long[] expected;
    private long combExpected;
    private byte[] outputs = new byte[0];
    private int outputCount;
    private int inflight;
    private Tokens.Routing[] routes;

    LowLatencyExchange(final Shmem shmem, final MoeOptions options, final Tokens tokens)
    {
        super(shmem, options, tokens);
        experts = localExperts * npes;
        headerBytes = 8 + 4 * topk;
        msgBytes = (headerBytes + tokens.payloadBytes() + 7) & ~7;
        combBytes = tokens.combinedBytes();
        if ((long)tokensPerPe * msgBytes > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("[pe " + me + "/" + npes + "] moe: tokens=" + tokensPerPe + " x message bytes="
                + msgBytes + " exceeds 2 GiB");
        }
        recv = shmem.malloc((long)localExperts * npes * tokensPerPe * msgBytes);
        combRecv = shmem.malloc((long)tokensPerPe * topk * combBytes);
        final int pairs = localExperts * npes;
        sig = shmem.allocateLongs(3L * pairs + 1);
        arrivalsBase = 2L * pairs;
        combArrivals = 3L * pairs;
        staging = new byte[tokensPerPe * msgBytes];
        sendCount = new int[experts];
        recvCount = new int[pairs];
        expected = new long[pairs];
    }

    private long slotOffset(final int local, final int src, final int slot)
    {
        return (((long)local * npes + src) * tokensPerPe + slot) * msgBytes;
    }

    private void flowControl()
    {
        if (options.inflight() > 0 && ++inflight >= options.inflight())
        {
            shmem.quiet();
            inflight = 0;
        }
    }

    @Override
    public void dispatch(final long epoch)
    {
        Arrays.fill(sendCount, 0);
        inflight = 0;
        final int[] idx = routing.idx();
        final int payload = tokens.payloadBytes();
        final MemorySegment st = MemorySegment.ofArray(staging);
        for (int t = 0; t < tokensPerPe; t++)
        {
            final long m = (long)t * msgBytes;
            st.set(I32, m, t);
            st.set(I32, m + 4, 0);
            for (int k = 0; k < topk; k++)
            {
                st.set(I32, m + 8 + 4L * k, idx[t * topk + k]);
            }
            MemorySegment.copy(source, (long)t * payload, st, m + headerBytes, payload);
            for (int k = 0; k < topk; k++)
            {
                final int e = idx[t * topk + k];
                final int p = tokens.owner(e);
                final int local = e - p * localExperts;
                shmem.putSignalNbi(recv, slotOffset(local, me, sendCount[e]++), staging, (int)m, msgBytes, sig,
                    arrivalsBase + (long)local * npes + me, 1, SignalOp.ADD, p);
                flowControl();
            }
        }
        final int bank = (int)(epoch & 1) * localExperts * npes;
        for (int i = 0; i < experts; i++)
        {
            final int e = (me * localExperts + i) % experts; // each PE starts with its own experts' owner
            final int p = tokens.owner(e);
            final int local = e - p * localExperts;
            shmem.signalSet(sig, bank + (long)local * npes + me, epoch << 32 | sendCount[e], p);
        }
        shmem.quiet(); // the staging buffer is reused next step
        for (int local = 0; local < localExperts; local++)
        {
            for (int s = 0; s < npes; s++)
            {
                final int pair = local * npes + s;
                final long v = sig.signalWaitUntil(bank + pair, Cmp.GE, epoch << 32);
                if (v >>> 32 != epoch)
                {
                    throw new IllegalStateException("[pe " + me + "/" + npes + "] moe: done word of expert "
                        + (me * localExperts + local) + " from PE " + s + " carries epoch " + (v >>> 32) + ", expected " + epoch);
                }
                recvCount[pair] = (int)v;
                expected[pair] += recvCount[pair];
                sig.signalWaitUntil(arrivalsBase + pair, Cmp.GE, expected[pair]);
            }
        }
    }

    @Override
    public void compute()
    {
        final int received = (int)receivedTokens();
        if (outputs.length < (long)received * combBytes)
        {
            outputs = new byte[Math.multiplyExact(received, combBytes)];
        }
        final MemorySegment in = recv.segment();
        final MemorySegment out = MemorySegment.ofArray(outputs);
        final float[] x = new float[hidden];
        final float[] y = new float[hidden];
        int j = 0;
        for (int local = 0; local < localExperts; local++)
        {
            for (int s = 0; s < npes; s++)
            {
                for (int slot = 0; slot < recvCount[local * npes + s]; slot++, j++)
                {
                    tokens.decode(in, slotOffset(local, s, slot) + headerBytes, x);
                    Tokens.expert(me * localExperts + local, x, y);
                    for (int i = 0; i < hidden; i++)
                    {
                        out.set(BF16, (long)j * combBytes + 2L * i, Tokens.bf16Bits(y[i]));
                    }
                }
            }
        }
        outputCount = j;
    }

    @Override
    public void combine(final long epoch)
    {
        final MemorySegment in = recv.segment();
        inflight = 0;
        int j = 0;
        for (int local = 0; local < localExperts; local++)
        {
            final int e = me * localExperts + local;
            for (int s = 0; s < npes; s++)
            {
                for (int slot = 0; slot < recvCount[local * npes + s]; slot++, j++)
                {
                    final long m = slotOffset(local, s, slot);
                    final int t = in.get(I32, m);
                    int k = 0;
                    while (k < topk && in.get(I32, m + 8 + 4L * k) != e)
                    {
                        k++;
                    }
                    if (k == topk || t < 0 || t >= tokensPerPe)
                    {
                        throw new IllegalStateException("[pe " + me + "/" + npes + "] moe: token " + t + " from PE " + s
                            + " in expert " + e + "'s buffer does not name expert " + e);
                    }
                    shmem.putSignalNbi(combRecv, ((long)t * topk + k) * combBytes, outputs, j * combBytes, combBytes, sig,
                        combArrivals, 1, SignalOp.ADD, s);
                    flowControl();
                }
            }
        }
        shmem.quiet();
        combExpected += (long)tokensPerPe * topk;
        sig.signalWaitUntil(combArrivals, Cmp.GE, combExpected);
        final MemorySegment answers = combRecv.segment();
        final float[] acc = new float[hidden];
        final float[] w = routing.weight();
        for (int t = 0; t < tokensPerPe; t++)
        {
            Arrays.fill(acc, 0f);
            for (int k = 0; k < topk; k++)
            {
                final float wk = w[t * topk + k];
                final long o = ((long)t * topk + k) * combBytes;
                for (int i = 0; i < hidden; i++)
                {
                    acc[i] += wk * Tokens.bf16ToFloat(answers.get(BF16, o + 2L * i));
                }
            }
            final long o = (long)t * combBytes;
            for (int i = 0; i < hidden; i++)
            {
                combined.set(BF16, o + 2L * i, Tokens.bf16Bits(acc[i]));
            }
        }
    }

    @Override
    public void verifyDispatch()
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
        for (int local = 0; local < localExperts; local++)
        {
            final int e = me * localExperts + local;
            for (int s = 0; s < npes; s++)
            {
                final int[] idx = routes[s].idx();
                int slot = 0;
                for (int t = 0; t < tokensPerPe; t++)
                {
                    boolean routed = false;
                    for (int k = 0; k < topk; k++)
                    {
                        routed |= idx[t * topk + k] == e;
                    }
                    if (!routed)
                    {
                        continue;
                    }
                    if (slot >= recvCount[local * npes + s])
                    {
                        slot++;
                        continue;
                    }
                    final long m = slotOffset(local, s, slot++);
                    boolean header = in.get(I32, m) == t;
                    for (int k = 0; k < topk; k++)
                    {
                        header &= in.get(I32, m + 8 + 4L * k) == idx[t * topk + k];
                    }
                    tokens.fillPayload(s, t, want, 0);
                    final long at = MemorySegment.mismatch(in, m + headerBytes, m + headerBytes + tokens.payloadBytes(), want, 0,
                        tokens.payloadBytes());
                    if (!header || at >= 0)
                    {
                        mismatch("expert " + e + ": token " + t + " from PE " + s + (header ? " payload differs at byte " + at
                            : " header differs: token " + in.get(I32, m)));
                    }
                }
                if (slot != recvCount[local * npes + s])
                {
                    mismatch("expert " + e + ": " + recvCount[local * npes + s] + " tokens received from PE " + s + ", expected " + slot);
                }
            }
        }
    }

    @Override
    public long dispatchBytes()
    {
        return (long)Arrays.stream(sendCount).sum() * tokens.payloadBytes();
    }

    @Override
    public long combineBytes()
    {
        return (long)outputCount * combBytes;
    }

    @Override
    public long receivedTokens()
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
