package io.jshmem.examples.moe;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/**
 * The deterministic workload every PE can regenerate for any PE: each token's top-K routing and weights,
 * its payload (bf16, or e4m3 fp8 with a float scale per {@value #FP8_BLOCK} elements), the experts'
 * function and the reference of a combined token. Because everything is a function of (seed, PE, token),
 * a receiver checks a token from PE 5 without asking PE 5, and a source checks its combined tokens
 * against a local computation in the same floating-point order the experts and the combine use.
 * <p>
 * Combine semantics (DeepEP's): in normal and collective modes an expert PE sums, per token, its own
 * experts' outputs weighted by the token's top-K weights (float, k ascending) and returns one bf16 vector
 * per (token, PE); the source adds those per-PE vectors (float, PE ascending) and rounds to bf16. In
 * low-latency mode every expert returns its unweighted bf16 output and the source sums
 * {@code weight_k * out_k} (float, k ascending), rounded to bf16.
 * <p>
 * Immutable; safe to share between threads.
 */
public final class Tokens
{
    /** Elements per fp8 scale (DeepEP's block). */
    public static final int FP8_BLOCK = 128;

    private static final ValueLayout.OfShort BF16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    private final MoeOptions options;
    private final int npes;
    private final int experts;
    private final int localExperts;
    private final int hidden;
    private final int topk;
    private final boolean fp8;
    private final int payloadBytes;

    /** Routing of one PE's tokens: expert {@code idx[t*K+k]} with weight {@code weight[t*K+k]}. */
    public record Routing(int[] idx, float[] weight)
    {
    }

    /**
     * @param options the run's options.
     * @param npes    PEs in the job.
     * @param experts experts in the job (a multiple of npes).
     */
    public Tokens(final MoeOptions options, final int npes, final int experts)
    {
        this.options = options;
        this.npes = npes;
        this.experts = experts;
        this.localExperts = experts / npes;
        this.hidden = options.hidden();
        this.topk = options.topk();
        this.fp8 = options.payload() == MoeOptions.Payload.FP8;
        this.payloadBytes = fp8 ? hidden + hidden / FP8_BLOCK * Float.BYTES : hidden * 2;
    }

    /** @return bytes of one token's dispatch payload (scales included for fp8). */
    public int payloadBytes()
    {
        return payloadBytes;
    }

    /** @return bytes of one combined (bf16) token. */
    public int combinedBytes()
    {
        return hidden * 2;
    }

    /** @return experts owned by each PE. */
    public int localExperts()
    {
        return localExperts;
    }

    /** @return the PE that owns expert e (experts are spread evenly, in blocks). */
    public int owner(final int e)
    {
        return e / localExperts;
    }

    /**
     * The routing of PE pe's tokens: K distinct experts per token, the first one expert 0 (the hot one)
     * for a fraction {@code --hot} of the tokens, weights in (0, 1] with exact binary fractions.
     */
    public Routing route(final int pe)
    {
        final int tokens = options.tokens();
        final int[] idx = new int[tokens * topk];
        final float[] w = new float[tokens * topk];
        final SplittableRandom r = new SplittableRandom(options.seed() * 0x9E3779B97F4A7C15L + pe);
        for (int t = 0; t < tokens; t++)
        {
            for (int k = 0; k < topk; k++)
            {
                int e;
                if (k == 0 && options.hot() > 0 && r.nextDouble() < options.hot())
                {
                    e = 0;
                }
                else
                {
                    do
                    {
                        e = r.nextInt(experts);
                    }
                    while (contains(idx, t * topk, k, e));
                }
                idx[t * topk + k] = e;
                w[t * topk + k] = (1 + r.nextInt(16)) / 16f;
            }
        }
        return new Routing(idx, w);
    }

    private static boolean contains(final int[] idx, final int from, final int count, final int e)
    {
        for (int i = 0; i < count; i++)
        {
            if (idx[from + i] == e)
            {
                return true;
            }
        }
        return false;
    }

    /** Writes the payload of token t of PE pe at {@code dst[offset ..]}. */
    public void fillPayload(final int pe, final int t, final MemorySegment dst, final long offset)
    {
        final long base = options.seed() * 0x632BE59BD9B4E019L + ((long)pe << 32) + t;
        if (fp8)
        {
            for (int i = 0; i < hidden; i++)
            {
                final int h = mix(base, i);
                int b = h & 0xFF;
                if ((b & 0x7F) == 0x7F)
                {
                    b &= 0xFE; // e4m3 has no infinity; S.1111.111 is NaN
                }
                dst.set(ValueLayout.JAVA_BYTE, offset + i, (byte)b);
            }
            for (int s = 0; s < hidden / FP8_BLOCK; s++)
            {
                dst.set(F32, offset + hidden + (long)s * Float.BYTES, (1 + (mix(base, -1 - s) & 7)) / 256f);
            }
        }
        else
        {
            for (int i = 0; i < hidden; i++)
            {
                final float v = ((mix(base, i) & 0xFF) - 128) / 64f; // exact in bf16
                dst.set(BF16, offset + 2L * i, bf16Bits(v));
            }
        }
    }

