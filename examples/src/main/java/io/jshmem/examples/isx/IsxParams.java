package io.jshmem.examples.isx;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The command line of the {@code isx} example, which is ParRes ISx's (the SHMEM version's {@code isx.weak},
 * {@code isx.strong} and {@code isx.weak_iso} in one program):
 * <pre>
 *   isx [--scaling weak|strong|weak_iso] [KEYS [[ITERATIONS] LOG_FILE]]
 *     KEYS        keys per PE (weak, weak_iso) or in total (strong); default 134217728 (2^27, ISx's example)
 *     ITERATIONS  timed iterations after one untimed burn-in iteration; default 1
 *     LOG_FILE    appends ISx's tab-separated log (a row per PE and iteration); default none ("-": none)
 *     --scaling   weak (default): KEYS per PE, keys in [0, 2^28), one bucket per PE of width ceil(2^28 / PEs);
 *                 strong: KEYS in total, ceil(KEYS / PEs) per PE; weak_iso: KEYS per PE, bucket width 8192,
 *                 keys in [0, 8192 * PEs)
 *     --inject-fault PE  corrupts one received key on PE before verification (tests the FAIL path)
 *     --trace-exchange   after the job, each PE prints to standard error where each iteration's exchange went
 *                        (fetch-adds, quiet, barrier; {@link ExchangeTrace}); not an ISx option
 * </pre>
 * As in ISx, two positional arguments are KEYS and LOG_FILE, three are KEYS, ITERATIONS and LOG_FILE.
 *
 * @param scaling     how the problem grows with the PEs.
 * @param keys        KEYS as given: per PE, or in total for strong scaling.
 * @param iterations  timed iterations.
 * @param logFile     the log file, or null for none.
 * @param faultPe     the PE whose received keys are corrupted before verification, or -1.
 * @param traceExchange whether each PE prints its exchange's trace after the job ({@code --trace-exchange}).
 */
public record IsxParams(Scaling scaling, long keys, int iterations, String logFile, int faultPe, boolean traceExchange)
{
    /** ISx's default key range: keys are drawn from {@code [0, 2^28)}. */
    public static final long DEFAULT_MAX_KEY = 1L << 28;
    /** ISx's bucket width for weak_iso scaling. */
    public static final int ISO_BUCKET_WIDTH = 8192;
    /** Keys per PE when none are given: ISx's README example (2^27). */
    public static final long DEFAULT_KEYS = 1L << 27;
    /** Untimed iterations before the timed ones (ISx's BURN_IN). */
    public static final int BURN_IN = 1;
    /** ISx's version whose algorithm and output this follows. */
    public static final String ISX_VERSION = "1.1";
    /** Largest keys per PE (Java arrays, and ISx's int offsets). */
    static final long MAX_KEYS_PER_PE = Integer.MAX_VALUE - 64;

    /** ISx's three scaling studies. */
    public enum Scaling
    {
        /** Keys per PE and the key range fixed; bucket width shrinks with the PEs (isx.weak). */
        WEAK("WEAK"),
        /** Total keys and the key range fixed (isx.strong). */
        STRONG("STRONG"),
        /** Keys per PE and the bucket width fixed; the key range grows with the PEs (isx.weak_iso). */
        WEAK_ISO("WEAK_ISOBUCKET");

        private final String banner;

        Scaling(final String banner)
        {
            this.banner = banner;
        }

        /** {@return ISx's name for it, as in "WEAK Scaling!"} */
        public String banner()
        {
            return banner;
        }

        static Scaling parse(final String s)
        {
            return switch (s)
            {
                case "weak" -> WEAK;
                case "strong" -> STRONG;
                case "weak_iso", "weak-iso" -> WEAK_ISO;
                default -> throw new IllegalArgumentException("--scaling " + s + ": expected weak, strong or weak_iso");
            };
        }
    }

    /**
     * The sizes of one job.
     *
     * @param pes         PEs in the job (and buckets: one per PE).
     * @param keysPerPe   keys each PE draws.
     * @param maxKey      keys are drawn from {@code [0, maxKey)}.
     * @param bucketWidth keys per bucket's range: PE p owns {@code [p * bucketWidth, (p + 1) * bucketWidth)}.
     * @param capacity    keys a PE's receive buffer holds.
     */
    public record Layout(int pes, int keysPerPe, int maxKey, int bucketWidth, int capacity)
    {
        /** {@return the smallest key PE {@code pe} owns} */
        int minKey(final int pe)
        {
            return pe * bucketWidth;
        }

        /** {@return the largest key PE {@code pe} may own (ISx's bound; above maxKey - 1 for a narrower last bucket)} */
        long maxKeyInclusive(final int pe)
        {
            return (long)(pe + 1) * bucketWidth - 1;
        }

        /** {@return every PE's keys together} */
        long totalKeys()
        {
            return (long)keysPerPe * pes;
        }
    }

    /**
     * Reads the command line.
     *
     * @param args the arguments after the program name.
     * @return the parameters.
     * @throws IllegalArgumentException naming the bad argument.
     */
    public static IsxParams parse(final String[] args)
    {
        Scaling scaling = Scaling.WEAK;
        int faultPe = -1;
        boolean traceExchange = false;
        final List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++)
        {
            final String a = args[i];
            if (a.equals("--scaling") || a.equals("--inject-fault"))
            {
                if (i + 1 == args.length)
                {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                if (a.equals("--scaling"))
                {
                    scaling = Scaling.parse(args[++i]);
                }
                else
                {
                    faultPe = (int)number("--inject-fault", args[++i], 0, Integer.MAX_VALUE);
                }
            }
            else if (a.equals("--trace-exchange"))
            {
                traceExchange = true;
            }
            else if (a.startsWith("--scaling="))
            {
                scaling = Scaling.parse(a.substring("--scaling=".length()));
            }
            else if (a.startsWith("-") && a.length() > 1)
            {
                throw new IllegalArgumentException("unknown option " + a);
            }
            else
            {
                positional.add(a);
            }
        }
        if (positional.size() > 3)
        {
            throw new IllegalArgumentException("too many arguments " + positional + ": expected KEYS [[ITERATIONS] LOG_FILE]");
        }
        final long keys = positional.isEmpty() ? DEFAULT_KEYS : number("KEYS", positional.get(0), 1, Long.MAX_VALUE);
        final int iterations = positional.size() == 3 ? (int)number("ITERATIONS", positional.get(1), 1, 1_000_000) : 1;
        final String log = positional.size() >= 2 ? positional.get(positional.size() - 1) : null;
        if (scaling != Scaling.STRONG && keys > MAX_KEYS_PER_PE)
        {
            throw new IllegalArgumentException("KEYS " + keys + ": at most " + MAX_KEYS_PER_PE + " keys per PE");
        }
        return new IsxParams(scaling, keys, iterations, log == null || log.equals("-") ? null : log, faultPe, traceExchange);
    }

    private static long number(final String what, final String s, final long min, final long max)
    {
        final long v;
        try
        {
            v = Long.parseLong(s);
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException(what + " '" + s + "': not a whole number");
        }
        if (v < min || v > max)
        {
            throw new IllegalArgumentException(what + " " + v + ": expected " + min + " to " + max);
        }
        return v;
    }

    /**
     * The sizes for a job of {@code pes} PEs, computed as ISx does.
     *
     * @param pes PEs in the job.
     * @return the layout.
     * @throws IllegalArgumentException if the sizes do not fit (ISx's asserts, and Java's array limit).
     */
    public Layout layout(final int pes)
    {
        final long perPe = scaling == Scaling.STRONG ? ceilDiv(keys, pes) : keys;
        final long maxKey = scaling == Scaling.WEAK_ISO ? (long)pes * ISO_BUCKET_WIDTH : DEFAULT_MAX_KEY;
        final long width = scaling == Scaling.WEAK_ISO ? ISO_BUCKET_WIDTH : ceilDiv(maxKey, pes);
        if (perPe > MAX_KEYS_PER_PE)
        {
            throw new IllegalArgumentException("KEYS " + keys + " over " + pes + " PEs: " + perPe + " keys per PE, at most " + MAX_KEYS_PER_PE);
        }
        if (maxKey <= pes || maxKey > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("the key range [0, " + maxKey + ") must be larger than the PE count " + pes
                + " and fit an int");
        }
        return new Layout(pes, (int)perPe, (int)maxKey, (int)width, receiveCapacity(perPe));
    }

    /**
     * Keys a receive buffer holds: a PE receives about as many keys as it draws (uniform keys, one bucket per PE,
     * the last bucket no wider than the others), give or take a few standard deviations of a binomial count;
     * a quarter more and 4096 keys cover that many times over. A put that would pass it is refused and fails
     * verification (ISx's fixed 2^28-key buffer is never checked).
     *
     * @param keysPerPe keys each PE draws.
     * @return the capacity in keys.
     */
    static int receiveCapacity(final long keysPerPe)
    {
        return (int)Math.min(Integer.MAX_VALUE - 8, keysPerPe + keysPerPe / 4 + 4096);
    }

    /**
     * Symmetric heap bytes the job needs: the receive buffer and room for the receive offset and the timing and
     * verdict words (strong scaling: the total keys bound the keys per PE; the heap file is sparse, only what
     * the keys touch becomes memory).
     *
     * @return bytes.
     */
    long heapBytes()
    {
        return 4L * receiveCapacity(Math.min(keys, MAX_KEYS_PER_PE)) + (8 << 20);
    }

    /**
     * PE 0's banner, ISx's lines.
     *
     * @param layout  the job's sizes.
     * @param program who runs it, e.g. "jshmem".
     * @return the lines.
     */
    String banner(final Layout layout, final String program)
    {
        return String.format(Locale.ROOT, "ISx v%s (%s)%n  Number of Keys per PE: %d%n  Max Key Value: %d%n  Bucket Width: %d%n"
                + "  Number of Iterations: %d%n  Number of PEs: %d%n  %s Scaling!", ISX_VERSION, program, layout.keysPerPe(),
            layout.maxKey(), layout.bucketWidth(), iterations, layout.pes(), scaling.banner());
    }

    /** {@return the usage text} */
    static String usage()
    {
        return """
            usage: bin/shmemrun -np N isx [--scaling weak|strong|weak_iso] [KEYS [[ITERATIONS] LOG_FILE]]
              ISx, the scalable integer sort (ParRes ISx's SHMEM program; its arguments): every PE draws KEYS uniform
              keys (pcg32 seeded with its PE number), sends each to the PE owning its bucket (a fetch-add reserves room
              in the destination's receive buffer, a put moves the keys) and counting-sorts what it received.
              KEYS        keys per PE (strong: in total); default 134217728 (2^27)
              ITERATIONS  timed iterations after one untimed burn-in; default 1
              LOG_FILE    append ISx's tab-separated timing log there ('-': none, the default)
              --scaling   weak (default): keys in [0, 2^28), bucket width ceil(2^28 / N); strong: KEYS in total;
                          weak_iso: bucket width 8192, keys in [0, 8192 N)
              --inject-fault PE   corrupt one received key on PE before verification (tests the FAIL path)
              --trace-exchange    after the job, every PE prints where each iteration's exchange went to stderr
                                  (each fetch-add, the quiet, the barrier); benchmarks/plot/isx_exchange.py sums it up
              The symmetric heap is sized for the receive buffer unless SHMEM_SYMMETRIC_SIZE is set.
              The last iteration is verified on every PE; any failure makes every PE exit 1.""";
    }

    private static long ceilDiv(final long a, final long b)
    {
        return (a + b - 1) / b;
    }
}
