package io.jshmem.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Collects repeated measurements per (benchmark, size) and prints them as an OSU-style table with the
 * median and the spread (min..max) of the repetitions. Single-threaded.
 */
final class Results
{
    /** One row: what was measured, at which size, in which unit, every repetition's value. */
    record Row(String benchmark, long size, String unit, List<Double> values)
    {
        double median()
        {
            final double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        }

        double min()
        {
            return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        }

        double max()
        {
            return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }
    }

    /**
     * The benchmark programs' command line: {@code --reps N --warmup N --quick --csv FILE}, and the extras a
     * program accepts: {@code --heap-arrays} (P2pBench), {@code --only TEXT} (CollectivesBench: only the rows
     * whose name contains TEXT). {@code --warmup} passes run every row unrecorded before the {@code --reps}
     * recorded ones.
     */
    record Options(int reps, int warmup, boolean quick, boolean heapArrays, String only, String csv)
    {
        static Options parse(final String[] args, final int defaultReps, final int defaultWarmup, final String... extras)
        {
            final List<String> accepted = List.of(extras);
            int reps = defaultReps;
            int warmup = defaultWarmup;
            boolean quick = false;
            boolean heapArrays = false;
            String only = "";
            String csv = null;
            for (int i = 0; i < args.length; i++)
            {
                final String arg = args[i];
                if ((arg.equals("--heap-arrays") || arg.equals("--only")) && !accepted.contains(arg))
                {
                    throw new IllegalArgumentException(arg + " is not an option of this benchmark");
                }
                if (Set.of("--reps", "--warmup", "--csv", "--only").contains(arg) && i + 1 >= args.length)
                {
                    throw new IllegalArgumentException(arg + " needs a value");
                }
                switch (arg)
                {
                    case "--reps" -> reps = Integer.parseInt(args[++i]);
                    case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                    case "--quick" -> quick = true;
                    case "--csv" -> csv = args[++i];
                    case "--heap-arrays" -> heapArrays = true;
                    case "--only" -> only = args[++i];
                    default -> throw new IllegalArgumentException("unknown option " + arg + " (--reps N, --warmup N, --quick, " +
                        (accepted.contains("--heap-arrays") ? "--heap-arrays, " : "") + (accepted.contains("--only") ? "--only TEXT, " : "") +
                        "--csv FILE)");
                }
            }
            return new Options(reps, warmup, quick, heapArrays, only, csv);
        }
    }

    private final Map<String, Row> rows = new LinkedHashMap<>();

    /** On PE 0: prints the table under the title and writes the CSV if the options ask for one. */
    void report(final io.jshmem.Shmem shmem, final String title, final Options options) throws java.io.IOException
    {
        if (shmem.myPe() != 0)
        {
            return;
        }
        System.out.print(format(title + " (" + shmem.vendorName() + ", Java " + Runtime.version() + ")"));
        if (options.csv() != null)
        {
            java.nio.file.Files.writeString(java.nio.file.Path.of(options.csv()), csv());
        }
    }

    /**
     * Runs {@code pass} {@code warmup} times, forgets what they recorded, then runs it {@code reps} times.
     * The warm-up passes record exactly as the others (no "recording" flag in {@link #add}): a branch
     * that flips when recording starts made C2 deoptimize the inlined benchmark loop at the first
     * recorded pass, which then timed the interpreter.
     */
    void run(final Options options, final Runnable pass)
    {
        for (int w = 0; w < options.warmup(); w++)
        {
            pass.run();
        }
        rows.clear();
        for (int r = 0; r < options.reps(); r++)
        {
            pass.run();
        }
    }

    void add(final String benchmark, final long size, final String unit, final double value)
    {
        rows.computeIfAbsent(benchmark + "\u0000" + size, k -> new Row(benchmark, size, unit, new ArrayList<>())).values().add(value);
    }

    List<Row> rows()
    {
        return List.copyOf(rows.values());
    }

    /** Prints one OSU-style block per benchmark: size, median, min, max. */
    String format(final String title)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("# ").append(title).append('\n');
        String current = null;
        final List<Row> grouped = new ArrayList<>(rows.values());
        final List<String> order = grouped.stream().map(Row::benchmark).distinct().toList();
        grouped.sort(java.util.Comparator.comparingInt(r -> order.indexOf(r.benchmark())));
        for (final Row r : grouped)
        {
            if (!r.benchmark().equals(current))
            {
                current = r.benchmark();
                sb.append(String.format(Locale.ROOT, "%n# %s%n# %-10s %14s %14s %14s%n", current, "Size", "median " + r.unit(), "min", "max"));
            }
            sb.append(String.format(Locale.ROOT, "%-12d %14.3f %14.3f %14.3f%n", r.size(), r.median(), r.min(), r.max()));
        }
        return sb.toString();
    }

    /** Machine-readable lines: benchmark,size,unit,median,min,max,values... */
    String csv()
    {
        final StringBuilder sb = new StringBuilder("benchmark,size,unit,median,min,max,values\n");
        for (final Row r : rows.values())
        {
            sb.append(String.format(Locale.ROOT, "%s,%d,%s,%.4f,%.4f,%.4f,%s%n", r.benchmark(), r.size(), r.unit(), r.median(), r.min(), r.max(),
                String.join(";", r.values().stream().map(v -> String.format(Locale.ROOT, "%.4f", v)).toList())));
        }
        return sb.toString();
    }

    static long[] sizes(final long from, final long to)
    {
        final List<Long> list = new ArrayList<>();
        for (long s = from; s <= to; s <<= 1)
        {
            list.add(s);
        }
        return list.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public String toString()
    {
        return Arrays.toString(rows.keySet().toArray());
    }
}
