package io.jshmem.launch;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** The parsed command line of shmemrun. */
final class ShmemRunOptions
{
    /** Resource listing short names of bundled programs: {@code hello=io.jshmem.examples.Hello}. */
    static final String SHORT_NAMES = "META-INF/jshmem/examples.properties";

    static final String HELP = """
        Usage: shmemrun -np N [options] [--] MAIN_CLASS|APP.jar|SHORT_NAME [args...]
               shmemrun [-np N] --hosts h1:2,h2:2 [--agent 'ssh {host}'] [options] [--] PROGRAM [args...]

        Starts N PE JVMs on this machine (or on the hosts of --hosts/--hostfile, through the launch
        agent), each with the environment jshmem's bootstrap reads (JSHMEM_RANK, JSHMEM_SIZE,
        JSHMEM_LOCAL_RANK, JSHMEM_LOCAL_SIZE, JSHMEM_JOB_ID, SHMEM_BOOTSTRAP_UID,
        SHMEM_BOOTSTRAP=shmemrun), hosts the bootstrap root, relays every PE's output, and exits
        with the job's status.

        Options:
          -np N, -n N            number of PEs (required without hosts, >= 1; with hosts it
                                 defaults to the total of their slots)
          --hosts, --host, -H LIST
                                 run on these hosts: h1:2,h2:2 (host:slots; a host alone is one
                                 slot; a host listed again adds slots). Ranks are placed block-wise
                                 in host order (h1 gets ranks 0,1); local rank/size are per host
          --hostfile FILE        the hosts, one a line, Open MPI style: "h1 slots=2" or "h1:2"
                                 ("# comments", max_slots=M accepted and ignored)
          (inside a SLURM allocation with neither: the allocation's nodes, CPUs as slots, and the
                                 agent 'srun --overlap -N 1 -n 1 -w {host}')
          --agent 'CMD {host}'   how to run a command on a host (default 'ssh {host}'; {host} is
                                 replaced, or the host is appended if absent). For ssh and rsh the
                                 command is quoted for the remote shell; other agents get it as
                                 arguments (e.g. 'bin/test-hosts exec {host}', 'srun -w {host} -N1 -n1')
          -cp, --classpath PATH  the application's class path, put in front of jshmem's own (the
                                 PEs always have jshmem's class path)
          -J ARG                 one JVM argument for every PE (repeatable), e.g. -J -Xmx512m
          --jvm-args "ARGS"      JVM arguments for every PE, split on white space
          -x NAME=VALUE          set an environment variable in every PE (repeatable);
                                 -x NAME passes this launcher's own value of NAME
          --tag-output           prefix each output line with its PE: "[pe 2] ..."
          --jfr DIR              record each PE with JDK Flight Recorder into DIR/pe<RANK>.jfr
                                 (written when the PE exits; DIR is made here, and must exist on
                                 other hosts); see docs/library.md for jshmem's events
          --aot-cache auto|off|FILE
                                 a JDK AOT cache for the PEs' JVMs (class loading and linking, method
                                 profiles): if FILE is missing this run trains it (PE 0 records
                                 and writes it when it exits), else every PE starts from it.
                                 The class path must be jars only; FILE must be visible at the
                                 same path on every host. auto (the default; SHMEMRUN_AOT_CACHE
                                 sets it too): the same for jobs whose class path is jars only, a
                                 cache per program and build in ~/.cache/jshmem/aot
                                 ($XDG_CACHE_HOME), trained by the first job of 16 PEs or more or
                                 the second smaller one, silent where it cannot. See docs/library.md
          --timeout SECONDS      end a job that runs longer; shmemrun then exits with 124
          --grace SECONDS        after asking PEs to stop (SIGTERM), wait this long before
                                 killing them (SIGKILL); default 3
          -h, --help             this text

        With hosts, the bootstrap root runs on the first host (through the agent), listening on
        that host's interface (SHMEM_BOOTSTRAP_UID_SOCK_IFNAME if given with -x, else the first
        non-loopback one; loopback when every PE is on one host). Each PE's JSHMEM_* and SHMEM_*
        variables (the launcher's own SHMEM_*/SMA_* and -x ones included) are on its remote
        command line; the unique id goes through the agent's stdin. See docs/multihost.md.

        The program is a main class, a jar (run with java -jar) or the short name of a bundled
        example (hello, ring, reinit), listed in META-INF/jshmem/examples.properties on the class path.

        Exit status: 0 if every PE exited 0; else the status of a global exit if one was called,
        else the first failing PE's status (128+signal if it was killed); 124 on --timeout;
        2 for a usage error. When one PE fails, the others are ended. No PE outlives shmemrun:
        SIGINT/SIGTERM end every PE, and PEs whose launcher dies exit on their own.
        """;

