package io.jshmem.examples.moe;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;

import java.util.Locale;

/**
 * The expert-parallel workload of the seeds (DeepEP, UCCL-EP, pplx-kernels) on CPUs: every PE routes its
 * tokens to the PEs owning their top-K experts (dispatch), the experts apply a deterministic function,
 * and the outputs return to the tokens' PEs, which sum them with the top-K weights (combine). Run:
 * {@code bin/shmemrun -np 4 moe --verify} or {@code bin/shmemrun -np 3 moe --mode low-latency --verify}.
 * <p>
 * With {@code --verify} every PE checks every token it received and every token it combined; the
 * mismatch counts are summed over the job, PE 0 prints the verdict and every PE exits 1 on any mismatch.
 */
public final class Moe
{
    private Moe()
    {
    }

    public static void main(final String[] args)
    {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h")))
        {
            System.out.println(MoeOptions.usage());
            return;
        }
        final MoeOptions options = MoeOptions.parse(args);
        final long failed;
        try (Shmem shmem = Shmem.init())
        {
            failed = run(shmem, options);
        }
        if (failed != 0)
        {
            System.exit(1);
        }
    }

    /**
     * Runs the steps and prints this PE's summary.
     *
     * @return mismatches summed over every PE (0 without --verify).
     */
    static long run(final Shmem shmem, final MoeOptions options)
    {
        final int me = shmem.myPe();
        final int n = shmem.nPes();
        final int experts = options.expertsFor(n, me);
        if (me == 0)
        {
            System.out.println("moe: " + options.describe(n, experts));
        }
        final SymmetricLongs verdict = shmem.allocateLongs(2);
        long total = 0;
        try (ExpertExchange x = ExpertExchange.create(shmem, options))
        {
            long dispatchNs = 0;
            long combineNs = 0;
            for (long epoch = 1; epoch <= options.iters(); epoch++)
            {
                shmem.barrierAll();
                final long t0 = System.nanoTime();
                x.dispatch(epoch);
                dispatchNs += System.nanoTime() - t0;
                if (options.verify())
                {
                    x.verifyDispatch();
                }
                x.compute();
                shmem.barrierAll();
                final long t1 = System.nanoTime();
                x.combine(epoch);
                combineNs += System.nanoTime() - t1;
                if (options.verify())
                {
                    x.verifyCombine();
                }
            }
            x.mismatches().forEach(System.out::println);
            verdict.setLocal(0, x.mismatchCount());
            shmem.teamWorld().reduce(ReduceOp.SUM, verdict.slice(1, 1), verdict.slice(0, 1), 1);
            total = verdict.getLocal(1);
            System.out.printf(Locale.ROOT, "pe %d/%d: %s received %d tokens, sent %d bytes per step; dispatch %.1f us, combine %.1f us"
                + " (mean of %d steps)%s%n", me, n, options.mode().label(), x.receivedTokens(), x.dispatchBytes(),
                dispatchNs / 1e3 / options.iters(), combineNs / 1e3 / options.iters(), options.iters(),
                options.verify() ? ", " + (x.mismatchCount() == 0 ? "verified" : x.mismatchCount() + " MISMATCHES") : "");
        }
        shmem.barrierAll();
        if (me == 0 && options.verify())
        {
            System.out.println(total == 0
                ? "moe: verify OK on " + n + " PEs (every dispatched and combined token of " + options.iters() + " steps)"
                : "moe: verify FAILED: " + total + " mismatches over " + n + " PEs");
        }
        shmem.free(verdict);
        return total;
    }
}
