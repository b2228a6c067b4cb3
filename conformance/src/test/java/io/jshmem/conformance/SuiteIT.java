package io.jshmem.conformance;

import io.jshmem.launch.TestHosts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs every {@link Program} of the module through {@link Suite} and shmemrun at 1, 2, 3, 4 and 8 PEs;
 * the forced-algorithm {@link Program#variants()} at {@link #VARIANT_PES} (all counts when
 * {@code conformance.pes} names them), and every program once more at {@link #PROXY_PES} with
 * {@code SHMEM_TRANSPORT=proxy} (every pair through the proxy transport, as between hosts), and at
 * {@link #HOSTS_PES} on two test hosts, half the PEs on each, once over the proxy, once over the UCX
 * transport ({@link #HOSTS_UCX_ENV}) and once over the hybrid one ({@link #HOSTS_HYBRID_ENV}).
 * <p>
 * Discovery: every concrete public class with a public no-arg constructor implementing {@link Program}
 * under {@code io.jshmem.conformance} in this module's classes (directory or jar) (so programs of any subpackage
 * are picked up without being listed). Launches: per PE count and per {@link Program#variants()
 * environment}, the shared-job programs go in chunks of {@link #CHUNK} into one job (one JVM per PE,
 * a barrier between programs); an {@link Program#ownJob()} program gets its own job. Every job has a
 * deadline (shmemrun {@code --timeout}, {@link #deadlineS}).
 * <p>
 * Results: one JUnit test per (program, PE count, variant): it passes when every PE printed
 * {@code VERDICT PASS}, is a JUnit skip when every PE printed {@code VERDICT SKIP}, and fails otherwise
 * (a FAIL verdict, a missing PE verdict, mixed verdicts); one more test per job checks the job's exit
 * status agrees with its verdicts (1 if any failed or is missing, 77 if every program skipped, else 0). After the run the coverage table of {@code conformance/README.md}
 * is regenerated from {@link Program#routines()}, {@link Routines} and the results (only when the
 * whole matrix ran, i.e. no filter was given).
 * <p>
 * Filters (system properties): {@code conformance.programs} a regex on program names,
 * {@code conformance.pes} a comma-separated list of PE counts.
 */
class SuiteIT
{
    /** PE counts every program runs at. */
    static final List<Integer> PES = List.of(1, 2, 3, 4, 8);
    /**
     * PE counts of the forced-algorithm variants (an odd count and a power of two, as SOS's CI picks a
     * few): every algorithm at every count would take the suite far past 15 minutes on 2 cores.
     */
    static final List<Integer> VARIANT_PES = List.of(3, 4);
    /** PE counts at which every program also runs with every pair carried by the proxy transport. */
    static final List<Integer> PROXY_PES = List.of(2);
    static final Map<String, String> PROXY_ENV = Map.of("SHMEM_TRANSPORT", "proxy");
    /** PE counts at which every program also runs on two test hosts (network namespaces), half the PEs on each. */
    static final List<Integer> HOSTS_PES = List.of(4);
    /** The two-host variant again with the UCX transport between the hosts (p2p inside each). */
    static final Map<String, String> HOSTS_UCX_ENV = Map.of("JSHMEM_SUITE_HOSTS", "2", "SHMEM_TRANSPORT", "p2p,ucx");
    /** The two-host variant again with the hybrid transport between the hosts (proxy and UCX, chosen per operation). */
    static final Map<String, String> HOSTS_HYBRID_ENV = Map.of("JSHMEM_SUITE_HOSTS", "2", "SHMEM_TRANSPORT", "p2p,hybrid");
    /** The marker of the two-host variant (not passed to the PEs). */
    static final String HOSTS_KEY = "JSHMEM_SUITE_HOSTS";
    static final String HOSTS_PREFIX = "jsc";
    private static boolean hostsUp;

    /** The two test hosts of the two-host variant (bin/test-hosts), up on first demand, down after the suite. */
    static final TestHosts HOSTS = TestHosts.ownOr(HOSTS_PREFIX, "10.83.0");

    static synchronized void hostsUp()
    {
        if (hostsUp)
        {
            return;
        }
        try
        {
            HOSTS.up(2);
            hostsUp = true;
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** Programs per shared job. */
    static final int CHUNK = 40;

    /** program name → "pes[/variant]" → PASS/FAIL/SKIP. */
    static final Map<String, Map<String, String>> RESULTS = new ConcurrentSkipListMap<>();
    static final Map<String, Program> PROGRAMS = new ConcurrentSkipListMap<>();
    static volatile boolean filtered;

    /** @return the deadline of a job of {@code programs} programs at {@code pes} PEs, in seconds. */
    static int deadlineS(final int programs, final int pes)
    {
        return 60 + programs * (pes > 4 ? 8 : 4);
    }

    /** @return every Program class in this module's classes. */
    static List<Class<? extends Program>> discover()
    {
        final Path root;
        try
        {
            root = Path.of(Program.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (final URISyntaxException e)
        {
            throw new IllegalStateException(e);
        }
        final List<String> names = new ArrayList<>();
        try
        {
            if (Files.isDirectory(root))
            {
                try (Stream<Path> files = Files.walk(root.resolve("io/jshmem/conformance")))
                {
                    files.map(f -> root.relativize(f).toString().replace('\\', '/')).forEach(names::add);
                }
            }
            else
            {
                try (JarFile jar = new JarFile(root.toFile()))
                {
                    jar.stream().map(JarEntry::getName).filter(n -> n.startsWith("io/jshmem/conformance/")).forEach(names::add);
                }
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        final List<Class<? extends Program>> found = new ArrayList<>();
        for (final String rel : names.stream().filter(n -> n.endsWith(".class")).sorted().toList())
        {
            final String cn = rel.substring(0, rel.length() - ".class".length()).replace('/', '.');
            final Class<?> c;
            try
            {
                c = Class.forName(cn, false, SuiteIT.class.getClassLoader());
            }
            catch (final ClassNotFoundException e)
            {
                throw new IllegalStateException(e);
            }
            if (Program.class.isAssignableFrom(c) && !c.isInterface() && !Modifier.isAbstract(c.getModifiers()) &&
                Modifier.isPublic(c.getModifiers()) && !c.isAnonymousClass() && hasPublicNoArg(c))
            {
                found.add(c.asSubclass(Program.class));
            }
        }
        return found;
    }

    private static boolean hasPublicNoArg(final Class<?> c)
    {
        try
        {
            return Modifier.isPublic(c.getConstructor().getModifiers());
        }
        catch (final NoSuchMethodException e)
        {
            return false;
        }
    }

    /** One job: programs run together at one PE count under one environment. */
    record Job(int pes, Map<String, String> env, List<Program> programs, int chunk)
    {
        String title()
        {
            return "np " + pes + (env.isEmpty() ? "" : " " + envText(env)) + (programs.size() == 1 && programs.get(0).ownJob()
                ? " own job " + programs.get(0).name() : " chunk " + chunk + " (" + programs.size() + " programs)");
        }
    }

    static String envText(final Map<String, String> env)
    {
        final StringBuilder sb = new StringBuilder();
        new TreeMap<>(env).forEach((k, v) -> sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }

    static List<Job> jobs()
    {
        final String only = System.getProperty("conformance.programs", "");
        final String pesProp = System.getProperty("conformance.pes", "");
        filtered = !only.isBlank() || !pesProp.isBlank();
        final Pattern filter = only.isBlank() ? null : Pattern.compile(only);
        final List<Integer> pesList = pesProp.isBlank() ? PES : Stream.of(pesProp.split(",")).map(String::strip).map(Integer::valueOf).toList();
        final List<Program> programs = new ArrayList<>();
        for (final Class<? extends Program> c : discover())
        {
            final Program p = Suite.instantiate(c.getName());
            if (PROGRAMS.put(p.name(), p) != null)
            {
                throw new IllegalStateException("two programs named " + p.name());
            }
            if (filter == null || filter.matcher(p.name()).find())
            {
                programs.add(p);
            }
        }
        final List<Job> jobs = new ArrayList<>();
        for (final int pes : pesList)
        {
            final Map<String, List<Program>> byEnv = new TreeMap<>();
            final Map<String, Map<String, String>> envs = new TreeMap<>();
            for (final Program p : programs)
            {
                final List<Map<String, String>> variants = new ArrayList<>();
                for (final Map<String, String> env : p.variants())
                {
                    if (env.isEmpty() || VARIANT_PES.contains(pes) || !pesProp.isBlank())
                    {
                        variants.add(env);
                    }
                }
                if (PROXY_PES.contains(pes))
                {
                    variants.add(PROXY_ENV);
                }
                if (HOSTS_PES.contains(pes))
                {
                    variants.add(Map.of(HOSTS_KEY, "2"));
                    variants.add(HOSTS_UCX_ENV);
                    variants.add(HOSTS_HYBRID_ENV);
                }
                for (final Map<String, String> env : variants)
                {
                    if (p.ownJob())
                    {
                        jobs.add(new Job(pes, env, List.of(p), 0));
                    }
                    else
                    {
                        byEnv.computeIfAbsent(envText(env), k -> new ArrayList<>()).add(p);
                        envs.put(envText(env), env);
                    }
                }
            }
            byEnv.forEach((key, list) ->
            {
                for (int i = 0, chunk = 0; i < list.size(); i += CHUNK, chunk++)
                {
                    jobs.add(new Job(pes, envs.get(key), List.copyOf(list.subList(i, Math.min(list.size(), i + CHUNK))), chunk));
                }
            });
        }
        return jobs;
    }

    /** The result of a job, launched on first demand. */
    static final class Lazy
    {
        private final Job job;
        private Launch.Result result;

        Lazy(final Job job)
        {
            this.job = job;
        }

        synchronized Launch.Result get()
        {
            if (result == null)
            {
                final List<String> extra = new ArrayList<>();
                new TreeMap<>(job.env()).forEach((k, v) ->
                {
                    if (k.equals(HOSTS_KEY))
                    {
                        hostsUp();
                        final int half = job.pes() / 2;
                        extra.addAll(List.of("--hosts", HOSTS.host(1) + ":" + (job.pes() - half) + "," + HOSTS.host(2) + ":" + half,
                            "--agent", HOSTS.agent()));
                        return;
                    }
                    extra.add("-x");
                    extra.add(k + "=" + v);
                });
                final String[] args = job.programs().stream().map(p -> p.getClass().getName()).toArray(String[]::new);
                result = Launch.run(job.pes(), deadlineS(job.programs().size(), job.pes()), extra, Suite.class.getName(), args);
            }
            return result;
        }
    }

    @TestFactory
    Stream<DynamicNode> suite()
    {
        final List<DynamicNode> nodes = new ArrayList<>();
        for (final Job job : jobs())
        {
            final Lazy lazy = new Lazy(job);
            final List<DynamicNode> tests = new ArrayList<>();
            for (final Program p : job.programs())
            {
                final String key = job.pes() + (job.env().isEmpty() ? "" : " " + envText(job.env()));
                tests.add(DynamicTest.dynamicTest(p.name() + " at " + key + " PEs", () -> checkProgram(job, p, lazy.get(), key)));
            }
            tests.add(DynamicTest.dynamicTest("job exit status", () -> checkJob(job, lazy.get())));
            nodes.add(DynamicContainer.dynamicContainer(job.title(), tests));
        }
        return nodes.stream();
    }

    private static void record(final Program p, final String key, final String verdict)
    {
        RESULTS.computeIfAbsent(p.name(), k -> new ConcurrentHashMap<>()).put(key, verdict);
    }

    private static void checkProgram(final Job job, final Program p, final Launch.Result r, final String key)
    {
        if (p.ownJob() && p.endsJob())
        {
            final boolean noFail = !r.all().contains("FAIL [");
            final boolean ok = r.status() == p.expectedJobStatus() && noFail;
            record(p, key, ok ? "PASS" : "FAIL");
            assertEquals(p.expectedJobStatus(), r.status(), () -> p.name() + ": job status" + r.report());
            assertTrue(noFail, () -> p.name() + ": a PE printed a failure" + r.report());
            return;
        }
        final String[] verdicts = new String[job.pes()];
        final StringBuilder lines = new StringBuilder();
        for (final String line : r.all().split("\n"))
        {
            final Matcher m = Suite.verdict(line);
            if (m != null && m.group(4).equals(p.name()))
            {
                final int pe = Integer.parseInt(m.group(2));
                if (Integer.parseInt(m.group(3)) != job.pes() || pe < 0 || pe >= job.pes() || verdicts[pe] != null)
                {
                    record(p, key, "FAIL");
                    fail(p.name() + ": unexpected verdict line " + line + r.report());
                }
                verdicts[pe] = m.group(1);
            }
            if (line.contains(p.name()))
            {
                lines.append(line).append('\n');
            }
        }
        int pass = 0;
        int skip = 0;
        final StringBuilder problems = new StringBuilder();
        for (int pe = 0; pe < job.pes(); pe++)
        {
            if (verdicts[pe] == null)
            {
                problems.append("PE ").append(pe).append(" printed no verdict; ");
            }
            else if (verdicts[pe].equals("PASS"))
            {
                pass++;
            }
            else if (verdicts[pe].equals("SKIP"))
            {
                skip++;
            }
            else
            {
                problems.append("PE ").append(pe).append(" FAIL; ");
            }
        }
        if (skip == job.pes())
        {
            record(p, key, "SKIP");
            Assumptions.abort(p.name() + " needs at least " + p.minPes() + " PEs, the job has " + job.pes());
        }
        if (pass == job.pes())
        {
            record(p, key, "PASS");
            return;
        }
        record(p, key, "FAIL");
        if (skip > 0 && problems.isEmpty())
        {
            problems.append("some PEs skipped, others passed; ");
        }
        fail(p.name() + " at " + key + " PEs: " + problems + "job exit " + r.status() + "\n---- its lines\n" + lines + r.report());
    }

    private static void checkJob(final Job job, final Launch.Result r)
    {
        if (job.programs().size() == 1 && job.programs().get(0).ownJob() && job.programs().get(0).endsJob())
        {
            return;
        }
        boolean allGood = true;
        boolean allSkipped = true;
        int verdicts = 0;
        for (final String line : r.all().split("\n"))
        {
            final Matcher m = Suite.verdict(line);
            if (m != null)
            {
                verdicts++;
                allGood &= !m.group(1).equals("FAIL");
                allSkipped &= m.group(1).equals("SKIP");
            }
        }
        allGood &= verdicts == job.pes() * job.programs().size();
        final int expected = !allGood ? Spmd.FAIL : allSkipped ? Spmd.SKIP : Spmd.PASS;
        final int seen = verdicts;
        assertEquals(expected, r.status(), () -> "job status disagrees with its " + seen + " verdicts" + r.report());
    }

    @AfterAll
    static void coverage() throws IOException
    {
        if (hostsUp)
        {
            hostsUp = false;
            try
            {
                HOSTS.down(); // and asserts no namespace, mount or process of the prefix is left
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        if (filtered || RESULTS.isEmpty())
        {
            return;
        }
        final Path readme = Path.of("README.md").toAbsolutePath();
        if (Files.isRegularFile(readme))
        {
            Files.writeString(readme, Coverage.splice(Files.readString(readme), Coverage.table(PROGRAMS.values(), RESULTS, PES)));
        }
    }
}