    int np = -1;
    String classpath;
    final List<String> jvmArgs = new ArrayList<>();
    final Map<String, String> env = new LinkedHashMap<>();
    boolean tagOutput;
    /** --jfr: the directory of the per-PE recordings, or null. */
    String jfrDir;
    /**
     * --aot-cache (else SHMEMRUN_AOT_CACHE, else auto): {@code auto}, {@code off} or the JDK AOT cache file the PEs train
     * (missing) or use (present).
     */
    String aotCache;
    double timeoutSeconds;
    double graceSeconds = 3;
    boolean help;
    /** The hosts (merged, in order of first mention); empty for a job on this machine. */
    final List<Host> hosts = new ArrayList<>();
    /** Where the hosts came from, for messages: {@code --hosts h1:2} or {@code --hostfile F}. */
    String hostsSource;
    /** The launch agent template; {@code {host}} is replaced by the host. */
    String agent = DEFAULT_AGENT;
    boolean agentGiven;
    String program;
    final List<String> programArgs = new ArrayList<>();

    /** The default launch agent, as mpirun's rsh agent. */
    static final String DEFAULT_AGENT = "ssh {host}";

    /**
     * One host of the job and its slots.
     *
     * @param name  the host name as the agent takes it ({@code user@host} allowed).
     * @param slots the PEs it may run.
     */
    record Host(String name, int slots)
    {
    }

    /**
     * Where one PE runs.
     *
     * @param rank      the PE's rank.
     * @param host      its host.
     * @param localRank its rank among the PEs of its host.
     * @param localSize the PEs on its host.
     */
    record Placement(int rank, String host, int localRank, int localSize)
    {
    }

    /** A usage error, reported with a pointer to --help and exit status 2. */
    static final class UsageException extends Exception
    {
        private static final long serialVersionUID = 1L;

        UsageException(final String message)
        {
            super(message);
        }
    }

    static ShmemRunOptions parse(final String[] args, final Map<String, String> launcherEnv) throws UsageException
    {
        final ShmemRunOptions o = new ShmemRunOptions();
        int i = 0;
        while (i < args.length)
        {
            final String a = args[i];
            if ("--".equals(a))
            {
                i++;
                break;
            }
            if (!a.startsWith("-") || "-".equals(a))
            {
                break;
            }
            switch (a)
            {
                case "-h", "--help" -> o.help = true;
                case "-np", "-n", "--np" -> o.np = intArg(a, value(args, ++i, a));
                case "-cp", "-classpath", "--classpath", "--class-path" -> o.classpath = value(args, ++i, a);
                case "-J" -> o.jvmArgs.add(value(args, ++i, a));
                case "--jvm-args" ->
                {
                    final String v = value(args, ++i, a).strip();
                    if (!v.isEmpty())
                    {
                        Collections.addAll(o.jvmArgs, v.split("\\s+"));
                    }
                }
                case "-x" ->
                {
                    final String v = value(args, ++i, a);
                    final int eq = v.indexOf('=');
                    final String name = eq < 0 ? v : v.substring(0, eq);
                    if (!name.matches("[A-Za-z_][A-Za-z0-9_]*"))
                    {
                        throw new UsageException("-x " + v + ": '" + name + "' is not a variable name");
                    }
                    final String value = eq < 0 ? launcherEnv.get(name) : v.substring(eq + 1);
                    if (value == null)
                    {
                        throw new UsageException("-x " + name + ": the launcher has no variable " + name + " to pass");
                    }
                    o.env.put(name, value);
                }
                case "--tag-output" -> o.tagOutput = true;
                case "--jfr" -> o.jfrDir = value(args, ++i, a);
                case "--aot-cache" -> o.aotCache = aotCache(a, value(args, ++i, a));
                case "--timeout" -> o.timeoutSeconds = seconds(a, value(args, ++i, a));
                case "--grace" -> o.graceSeconds = seconds(a, value(args, ++i, a));
                case "--hosts", "--host", "-H" ->
                {
                    final String v = value(args, ++i, a);
                    o.checkNoHostsYet(a + " " + v);
                    o.setHosts(a + " " + v, parseHosts(v, a + " " + v));
                }
                case "--hostfile", "--machinefile" ->
                {
                    final String v = value(args, ++i, a);
                    o.checkNoHostsYet(a + " " + v);
                    o.setHosts(a + " " + v, parseHostfile(Path.of(v), a));
                }
                case "--agent", "--launch-agent" ->
                {
                    final String v = value(args, ++i, a);
                    if (v.isBlank())
                    {
                        throw new UsageException(a + " is empty: give a command such as 'ssh {host}'");
                    }
                    o.agent = v.strip();
                    o.agentGiven = true;
                }
                default -> throw new UsageException("unknown option " + a);
            }
            i++;
        }
        if (o.help)
        {
            return o;
        }
        if (o.aotCache == null)
        {
            final String v = launcherEnv.get("SHMEMRUN_AOT_CACHE");
            o.aotCache = v == null ? AotCache.AUTO : aotCache("SHMEMRUN_AOT_CACHE", v);
        }
        if (o.hosts.isEmpty())
        {
            o.slurmAllocation(launcherEnv);
        }
        if (o.agentGiven && o.hosts.isEmpty())
        {
            throw new UsageException("--agent " + o.agent + " needs --hosts or --hostfile (without them every PE runs here)");
        }
        if (!o.hosts.isEmpty())
        {
            final int slots = o.hosts.stream().mapToInt(Host::slots).sum();
            if (o.np == -1)
            {
                o.np = slots;
            }
            else if (o.np > slots)
            {
                throw new UsageException("-np " + o.np + " is more than the " + slots + " slot(s) of " + o.hostsSource);
            }
        }
        if (o.np < 1)
        {
            throw new UsageException(o.np == -1 ? "-np N is required" : "-np " + o.np + " must be at least 1");
        }
        if (i >= args.length)
        {
            throw new UsageException("no program: give a main class, a jar or a short name such as hello");
        }
        o.program = args[i];
        for (i++; i < args.length; i++)
        {
            o.programArgs.add(args[i]);
        }
        return o;
    }

