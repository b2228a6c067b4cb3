package io.jshmem.bench;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.SymmetricLongs;
import io.jshmem.Team;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One PE of a scale job (benchmarks/scale): what a job of N PEs costs each PE, from the launch to the exit.
 * Every PE writes its init figures to {@code --out DIR/init-<rank>.txt} as soon as init returns (so a job whose collectives
 * do not finish still shows whether and when each PE got through init), and records, as {@code key=value} words in
 * {@code --out DIR/pe-<rank>.txt} (written before finalize,
 * with a second line after it, so a crash in finalize still leaves the rest):
 * <ul>
 * <li>{@code spawn_ms}, {@code main_ms}, {@code init_ms}: wall-clock ms from the launch ({@code --launch-ms},
 *     epoch ms taken by the script just before it started the launcher) to this process's start, to
 *     {@code main}, and to {@link Shmem#init()} returning; {@code init_call_ms} is init alone, and
 *     {@code ph_<step>_ms} its steps ({@link Shmem#initPhaseNanos()});</li>
 * <li>{@code threads_init}/{@code sockets_init} right after init and {@code threads_coll}/{@code sockets_coll}
 *     after the collectives ({@code /proc/self/status} Threads; {@code /proc/self/fd} links to {@code socket:});</li>
 * <li>{@code barrier_us}, {@code allreduce_us}, {@code fcollect_us}, {@code alltoall_us}: this PE's mean per
 *     call of {@code --iters} back-to-back calls after {@code --warmup} unrecorded ones: barrierAll, an
 *     8-byte (one long) SUM reduce over WORLD, fcollect of one long per PE, alltoall of one long per PE pair
 *     (each result checked once after its loop);</li>
 * <li>{@code hwm_kb} (VmHWM), {@code rss_kb}, {@code anon_kb} (RssAnon), {@code shmem_kb} (RssShmem: this PE's
 *     heap file and the peers' it touched), {@code heap_used_kb} (Java heap in use) and {@code native_kb} =
 *     RssAnon - Java heap used (the JVM's and libraries' own memory: metaspace, code, thread stacks, direct
 *     buffers, malloc; an upper bound, since Java heap pages touched but free count as native), sampled after
 *     the collectives; with {@code --nmt} (and -XX:NativeMemoryTracking=summary) also {@code nmt_kb}, NMT's
 *     committed total less the Java heap;</li>
 * <li>after {@link Shmem#close()}: {@code finalize_ms}, {@code threads_fin}, {@code sockets_fin} and
 *     {@code end_ms} (launch to the end of main).</li>
 * </ul>
 * benchmarks/native/shmem_scale.c is its twin for Open MPI OSHMEM (same keys, no init steps).
 * <p>
 * Run: {@code bin/shmemrun -np N ... io.jshmem.bench.ScaleBench --out DIR --launch-ms $(date +%s%3N) [--iters 200] [--warmup 20] [--nmt]
 * [--idle]}
 */
public final class ScaleBench
{
    private final Shmem shmem;
    private final Team world;
    private final int me;
    private final int n;
    private final Map<String, String> rec;

    private ScaleBench(final Shmem shmem, final Map<String, String> rec)
    {
        this.shmem = shmem;
        this.world = shmem.teamWorld();
        this.me = shmem.myPe();
        this.n = shmem.nPes();
        this.rec = rec;
    }

    public static void main(final String[] args) throws Exception
    {
        final long mainMs = System.currentTimeMillis();
        Path out = null;
        long launchMs = -1;
        int iters = 200;
        int warmup = 20;
        boolean nmt = false;
        boolean idle = false;
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--out" -> out = Path.of(args[++i]);
                case "--launch-ms" -> launchMs = Long.parseLong(args[++i]);
                case "--iters" -> iters = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--nmt" -> nmt = true;
                case "--idle" -> idle = true;
                default -> throw new IllegalArgumentException("ScaleBench: unknown argument " + args[i] +
                    " (--out DIR --launch-ms EPOCH_MS [--iters N] [--warmup N] [--nmt] [--idle])");
            }
        }
        if (out == null || launchMs < 0 || iters < 1 || warmup < 0)
        {
            throw new IllegalArgumentException("ScaleBench: --out DIR and --launch-ms EPOCH_MS are required, --iters >= 1, --warmup >= 0");
        }
        final Map<String, String> rec = new LinkedHashMap<>();
        final long startMs = processStartMs(mainMs);
        final long t0 = System.nanoTime();
        final Shmem shmem = Shmem.init();
        final long initNs = System.nanoTime() - t0;
        final long initMs = System.currentTimeMillis();
        rec.put("pe", Integer.toString(shmem.myPe()));
        rec.put("npes", Integer.toString(shmem.nPes()));
        rec.put("host", hostName());
        rec.put("spawn_ms", Long.toString(startMs - launchMs));
        rec.put("main_ms", Long.toString(mainMs - launchMs));
        rec.put("init_ms", Long.toString(initMs - launchMs));
        rec.put("init_call_ms", ms(initNs));
        for (final Map.Entry<String, Long> e : shmem.initPhaseNanos().entrySet())
        {
            rec.put("ph_" + e.getKey() + "_ms", ms(e.getValue()));
        }
        final Path file = out.resolve("pe-" + shmem.myPe() + ".txt");
        // init's figures on their own at once: a job whose collectives do not finish in time still shows how far it got
        write(out.resolve("init-" + shmem.myPe() + ".txt"), line(rec), StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
        if (idle)
        {
            idle(shmem, rec, file);
            return;
        }
        try
        {
            measure(shmem, rec, file, nmt, iters, warmup);
        }
        catch (final IOException | RuntimeException | Error ex)
        {
            shmem.close(); // from a handler: this PE leaves the job by the exception, the others fail naming it
            throw ex;
        }
        shmem.barrierAll(); // finalize is timed from a common start
        final long f0 = System.nanoTime();
        shmem.close();
        final long finNs = System.nanoTime() - f0;
        final Map<String, String> fin = new LinkedHashMap<>();
        fin.put("finalize_ms", ms(finNs));
        fin.put("threads_fin", Long.toString(threads()));
        fin.put("sockets_fin", Long.toString(sockets()));
        fin.put("end_ms", Long.toString(System.currentTimeMillis() - launchMs));
        write(file, line(fin), StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    }

    /**
     * {@code --idle}, the fault jobs of benchmarks/scale: after init and a barrier, records its pid ({@code idle_pid})
     * and sleeps outside any jshmem call; when the script kills or stops one PE, the others learn of the loss from
     * jshmem's liveness (the bootstrap's, and the launcher's) and end, naming it, which the script times. Ends by
     * itself after 10 minutes.
     */
    private static void idle(final Shmem shmem, final Map<String, String> rec, final Path file) throws IOException, InterruptedException
    {
        shmem.barrierAll();
        rec.put("idle_pid", Long.toString(ProcessHandle.current().pid()));
        write(file, line(rec), StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        try
        {
            Thread.sleep(600_000); // the script kills or stops one PE well before; the others' liveness ends them
        }
        finally
        {
            shmem.close();
        }
    }

    /** Samples after init, times the collectives, samples again and writes the record's first line. */
    private static void measure(final Shmem shmem, final Map<String, String> rec, final Path file, final boolean nmt, final int iters,
        final int warmup) throws IOException
    {
        rec.put("threads_init", Long.toString(threads()));
        rec.put("sockets_init", Long.toString(sockets()));

        final ScaleBench bench = new ScaleBench(shmem, rec);
        bench.collectives(iters, warmup);

        final Map<String, Long> status = procStatus();
        rec.put("threads_coll", Long.toString(threads()));
        rec.put("sockets_coll", Long.toString(sockets()));
        final long heapUsedKb = (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 10;
        rec.put("hwm_kb", Long.toString(status.getOrDefault("VmHWM", -1L)));
        rec.put("rss_kb", Long.toString(status.getOrDefault("VmRSS", -1L)));
        rec.put("anon_kb", Long.toString(status.getOrDefault("RssAnon", -1L)));
        rec.put("shmem_kb", Long.toString(status.getOrDefault("RssShmem", -1L)));
        rec.put("heap_used_kb", Long.toString(heapUsedKb));
        rec.put("native_kb", Long.toString(Math.max(0, status.getOrDefault("RssAnon", 0L) - heapUsedKb)));
        if (nmt)
        {
            rec.put("nmt_kb", Long.toString(nmtNativeKb()));
        }
        write(file, line(rec), StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    }

    private void collectives(final int iters, final int warmup)
    {
        final SymmetricLongs src = shmem.allocateLongs(n);
        final SymmetricLongs dest = shmem.allocateLongs(n);
        final String prefix = "[pe " + me + "/" + n + "] ScaleBench: ";

        rec.put("barrier_us", us(time(iters, warmup, shmem::barrierAll)));

        src.setLocal(0, me + 1);
        rec.put("allreduce_us", us(time(iters, warmup, () -> world.reduce(ReduceOp.SUM, dest.slice(0, 1), src.slice(0, 1), 1))));
        final long sum = (long)n * (n + 1) / 2;
        if (dest.getLocal(0) != sum)
        {
            throw new IllegalStateException(prefix + "sum reduce of 1 long gave " + dest.getLocal(0) + ", expected " + sum);
        }

        src.setLocal(0, 1000L * me + 7);
        rec.put("fcollect_us", us(time(iters, warmup, () -> world.fcollect(dest, src.slice(0, 1), 1))));
        for (int pe = 0; pe < n; pe++)
        {
            if (dest.getLocal(pe) != 1000L * pe + 7)
            {
                throw new IllegalStateException(prefix + "fcollect of 1 long: element " + pe + " is " + dest.getLocal(pe) +
                    ", expected " + (1000L * pe + 7));
            }
        }

        for (int pe = 0; pe < n; pe++)
        {
            src.setLocal(pe, (long)me * n + pe);
        }
        rec.put("alltoall_us", us(time(iters, warmup, () -> world.alltoall(dest, src, 1))));
        for (int pe = 0; pe < n; pe++)
        {
            if (dest.getLocal(pe) != (long)pe * n + me)
            {
                throw new IllegalStateException(prefix + "alltoall of 1 long per pair: element " + pe + " is " + dest.getLocal(pe) +
                    ", expected " + ((long)pe * n + me));
            }
        }
        shmem.barrierAll();
        shmem.free(dest);
        shmem.free(src);
    }

    /** @return this PE's mean ns per call over {@code iters} calls, after {@code warmup} unrecorded ones. */
    private double time(final int iters, final int warmup, final Runnable op)
    {
        shmem.barrierAll();
        for (int i = 0; i < warmup; i++)
        {
            op.run();
        }
        shmem.barrierAll();
        final long t0 = System.nanoTime();
        for (int i = 0; i < iters; i++)
        {
            op.run();
        }
        return (double)(System.nanoTime() - t0) / iters;
    }

    private static String ms(final long ns)
    {
        return String.format(Locale.ROOT, "%.3f", ns / 1e6);
    }

    private static String us(final double ns)
    {
        return String.format(Locale.ROOT, "%.3f", ns / 1e3);
    }

    private static String line(final Map<String, String> rec)
    {
        final StringBuilder sb = new StringBuilder();
        rec.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(v.replace(' ', '_')));
        return sb.append('\n').toString();
    }

    private static void write(final Path file, final String text, final StandardOpenOption... options) throws IOException
    {
        Files.writeString(file, text, StandardCharsets.UTF_8, options);
    }

    /**
     * This process's start as epoch ms, to 10 ms: now less its age, the age being /proc/uptime less the start
     * time in /proc/self/stat (both since boot; USER_HZ is 100 on Linux). ProcessHandle's startInstant adds
     * the boot time in whole seconds, up to a second off. shmem_scale.c computes it the same way.
     *
     * @param fallback the value when /proc cannot be read.
     */
    private static long processStartMs(final long fallback)
    {
        try
        {
            final long nowMs = System.currentTimeMillis();
            final double uptimeS = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).trim().split("\\s+")[0]);
            final String stat = Files.readString(Path.of("/proc/self/stat"));
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+"); // fields 3.. of proc(5)
            final long startTicks = Long.parseLong(fields[22 - 3]);
            return nowMs - Math.round(uptimeS * 1000 - startTicks * 10.0);
        }
        catch (final IOException | RuntimeException ex)
        {
            return fallback;
        }
    }

    private static String hostName()
    {
        try
        {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }

    /** @return the kB fields (and Threads) of /proc/self/status by name. */
    private static Map<String, Long> procStatus()
    {
        final Map<String, Long> values = new LinkedHashMap<>();
        try
        {
            for (final String l : Files.readAllLines(Path.of("/proc/self/status")))
            {
                final int colon = l.indexOf(':');
                if (colon > 0)
                {
                    final String[] words = l.substring(colon + 1).trim().split("\\s+");
                    if (words.length >= 1 && words[0].matches("\\d+"))
                    {
                        values.put(l.substring(0, colon), Long.parseLong(words[0]));
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("ScaleBench: cannot read /proc/self/status: " + ex, ex);
        }
        return values;
    }

    private static long threads()
    {
        return procStatus().getOrDefault("Threads", -1L);
    }

    /** @return this process's open sockets: entries of /proc/self/fd that link to {@code socket:[inode]}. */
    private static long sockets()
    {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd")))
        {
            return fds.filter(fd ->
            {
                try
                {
                    return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                }
                catch (final IOException ex)
                {
                    return false; // closed while listing (the listing's own descriptor among them)
                }
            }).count();
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    /** @return NMT's committed total less the Java heap's, in kB, or -1 when NMT is off. */
    private static long nmtNativeKb()
    {
        try
        {
            final javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
            final String text = (String)server.invoke(new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
                "vmNativeMemory", new Object[] {new String[] {"summary", "scale=KB"}}, new String[] {String[].class.getName()});
            final java.util.regex.Matcher total = java.util.regex.Pattern.compile("Total: reserved=\\d+KB, committed=(\\d+)KB").matcher(text);
            final java.util.regex.Matcher heap = java.util.regex.Pattern.compile("Java Heap \\(reserved=\\d+KB, committed=(\\d+)KB").matcher(text);
            if (!total.find() || !heap.find())
            {
                return -1; // "Native memory tracking is not enabled"
            }
            return Long.parseLong(total.group(1)) - Long.parseLong(heap.group(1));
        }
        catch (final javax.management.JMException | RuntimeException ex)
        {
            return -1;
        }
    }
}
