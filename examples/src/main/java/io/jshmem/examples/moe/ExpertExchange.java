package io.jshmem.examples.moe;

import io.jshmem.Shmem;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * One PE's side of an expert-parallel step: {@link #dispatch} sends this PE's tokens to the PEs owning their
 * experts and receives the tokens routed to its own experts (with a layout saying where each came from),
 * {@link #compute} runs the local experts, {@link #combine} returns the outputs to the tokens' PEs, which
 * sum them. The three calls are collective over WORLD and must follow each other in that order, step
 * after step, with a growing epoch (1, 2, ...). Single-threaded: the PE's main thread only.
 */
public abstract class ExpertExchange implements AutoCloseable
{
    /** Mismatches kept for the report; the count goes on. */
    private static final int MAX_MESSAGES = 8;

    protected final Shmem shmem;
    protected final MoeOptions options;
    protected final Tokens tokens;
    protected final int me;
    protected final int npes;
    protected final int tokensPerPe;
    protected final int topk;
    protected final int hidden;
    protected final int localExperts;
    /** This PE's token payloads, token t at {@code t * payloadBytes}. */
    protected final MemorySegment source;
    /** This PE's routing. */
    protected final Tokens.Routing routing;
    /** The combined tokens (bf16), token t at {@code t * combinedBytes}. */
    protected final MemorySegment combined;
    private final List<String> mismatches = new ArrayList<>();
    private long mismatchCount;

    protected ExpertExchange(final Shmem shmem, final MoeOptions options, final Tokens tokens)
    {
        this.shmem = shmem;
        this.options = options;
        this.tokens = tokens;
        this.me = shmem.myPe();
        this.npes = shmem.nPes();
        this.tokensPerPe = options.tokens();
        this.topk = options.topk();
        this.hidden = options.hidden();
        this.localExperts = tokens.localExperts();
        this.routing = tokens.route(me);
        this.source = MemorySegment.ofArray(new byte[Math.multiplyExact(tokensPerPe, tokens.payloadBytes())]);
        for (int t = 0; t < tokensPerPe; t++)
        {
            tokens.fillPayload(me, t, source, (long)t * tokens.payloadBytes());
        }
        this.combined = MemorySegment.ofArray(new byte[Math.multiplyExact(tokensPerPe, tokens.combinedBytes())]);
    }

    /**
     * Makes the exchange for the options' mode; collective (allocates symmetric memory).
     *
     * @param shmem   this PE.
     * @param options the run's options.
     * @return the exchange; close it (collective) to free its memory.
     */
    public static ExpertExchange create(final Shmem shmem, final MoeOptions options)
    {
        final int experts = options.expertsFor(shmem.nPes(), shmem.myPe());
        final Tokens tokens = new Tokens(options, shmem.nPes(), experts);
        return switch (options.mode())
        {
            case NORMAL -> new NormalExchange(shmem, options, tokens);
            case LOW_LATENCY -> new LowLatencyExchange(shmem, options, tokens);
            case COLLECTIVE -> new CollectiveExchange(shmem, options, tokens);
        };
    }

    /** Sends this PE's tokens and waits for every token routed here; builds the receive layout. */
    public abstract void dispatch(long epoch);

    /** Runs the local experts on the received tokens (no communication). */
    public abstract void compute();

    /** Returns the experts' outputs and waits for this PE's combined tokens. */
    public abstract void combine(long epoch);

    /** Checks every token received by the last dispatch against its source; mismatches are counted. */
    public abstract void verifyDispatch();

    /** @return payload bytes of the tokens the last dispatch sent from this PE (DeepEP's count; self included). */
    public abstract long dispatchBytes();

    /** @return bytes of the expert outputs the last combine sent from this PE. */
    public abstract long combineBytes();

    /** @return tokens received by the last dispatch (per expert in low-latency mode, per PE otherwise). */
    public abstract long receivedTokens();

    /** Checks every combined token against the locally computed reference. */
    public final void verifyCombine()
    {
        final float[] x = new float[hidden];
        final float[] y = new float[hidden];
        final float[] partial = new float[hidden];
        final float[] want = new float[hidden];
        final long bytes = tokens.combinedBytes();
        for (int t = 0; t < tokensPerPe; t++)
        {
            tokens.reference(options.mode(), me, t, routing, x, y, partial, want);
            for (int i = 0; i < hidden; i++)
            {
                final short got = combined.get(ValueLayout.JAVA_SHORT_UNALIGNED, t * bytes + 2L * i);
                if (got != Tokens.bf16Bits(want[i]))
                {
                    mismatch("combined token " + t + " element " + i + ": got " + Tokens.bf16ToFloat(got) + ", expected " + want[i]
                        + " (experts " + experts(t) + ")");
                    break;
                }
            }
        }
    }

    /** @return the experts of this PE's token t, for messages. */
    protected final String experts(final int t)
    {
        final StringBuilder sb = new StringBuilder();
        for (int k = 0; k < topk; k++)
        {
            sb.append(k == 0 ? "" : ",").append(routing.idx()[t * topk + k]);
        }
        return sb.toString();
    }

    /** Records one mismatch. */
    protected final void mismatch(final String what)
    {
        mismatchCount++;
        if (mismatches.size() < MAX_MESSAGES)
        {
            mismatches.add("[pe " + me + "/" + npes + "] moe " + options.mode().label() + ": " + what);
        }
    }

    /** @return mismatches found so far. */
    public final long mismatchCount()
    {
        return mismatchCount;
    }

    /** @return the first mismatches, each naming the PE, token and element. */
    public final List<String> mismatches()
    {
        return List.copyOf(mismatches);
    }

    /** @return the combined tokens (bf16), for callers that use them. */
    public final MemorySegment combined()
    {
        return combined;
    }

    /** @return the PE after this one by {@code i} places, so each PE starts sending to a different peer. */
    protected final int peer(final int i)
    {
        return (me + 1 + i) % npes;
    }

    /** Frees the symmetric memory (collective). */
    @Override
    public abstract void close();
}