    private static int mix(final long base, final int i)
    {
        long z = base + 0x9E3779B97F4A7C15L * (i + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (int)(z ^ (z >>> 31));
    }

    /** Decodes a payload at {@code src[offset ..]} into x (dequantised for fp8). */
    public void decode(final MemorySegment src, final long offset, final float[] x)
    {
        if (fp8)
        {
            for (int i = 0; i < hidden; i++)
            {
                final float scale = src.get(F32, offset + hidden + (long)(i / FP8_BLOCK) * Float.BYTES);
                x[i] = fp8ToFloat(src.get(ValueLayout.JAVA_BYTE, offset + i)) * scale;
            }
        }
        else
        {
            for (int i = 0; i < hidden; i++)
            {
                x[i] = bf16ToFloat(src.get(BF16, offset + 2L * i));
            }
        }
    }

    /** Expert e's function: {@code y = bf16(x * a_e + b_e)}, cheap and different per expert. */
    public static void expert(final int e, final float[] x, final float[] y)
    {
        final float a = 0.5f + (e % 8) * 0.125f;
        final float b = ((e % 5) - 2) * 0.0625f;
        for (int i = 0; i < x.length; i++)
        {
            y[i] = bf16Round(x[i] * a + b);
        }
    }

    /**
     * The combined token t of PE pe as the combine of {@code mode} must return it (bf16 values as floats).
     *
     * @param routing pe's routing.
     * @param x       scratch, hidden elements.
     * @param y       scratch, hidden elements.
     * @param partial scratch, hidden elements.
     * @param out     the result, hidden elements.
     */
    public void reference(final MoeOptions.Mode mode, final int pe, final int t, final Routing routing, final float[] x,
        final float[] y, final float[] partial, final float[] out)
    {
        final MemorySegment payload = MemorySegment.ofArray(new byte[payloadBytes]);
        fillPayload(pe, t, payload, 0);
        decode(payload, 0, x);
        java.util.Arrays.fill(out, 0f);
        if (mode == MoeOptions.Mode.LOW_LATENCY)
        {
            for (int k = 0; k < topk; k++)
            {
                expert(routing.idx()[t * topk + k], x, y);
                final float w = routing.weight()[t * topk + k];
                for (int i = 0; i < hidden; i++)
                {
                    out[i] += w * y[i];
                }
            }
        }
        else
        {
            for (int p = 0; p < npes; p++)
            {
                if (partial(p, t, routing.idx(), routing.weight(), x, y, partial))
                {
                    for (int i = 0; i < hidden; i++)
                    {
                        out[i] += partial[i];
                    }
                }
            }
        }
        for (int i = 0; i < hidden; i++)
        {
            out[i] = bf16Round(out[i]);
        }
    }

    /**
     * PE p's share of token t: {@code bf16(sum over k with owner(idx_k) == p of w_k * expert_k(x))}, k ascending.
     *
     * @param idx    the token's source routing (K entries from {@code t*K}).
     * @param weight the weights, same layout.
     * @return false when none of the token's experts lives on p (partial untouched).
     */
    public boolean partial(final int p, final int t, final int[] idx, final float[] weight, final float[] x, final float[] y,
        final float[] partial)
    {
        boolean any = false;
        for (int k = 0; k < topk; k++)
        {
            final int e = idx[t * topk + k];
            if (owner(e) != p)
            {
                continue;
            }
            if (!any)
            {
                java.util.Arrays.fill(partial, 0f);
                any = true;
            }
            expert(e, x, y);
            final float w = weight[t * topk + k];
            for (int i = 0; i < hidden; i++)
            {
                partial[i] += w * y[i];
            }
        }
        if (any)
        {
            for (int i = 0; i < hidden; i++)
            {
                partial[i] = bf16Round(partial[i]);
            }
        }
        return any;
    }

    /** @return f rounded to the nearest bf16 (ties to even), as a float. */
    public static float bf16Round(final float f)
    {
        return bf16ToFloat(bf16Bits(f));
    }

    /** @return the bf16 bits nearest to f (ties to even). */
    public static short bf16Bits(final float f)
    {
        final int bits = Float.floatToRawIntBits(f);
        return (short)((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    /** @return the float of bf16 bits b. */
    public static float bf16ToFloat(final short b)
    {
        return Float.intBitsToFloat((b & 0xFFFF) << 16);
    }

    /** @return the float of an e4m3 (OCP fp8, bias 7, no infinities) byte; S.1111.111 is NaN. */
    public static float fp8ToFloat(final byte b)
    {
        final int exp = (b >>> 3) & 0xF;
        final int man = b & 7;
        final float mag;
        if (exp == 0)
        {
            mag = man / 8f * 0x1p-6f;
        }
        else if (exp == 15 && man == 7)
        {
            mag = Float.NaN;
        }
        else
        {
            mag = (1 + man / 8f) * Math.scalb(1f, exp - 7);
        }
        return (b & 0x80) != 0 ? -mag : mag;
    }
}