    /** @return the value of --aot-cache or SHMEMRUN_AOT_CACHE ({@code what}): auto, off or a file. */
    private static String aotCache(final String what, final String v) throws UsageException
    {
        if (v.isBlank() || v.endsWith("/"))
        {
            throw new UsageException(what + " '" + v + "': give auto, off or a file, such as app.aot");
        }
        return v.strip();
    }

    /**
     * Inside a SLURM allocation ({@code salloc}, {@code sbatch}) with no hosts given: the allocation's
     * nodes ({@code SLURM_JOB_NODELIST}) with their CPUs as slots ({@code SLURM_JOB_CPUS_PER_NODE}, as
     * Open MPI's mpirun counts them; else one slot a node), and, unless {@code --agent} was given, the
     * agent {@code srun --overlap -N 1 -n 1 -w {host}} so that the PEs run inside the allocation.
     */
    private void slurmAllocation(final Map<String, String> env) throws UsageException
    {
        final String list = env.get("SLURM_JOB_NODELIST");
        if (list == null || list.isBlank() || env.get("SLURM_JOB_ID") == null)
        {
            return;
        }
        final String what = "SLURM_JOB_NODELIST=" + list;
        final List<String> nodes;
        final List<Integer> cpus;
        try
        {
            nodes = io.jshmem.bootstrap.Hostlist.expand(list, "SLURM_JOB_NODELIST");
            final String perNode = env.get("SLURM_JOB_CPUS_PER_NODE");
            cpus = perNode == null ? null : io.jshmem.bootstrap.Hostlist.counts(perNode, "SLURM_JOB_CPUS_PER_NODE");
        }
        catch (final io.jshmem.ConfigurationException ex)
        {
            throw new UsageException("the SLURM allocation: " + ex.getMessage());
        }
        if (cpus != null && cpus.size() != nodes.size())
        {
            throw new UsageException("the SLURM allocation: SLURM_JOB_CPUS_PER_NODE=" + env.get("SLURM_JOB_CPUS_PER_NODE") + " gives "
                + cpus.size() + " node(s), " + what + " " + nodes.size());
        }
        final List<Host> list2 = new ArrayList<>();
        for (int n = 0; n < nodes.size(); n++)
        {
            list2.add(new Host(nodes.get(n), cpus == null ? 1 : cpus.get(n)));
        }
        setHosts("the SLURM allocation (" + what + ")", list2);
        if (!agentGiven)
        {
            agent = SLURM_AGENT;
        }
    }

