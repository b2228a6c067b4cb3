package io.jshmem.launch;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code shmemrun --aot-cache FILE}: a JDK AOT cache (classes loaded and linked, method profiles) for the PEs' JVMs.
 * Where FILE and a matching stamp ({@code FILE.stamp}) exist, every PE starts from it ({@code -XX:AOTCache}); else PE 0
 * trains it ({@code -XX:AOTCacheOutput}: its JVM writes the cache when it exits) and the stamp is written once the job
 * ended well. The stamp is the JVM and each class path entry's path, size and modification time: the JDK does not
 * notice a rebuilt jar and would hand the PEs the classes of the build the cache was trained on, so a cache whose stamp
 * does not match is trained again. The JDK refuses a class path with a non-empty directory on it: checked first.
 */
final class AotCache
{
    private final String given;
    private final Path file;
    private final Path stampFile;
    private final boolean otherHosts;
    private final PrintStream err;
    /** What this job's PEs run on ({@link #stamp}). */
    private String stamp;
    /** FILE is missing or of another build: PE 0 trains it. */
    private boolean trains;

    /**
     * @param given      the --aot-cache value.
     * @param otherHosts the PEs run on other hosts (FILE is passed as given, and must be at that path there too).
     * @param err        the launcher's messages.
     */
    AotCache(final String given, final boolean otherHosts, final PrintStream err)
    {
        this.given = given;
        this.file = Path.of(given);
        this.stampFile = Path.of(given + ".stamp");
        this.otherHosts = otherHosts;
        this.err = err;
    }

    /** @return whether PE 0 trains the cache in this job. */
    boolean trains()
    {
        return trains;
    }

    /** @return the JVM arguments of the training PE. */
    List<String> trainingArgs()
    {
        // -Xlog:aot=off: not a warning line per class it leaves out (JFR event classes, classes never loaded)
        return List.of("-XX:AOTCacheOutput=" + path(), "-Xlog:aot=off");
    }

    /** FILE as the PEs' JVMs get it: absolute on this machine, as given for other hosts. */
    private String path()
    {
        return otherHosts ? given : file.toAbsolutePath().toString();
    }

    /**
     * Checks the class path, then either adds {@code -XX:AOTCache} to every PE's command or decides that PE 0 trains.
     *
     * @param cmd       the PEs' command (the JVM first); the cache argument goes right after the JVM.
     * @param classpath the PEs' class path.
     * @param jar       the jar of {@code java -jar}, or null.
     * @param java      the JVM the PEs run.
     */
    void prepare(final List<String> cmd, final String classpath, final String jar, final String java) throws IOException
    {
        final String[] entries = jar != null ? new String[] {jar} : classpath.split(File.pathSeparator);
        for (final String entry : entries)
        {
            final Path p = Path.of(entry.isEmpty() ? "." : entry);
            if (jar == null && nonEmptyDirectory(p))
            {
                throw new IOException("--aot-cache " + given + ": the PEs' class path has the directory " + p
                    + "; a JDK AOT cache takes jars only (package the classes, e.g. mvn package, and give the jar)");
            }
        }
        stamp = stamp(java, entries);
        if (Files.isRegularFile(file))
        {
            final String trained = Files.isRegularFile(stampFile) ? Files.readString(stampFile) : null;
            if (stamp.equals(trained))
            {
                cmd.add(1, "-XX:AOTCache=" + path());
                return;
            }
            err.println("shmemrun: the AOT cache " + given + " was trained on " + (trained == null ? "an unknown build (no "
                + stampFile.getFileName() + ")" : "another build: " + firstDifference(trained, stamp)) + "; training it again");
            Files.delete(file);
            Files.deleteIfExists(stampFile);
        }
        else if (Files.exists(file))
        {
            throw new IOException("--aot-cache " + given + " is not a regular file");
        }
        final Path dir = file.toAbsolutePath().getParent();
        if (!otherHosts && (dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir)))
        {
            throw new IOException("--aot-cache " + given + ": " + dir + " is not a writable directory");
        }
        trains = true;
        err.println("shmemrun: training the AOT cache " + given + " on PE 0 (written when PE 0 exits; the next run with "
            + "--aot-cache starts every PE from it)");
    }

    /** After a training job: stamps the cache PE 0 wrote if the job ended well, else leaves nothing to be used. */
    void jobEnded(final int status) throws IOException
    {
        if (!trains)
        {
            return;
        }
        if (status == 0 && Files.isRegularFile(file))
        {
            Files.writeString(stampFile, stamp);
            err.println("shmemrun: trained the AOT cache " + given + " (" + (Files.size(file) >> 20) + " MiB)");
        }
        else
        {
            err.println("shmemrun: no AOT cache " + given + " from this job (" + (status != 0 ? "it failed" : "PE 0 wrote none")
                + "); the next run with --aot-cache trains again");
            Files.deleteIfExists(file);
        }
    }

    private static boolean nonEmptyDirectory(final Path p) throws IOException
    {
        if (!Files.isDirectory(p))
        {
            return false;
        }
        try (var list = Files.list(p))
        {
            return list.findAny().isPresent();
        }
    }

    private static String stamp(final String java, final String[] entries) throws IOException
    {
        final StringBuilder b = new StringBuilder("java ").append(java).append('\n');
        for (final String entry : entries)
        {
            final Path p = Path.of(entry.isEmpty() ? "." : entry).toAbsolutePath();
            b.append(p);
            if (Files.isRegularFile(p))
            {
                b.append(' ').append(Files.size(p)).append(' ').append(Files.getLastModifiedTime(p).toMillis());
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static String firstDifference(final String trained, final String now)
    {
        final List<String> a = trained.lines().toList();
        final List<String> b = now.lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++)
        {
            final String x = i < a.size() ? a.get(i) : "(nothing)";
            final String y = i < b.size() ? b.get(i) : "(nothing)";
            if (!x.equals(y))
            {
                return "'" + x + "', now '" + y + "'";
            }
        }
        return "the same";
    }
}
