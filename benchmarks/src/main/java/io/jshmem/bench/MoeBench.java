package io.jshmem.bench;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricDoubles;
import io.jshmem.examples.moe.ExpertExchange;
import io.jshmem.examples.moe.MoeOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Expert-parallel dispatch and combine latency (the {@code moe} example's exchanges, timed): for each mode
 * and token count, {@code --warmup} unrecorded steps (at least 20 000 / tokens, so small sizes are compiled too), then {@code --reps} steps, each phase between two
 * barriers; every step's phase time is the slowest PE's (a MAX reduction), and the table gives the median
 * and the 99th percentile over the steps. Bandwidth is counted as DeepEP counts it: the payload bytes of the
 * tokens a PE sent (averaged over the PEs; self included; combine: the bf16 outputs sent back) over the
 * median time. The experts' compute lies outside both phases; combine includes the source's weighted sum.
 * benchmarks/native/shmem_moe.c is the same algorithm over OSHMEM and MPI_Alltoallv (same CSV).
 * <p>
 * Run: {@code bin/shmemrun -np 4 -cp ... io.jshmem.bench.MoeBench [--modes normal,collective,low-latency]
 * [--tokens 128,512,1024,4096] [--ll-max-tokens 1024] [--label TEXT (CSV mode column: MODE/TEXT)] [--reps N] [--warmup N] [--csv FILE] [moe options: --hidden, --topk, --hot, ...]}.
 */
public final class MoeBench
{
    private MoeBench()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        List<String> modes = List.of("normal", "collective", "low-latency");
        int[] tokenCounts = {128, 512, 1024, 4096};
        int reps = 20;
        int warmup = 5;
        String csv = null;
        int llMax = 1024;
        String label = "";
        final List<String> moeArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--modes" -> modes = List.of(args[++i].split(","));
                case "--tokens" -> tokenCounts = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--csv" -> csv = args[++i];
                case "--ll-max-tokens" -> llMax = Integer.parseInt(args[++i]);
                case "--label" ->
                {
                    label = "/" + args[++i];
                    if (label.contains(",") || label.contains("\n"))
                    {
                        throw new IllegalArgumentException("MoeBench: --label " + args[i] + " would break the CSV (no commas)");
                    }
                }
                default -> moeArgs.add(args[i]);
            }
        }
        final StringBuilder out = new StringBuilder("impl,mode,pes,tokens,hidden,payload,phase,median_us,p99_us,bytes_per_pe,gbps\n");
        try (Shmem shmem = Shmem.init())
        {
            final SymmetricDoubles t = shmem.allocateDoubles(8);
            for (final String mode : modes)
            {
                for (final int tokens : tokenCounts)
                {
                    if (mode.equals("low-latency") && tokens > llMax)
                    {
                        continue; // worst-case buffers and one put per (token, expert): a small-batch mode
                    }
                    final List<String> a = new ArrayList<>(moeArgs);
                    a.addAll(List.of("--mode", mode, "--tokens", Integer.toString(tokens)));
                    final MoeOptions options = MoeOptions.parse(a.toArray(String[]::new));
                    // at least ~20 000 tokens of warm-up per row, so the JIT has compiled the small sizes too
                    out.append(measure(shmem, options, label, t, reps, Math.max(warmup, 20_000 / tokens)));
                }
            }
            shmem.free(t);
            if (shmem.myPe() == 0)
            {
                System.out.print(out);
                if (csv != null)
                {
                    Files.writeString(Path.of(csv), out);
                }
            }
        }
    }

    private static String measure(final Shmem shmem, final MoeOptions options, final String label, final SymmetricDoubles t, final int reps,
        final int warmup)
    {
        final double[] dispatch = new double[reps];
        final double[] combine = new double[reps];
        double dispatchBytes = 0;
        double combineBytes = 0;
        try (ExpertExchange x = ExpertExchange.create(shmem, options))
        {
            for (int step = 0; step < warmup + reps; step++)
            {
                final long epoch = step + 1;
                shmem.barrierAll();
                final long t0 = System.nanoTime();
                x.dispatch(epoch);
                final long t1 = System.nanoTime();
                x.compute();
                shmem.barrierAll();
                final long t2 = System.nanoTime();
                x.combine(epoch);
                final long t3 = System.nanoTime();
                t.setLocal(0, (t1 - t0) / 1e3);
                t.setLocal(1, (t3 - t2) / 1e3);
                t.setLocal(4, x.dispatchBytes());
                t.setLocal(5, x.combineBytes());
                shmem.teamWorld().reduce(ReduceOp.MAX, t.slice(2, 2), t.slice(0, 2), 2);
                shmem.teamWorld().reduce(ReduceOp.SUM, t.slice(6, 2), t.slice(4, 2), 2);
                if (step >= warmup)
                {
                    dispatch[step - warmup] = t.getLocal(2);
                    combine[step - warmup] = t.getLocal(3);
                    dispatchBytes = t.getLocal(6) / shmem.nPes();
                    combineBytes = t.getLocal(7) / shmem.nPes();
                }
            }
        }
        return row(shmem, options, label, "dispatch", dispatch, dispatchBytes) + row(shmem, options, label, "combine", combine, combineBytes);
    }

    private static String row(final Shmem shmem, final MoeOptions o, final String label, final String phase, final double[] us,
        final double bytes)
    {
        final double[] s = us.clone();
        Arrays.sort(s);
        final double median = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        final double p99 = s[Math.min(s.length - 1, (int)Math.ceil(0.99 * s.length) - 1)];
        return String.format(Locale.ROOT, "jshmem,%s,%d,%d,%d,%s,%s,%.1f,%.1f,%.0f,%.3f%n", o.mode().label() + label, shmem.nPes(),
            o.tokens(), o.hidden(), o.payload().name().toLowerCase(Locale.ROOT), phase, median, p99, bytes, bytes / median / 1e3);
    }
}
