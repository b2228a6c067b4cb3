package io.jshmem.examples.moe;

import java.util.Locale;

/**
 * The command line of the {@code moe} example and of MoeBench: the shape of one expert-parallel step.
 * <pre>
 *   --mode normal|low-latency|collective   (default normal)
 *   --tokens T      tokens per PE (default 256)
 *   --hidden H      elements per token (default 1024; a multiple of 128 for fp8)
 *   --topk K        experts per token (default 4, at most --experts)
 *   --experts E     experts in the job (default 4 per PE; a multiple of the PE count)
 *   --payload bf16|fp8                     (default bf16)
 *   --iters I       dispatch/combine steps (default 3)
 *   --hot F         fraction of tokens whose first choice is expert 0, the hot expert (default 0)
 *   --inflight N    low-latency mode: at most N unfinished puts before a quiet (default 0, no limit)
 *   --seed S        routing and data seed (default 1)
 *   --verify        check every received and every combined token on every PE
 * </pre>
 *
 * @param mode     how tokens travel.
 * @param tokens   tokens per PE.
 * @param hidden   elements per token.
 * @param topk     experts per token.
 * @param experts  experts in the job, or 0 for 4 per PE.
 * @param payload  dispatch element format.
 * @param iters    steps.
 * @param hot      fraction of tokens routed to expert 0 first.
 * @param inflight unfinished puts allowed before a quiet in low-latency mode (0: no limit).
 * @param seed     routing and data seed.
 * @param verify   check every token.
 */
public record MoeOptions(Mode mode, int tokens, int hidden, int topk, int experts, Payload payload, int iters, double hot,
    int inflight, long seed, boolean verify)
{
    /** How tokens travel between PEs. */
    public enum Mode
    {
        /** Counts first, then one bulk put-with-signal per destination PE (DeepEP's normal kernels). */
        NORMAL,
        /** Worst-case per-expert buffers, one put-with-signal per token and expert, no count phase (DeepEP's low-latency kernels). */
        LOW_LATENCY,
        /** The same exchange as team collectives: an alltoall of counts, then padded alltoalls of the tokens. */
        COLLECTIVE;

        static Mode parse(final String s)
        {
            return switch (s)
            {
                case "normal" -> NORMAL;
                case "low-latency", "ll" -> LOW_LATENCY;
                case "collective" -> COLLECTIVE;
                default -> throw new IllegalArgumentException("--mode " + s + ": expected normal, low-latency or collective");
            };
        }

        /** @return the name on the command line. */
        public String label()
        {
            return this == LOW_LATENCY ? "low-latency" : name().toLowerCase(Locale.ROOT);
        }
    }

    /** Dispatch element formats; combine always returns bf16. */
    public enum Payload
    {
        /** 2 bytes per element. */
        BF16,
        /** 1 byte (e4m3) per element plus one float scale per 128 elements. */
        FP8
    }

    /** Defaults: normal, 256 tokens of 1024 bf16 elements, top-4 of 4 experts per PE, 3 steps. */
    public static MoeOptions parse(final String... args)
    {
        Mode mode = Mode.NORMAL;
        int tokens = 256;
        int hidden = 1024;
        int topk = 4;
        int experts = 0;
        Payload payload = Payload.BF16;
        int iters = 3;
        double hot = 0;
        int inflight = 0;
        long seed = 1;
        boolean verify = false;
        for (int i = 0; i < args.length; i++)
        {
            final String a = args[i];
            if (a.equals("--verify"))
            {
                verify = true;
                continue;
            }
            if (i + 1 >= args.length)
            {
                throw new IllegalArgumentException("moe: " + a + " needs a value (or is not an option); see --help");
            }
            final String v = args[++i];
            switch (a)
            {
                case "--mode" -> mode = Mode.parse(v);
                case "--tokens" -> tokens = positive(a, v);
                case "--hidden" -> hidden = positive(a, v);
                case "--topk" -> topk = positive(a, v);
                case "--experts" -> experts = positive(a, v);
                case "--payload" -> payload = switch (v)
                {
                    case "bf16" -> Payload.BF16;
                    case "fp8" -> Payload.FP8;
                    default -> throw new IllegalArgumentException("--payload " + v + ": expected bf16 or fp8");
                };
                case "--iters" -> iters = positive(a, v);
                case "--hot" -> hot = fraction(a, v);
                case "--inflight" -> inflight = nonNegative(a, v);
                case "--seed" -> seed = Long.parseLong(v);
                default -> throw new IllegalArgumentException("moe: unknown option " + a + "; see --help");
            }
        }
        if (payload == Payload.FP8 && hidden % Tokens.FP8_BLOCK != 0)
        {
            throw new IllegalArgumentException("--payload fp8 needs --hidden a multiple of " + Tokens.FP8_BLOCK + ": hidden=" + hidden);
        }
        return new MoeOptions(mode, tokens, hidden, topk, experts, payload, iters, hot, inflight, seed, verify);
    }

    /**
     * The option values checked against the job's size.
     *
     * @param npes PEs in the job.
     * @param me   this PE, for the message.
     * @return the number of experts (the default resolved).
     */
    public int expertsFor(final int npes, final int me)
    {
        final int e = experts == 0 ? 4 * npes : experts;
        if (e % npes != 0)
        {
            throw new IllegalArgumentException("[pe " + me + "/" + npes + "] moe: --experts " + e
                + " must be a multiple of the PE count " + npes + " (experts are spread evenly)");
        }
        if (topk > e)
        {
            throw new IllegalArgumentException("[pe " + me + "/" + npes + "] moe: --topk " + topk + " exceeds --experts " + e);
        }
        return e;
    }

    /** @return the one-line description printed by PE 0. */
    public String describe(final int npes, final int e)
    {
        return String.format(Locale.ROOT, "mode=%s pes=%d tokens=%d hidden=%d topk=%d experts=%d payload=%s iters=%d hot=%.2f inflight=%d",
            mode.label(), npes, tokens, hidden, topk, e, payload.name().toLowerCase(Locale.ROOT), iters, hot, inflight);
    }

    /** The usage text. */
    public static String usage()
    {
        return """
            usage: bin/shmemrun -np N moe [--mode normal|low-latency|collective] [--tokens T] [--hidden H] [--topk K]
                   [--experts E] [--payload bf16|fp8] [--iters I] [--hot F] [--inflight N] [--seed S] [--verify]
            Expert-parallel dispatch and combine (DeepEP's semantics on CPUs): every PE routes T tokens to its top-K
            experts (E spread evenly over the PEs), the experts apply a deterministic function, combine returns the
            weighted sum to the token's PE. --verify checks every token on every PE; any mismatch fails the job.""";
    }

    private static int positive(final String name, final String v)
    {
        final int n = Integer.parseInt(v);
        if (n <= 0)
        {
            throw new IllegalArgumentException(name + " " + v + ": must be positive");
        }
        return n;
    }

    private static int nonNegative(final String name, final String v)
    {
        final int n = Integer.parseInt(v);
        if (n < 0)
        {
            throw new IllegalArgumentException(name + " " + v + ": must not be negative");
        }
        return n;
    }

    private static double fraction(final String name, final String v)
    {
        final double f = Double.parseDouble(v);
        if (!(f >= 0 && f <= 1))
        {
            throw new IllegalArgumentException(name + " " + v + ": must lie in [0, 1]");
        }
        return f;
    }
}