    /** The agent inside a SLURM allocation: one task on the named node, sharing the allocation's CPUs. */
    static final String SLURM_AGENT = "srun --overlap -N 1 -n 1 -w {host}";

    private void checkNoHostsYet(final String source) throws UsageException
    {
        if (hostsSource != null)
        {
            throw new UsageException(source + ": the hosts are already given by " + hostsSource + " (use one of --hosts, --hostfile)");
        }
    }

    private void setHosts(final String source, final List<Host> list)
    {
        hostsSource = source;
        hosts.addAll(list);
    }

    private static final java.util.regex.Pattern HOST_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_.@%+-]+");

    /**
     * Parses {@code h1:2,h2,h1:3}: host, or host:slots; a host named again adds its slots (at its
     * first position), as Open MPI's {@code --host}.
     *
     * @param spec the list.
     * @param what the option and value, for messages.
     * @return the hosts in order of first mention.
     */
    static List<Host> parseHosts(final String spec, final String what) throws UsageException
    {
        final Map<String, Integer> slots = new LinkedHashMap<>();
        for (final String item : spec.split(",", -1))
        {
            addHost(slots, item.strip(), what);
        }
        return toHosts(slots);
    }

    private static void addHost(final Map<String, Integer> slots, final String item, final String what) throws UsageException
    {
        final int colon = item.lastIndexOf(':');
        final String name = colon < 0 ? item : item.substring(0, colon);
        int n = 1;
        if (colon >= 0)
        {
            n = slotCount(item.substring(colon + 1), what + ": '" + item + "'");
        }
        checkHostName(name, what + ": '" + item + "'");
        slots.merge(name, n, Integer::sum);
    }

    private static void checkHostName(final String name, final String where) throws UsageException
    {
        if (name.isEmpty())
        {
            throw new UsageException(where + ": empty host name");
        }
        if (!HOST_NAME.matcher(name).matches())
        {
            throw new UsageException(where + ": '" + name + "' is not a host name (letters, digits and . _ - @ % + only)");
        }
    }

    private static int slotCount(final String text, final String where) throws UsageException
    {
        try
        {
            final int n = Integer.parseInt(text.strip());
            if (n < 1)
            {
                throw new NumberFormatException();
            }
            return n;
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException(where + ": slots '" + text + "' is not a positive integer");
        }
    }

    private static List<Host> toHosts(final Map<String, Integer> slots)
    {
        final List<Host> out = new ArrayList<>();
        slots.forEach((name, n) -> out.add(new Host(name, n)));
        return out;
    }

    /**
     * Parses an Open MPI-style host file: one host a line, {@code host slots=N} or {@code host:N} or
     * {@code host} (one slot); {@code #} starts a comment; {@code max_slots=M} is accepted and ignored.
     *
     * @param file   the file.
     * @param option the option that named it, for messages.
     * @return the hosts in order of first mention (a host on two lines adds its slots).
     */
    static List<Host> parseHostfile(final Path file, final String option) throws UsageException
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UsageException(option + " " + file + ": cannot read it (" + ex.getMessage() + ")");
        }
        final Map<String, Integer> slots = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String where = option + " " + file + " line " + (i + 1);
            String line = lines.get(i);
            final int hash = line.indexOf('#');
            if (hash >= 0)
            {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty())
            {
                continue;
            }
            final String[] fields = line.split("\\s+");
            Integer n = null;
            for (int f = 1; f < fields.length; f++)
            {
                final int eq = fields[f].indexOf('=');
                final String key = eq < 0 ? fields[f] : fields[f].substring(0, eq);
                final String value = eq < 0 ? "" : fields[f].substring(eq + 1);
                switch (key)
                {
                    case "slots" ->
                    {
                        if (n != null)
                        {
                            throw new UsageException(where + ": slots given twice");
                        }
                        n = slotCount(value, where);
                    }
                    case "max_slots", "max-slots" -> slotCount(value, where);
                    default -> throw new UsageException(where + ": unknown field '" + fields[f] + "' (expected slots=N)");
                }
            }
            if (n != null && fields[0].contains(":"))
            {
                throw new UsageException(where + ": '" + fields[0] + "' and slots=" + n + ": give the slots once");
            }
            if (n == null)
            {
                addHost(slots, fields[0], where);
            }
            else
            {
                checkHostName(fields[0], where);
                slots.merge(fields[0], n, Integer::sum);
            }
        }
        if (slots.isEmpty())
        {
            throw new UsageException(option + " " + file + ": no hosts in it");
        }
        return toHosts(slots);
    }

    /**
     * Places ranks block-wise in host order: the first host's slots take ranks 0.., then the next.
     *
     * @param hosts the hosts with their slots.
     * @param np    the number of PEs (at most the total of the slots).
     * @return one placement per rank, in rank order.
     */
    static List<Placement> place(final List<Host> hosts, final int np)
    {
        final List<Placement> out = new ArrayList<>(np);
        int rank = 0;
        for (final Host h : hosts)
        {
            final int here = Math.min(h.slots(), np - rank);
            for (int local = 0; local < here; local++)
            {
                out.add(new Placement(rank++, h.name(), local, here));
            }
        }
        if (rank != np)
        {
            throw new IllegalArgumentException("np " + np + " exceeds the slots of " + hosts);
        }
        return out;
    }

    /**
     * @param agent the agent template.
     * @param host  the host.
     * @return the agent's words with {@code {host}} replaced, or the host appended if it has none.
     */
    static List<String> agentWords(final String agent, final String host)
    {
        final List<String> words = new ArrayList<>();
        boolean placed = false;
        for (final String w : agent.strip().split("\\s+"))
        {
            placed |= w.contains("{host}");
            words.add(w.replace("{host}", host));
        }
        if (!placed)
        {
            words.add(host);
        }
        return words;
    }

    /** @return true if the agent runs its command through a remote shell (ssh, rsh): words must be quoted. */
    static boolean agentUsesShell(final List<String> agentWords)
    {
        final String program = Path.of(agentWords.get(0)).getFileName().toString();
        return program.equals("ssh") || program.equals("rsh") || program.equals("autossh");
    }

    /** @return {@code word} quoted for a POSIX shell (as is if it needs no quoting). */
    static String shellQuote(final String word)
    {
        if (!word.isEmpty() && word.matches("[A-Za-z0-9_@%+=:,./-]+"))
        {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static String value(final String[] args, final int i, final String option) throws UsageException
    {
        if (i >= args.length)
        {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static int intArg(final String option, final String v) throws UsageException
    {
        try
        {
            return Integer.parseInt(v);
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException(option + " " + v + ": not an integer");
        }
    }

    private static double seconds(final String option, final String v) throws UsageException
    {
        try
        {
            final double d = Double.parseDouble(v);
            if (!(d > 0) || Double.isInfinite(d))
            {
                throw new NumberFormatException();
            }
            return d;
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException(option + " " + v + ": not a positive number of seconds");
        }
    }

    /**
     * @return false only if {@code className} is surely missing: every class path entry exists here
     *         (no wildcard) and none of them, nor the JDK, has the class file.
     */
    static boolean classMayExist(final String className, final String classpath)
    {
        final List<URL> urls = new ArrayList<>();
        for (final String entry : classpath.split(File.pathSeparator))
        {
            if (entry.isEmpty())
            {
                continue;
            }
            final File f = new File(entry);
            if (entry.endsWith("*") || !f.exists())
            {
                return true;
            }
            try
            {
                urls.add(f.toURI().toURL());
            }
            catch (final IOException ex)
            {
                return true;
            }
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader()))
        {
            return loader.getResource(className.replace('.', '/') + ".class") != null;
        }
        catch (final IOException ex)
        {
            return true;
        }
    }

    /**
     * @return the main class a short name stands for on {@code classpath}, or null if it is not one.
     */
    static String shortName(final String name, final String classpath)
    {
        if (name.contains(".") || name.contains("/"))
        {
            return null;
        }
        final List<URL> urls = new ArrayList<>();
        for (final String entry : classpath.split(File.pathSeparator))
        {
            if (!entry.isEmpty())
            {
                try
                {
                    urls.add(new File(entry).toURI().toURL());
                }
                catch (final IOException ex)
                {
                    // skip a malformed entry
                }
            }
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), null))
        {
            for (final URL u : Collections.list(loader.getResources(SHORT_NAMES)))
            {
                try (InputStream in = u.openStream())
                {
                    final Properties p = new Properties();
                    p.load(in);
                    final String cls = p.getProperty(name);
                    if (cls != null)
                    {
                        return cls.strip();
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            return null;
        }
        return null;
    }
}
