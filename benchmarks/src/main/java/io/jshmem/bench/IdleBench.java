package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/**
 * What an idle job costs: every PE initializes, synchronizes, then does nothing for {@code --seconds}
 * (default 10) while the CPU time of its whole JVM (proxy thread, heartbeats, JIT and GC threads
 * included) is read before and after; {@code --reps} windows (default 3). PE 0 prints, per PE and for the
 * job, the CPU used as a percentage of one core (median of the windows, min and max beside it).
 * <p>
 * Issue 9's goal: an idle 4-PE job on 2 hosts uses less than 5 % of a core. Run between two test hosts:
 * <pre>
 * bin/test-hosts up 2
 * bin/shmemrun -np 4 --hosts h1:2,h2:2 --agent 'bin/test-hosts exec {host}' \
 *     -cp "benchmarks/target/classes:$(cat benchmarks/target/bench-classpath.txt)" io.jshmem.bench.IdleBench
 * bin/test-hosts down
 * </pre>
 */
public final class IdleBench
{
    private IdleBench()
    {
    }

    public static void main(final String[] args) throws InterruptedException
    {
        int seconds = 10;
        int reps = 3;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--seconds" -> seconds = positive(args, ++i);
                case "--reps" -> reps = positive(args, ++i);
                default -> throw new IllegalArgumentException("IdleBench: unknown option " + args[i] + " (--seconds N, --reps N)");
            }
        }
        final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
        try (Shmem shmem = Shmem.init())
        {
            final int me = shmem.myPe();
            final int n = shmem.nPes();
            final SymmetricLongs cpu = shmem.allocateLongs((long)n * reps);
            final long[] mine = new long[reps];
            shmem.barrierAll();
            Thread.sleep(1000); // let start-up work (JIT compilation of init, connection set-up) settle
            for (int r = 0; r < reps; r++)
            {
                shmem.barrierAll();
                final long c0 = os.getProcessCpuTime();
                final long t0 = System.nanoTime();
                Thread.sleep(seconds * 1000L);
                final long c1 = os.getProcessCpuTime();
                final long t1 = System.nanoTime();
                mine[r] = Math.round(1e6 * (c1 - c0) / (double)(t1 - t0)); // parts per million of a core
            }
            shmem.put(cpu, (long)me * reps, mine, 0, reps, 0);
            shmem.barrierAll();
            if (me == 0)
            {
                report(cpu, n, reps, seconds);
            }
            shmem.barrierAll();
        }
    }

    private static void report(final SymmetricLongs cpu, final int n, final int reps, final int seconds)
    {
        System.out.printf(Locale.ROOT, "# jshmem idle job: %d PEs, %d windows of %d s, CPU of each PE's JVM in %% of one core%n",
            n, reps, seconds);
        System.out.printf(Locale.ROOT, "%-8s %10s %10s %10s%n", "PE", "median", "min", "max");
        final double[] total = new double[reps];
        for (int pe = 0; pe < n; pe++)
        {
            final double[] v = new double[reps];
            for (int r = 0; r < reps; r++)
            {
                v[r] = cpu.getLocal((long)pe * reps + r) / 1e4;
                total[r] += v[r];
            }
            row(String.valueOf(pe), v);
        }
        row("job", total);
    }

    private static void row(final String name, final double[] values)
    {
        final Results.Row r = new Results.Row(name, 0, "%", Arrays.stream(values).boxed().toList());
        System.out.printf(Locale.ROOT, "%-8s %9.3f%% %9.3f%% %9.3f%%%n", name, r.median(), r.min(), r.max());
    }

    private static int positive(final String[] args, final int i)
    {
        if (i >= args.length)
        {
            throw new IllegalArgumentException("IdleBench: " + args[i - 1] + " needs a value");
        }
        try
        {
            final int v = Integer.parseInt(args[i]);
            if (v > 0)
            {
                return v;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new IllegalArgumentException("IdleBench: " + args[i - 1] + " needs a positive integer, not '" + args[i] + "'");
    }
}
