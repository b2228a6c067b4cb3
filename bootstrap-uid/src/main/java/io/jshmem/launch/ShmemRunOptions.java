package io.jshmem.launch;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
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

        Starts N PE JVMs on this machine, each with the environment jshmem's bootstrap reads
        (JSHMEM_RANK, JSHMEM_SIZE, JSHMEM_LOCAL_RANK, JSHMEM_LOCAL_SIZE, JSHMEM_JOB_ID,
        SHMEM_BOOTSTRAP_UID, SHMEM_BOOTSTRAP=shmemrun), hosts the bootstrap root, relays every PE's
        output, and exits with the job's status.

        Options:
          -np N, -n N            number of PEs (required, >= 1)
          -cp, --classpath PATH  class path of the PEs (default: this launcher's, i.e. jshmem's own)
          -J ARG                 one JVM argument for every PE (repeatable), e.g. -J -Xmx512m
          --jvm-args "ARGS"      JVM arguments for every PE, split on white space
          -x NAME=VALUE          set an environment variable in every PE (repeatable);
                                 -x NAME passes this launcher's own value of NAME
          --tag-output           prefix each output line with its PE: "[pe 2] ..."
          --timeout SECONDS      end a job that runs longer; shmemrun then exits with 124
          --grace SECONDS        after asking PEs to stop (SIGTERM), wait this long before
                                 killing them (SIGKILL); default 3
          -h, --help             this text

        The program is a main class, a jar (run with java -jar) or the short name of a bundled
        example (hello, ring), listed in META-INF/jshmem/examples.properties on the class path.

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
    double timeoutSeconds;
    double graceSeconds = 3;
    boolean help;
    String program;
    final List<String> programArgs = new ArrayList<>();

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
                case "--timeout" -> o.timeoutSeconds = seconds(a, value(args, ++i, a));
                case "--grace" -> o.graceSeconds = seconds(a, value(args, ++i, a));
                default -> throw new UsageException("unknown option " + a);
            }
            i++;
        }
        if (o.help)
        {
            return o;
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
