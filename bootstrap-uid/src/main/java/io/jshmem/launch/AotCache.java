package io.jshmem.launch;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code shmemrun --aot-cache auto|off|FILE}: a JDK AOT cache (classes loaded and linked, method profiles) for the PEs'
 * JVMs.
 * <p>
 * Where the cache and a matching stamp ({@code FILE.stamp}) exist, every PE starts from it ({@code -XX:AOTCache});
 * else PE 0 trains it ({@code -XX:AOTCacheOutput}: its JVM writes the cache when it exits, into a file of this job's
 * own that the launcher renames to FILE once the job ended well, so that concurrent jobs never see half a cache). The
 * stamp is the JVM and each class path entry's path, size and modification time: the JDK does not notice a rebuilt jar
 * and would hand the PEs the classes of the build the cache was trained on, so a cache whose stamp does not match is
 * trained again. The JDK refuses a class path with a non-empty directory on it.
 * <p>
 * {@code auto} (the default, {@link #auto}) does this for jobs whose class path is jars only, with one cache per JVM,
 * JVM options, class path and program under the user's cache directory ({@code $XDG_CACHE_HOME/jshmem/aot}, else
 * {@code ~/.cache/jshmem/aot}), the {@link #AUTO_KEEP} used last kept. A job of {@link #AUTO_MIN_PES} PEs or more
 * trains a missing cache at once; a smaller one only on the second run of the same build ({@link #SEEN}), so that a
 * program run once pays no training. It never fails a job: where a cache cannot be made or used it runs the PEs as
 * they are, silently.
 */
final class AotCache
{
    /** {@code --aot-cache auto}: a cache per program under the user's cache directory, for jobs this large. */
    static final String AUTO = "auto";
    /** {@code --aot-cache off}: no cache. */
    static final String OFF = "off";
    /**
     * The fewest PEs for which {@code auto} trains a missing cache in the first job of a build (docs/library.md measures
     * 16 to 256 PEs). Below, the training job's extra second at PE 0's exit (1.0-1.3 s at 2-8 PEs on the 2-core machine)
     * is paid back only by later runs (0.17 s each at 2 PEs, 0.44 at 4, 0.88 at 8), so a smaller job trains on the
     * second run of its build.
     */
    static final int AUTO_MIN_PES = 16;
    /** Beside an {@code auto} cache not yet trained: the stamp of the build whose first small job ran ({@link #AUTO_MIN_PES}). */
    static final String SEEN = ".seen";
    /** How many {@link #SEEN} markers {@code auto} keeps (the newest); a few hundred bytes each. */
    static final int AUTO_KEEP_SEEN = 32;
    /** How many caches {@code auto} keeps in its directory (the ones used last); 10 to 40 MiB each. */
    static final int AUTO_KEEP = 8;
    /** A training file older than this is left over from a launcher that died: {@code auto} deletes it. */
    private static final long STALE_TRAINING_MS = 3_600_000L;
    /** Beside an {@code auto} cache that PE 0 trained where this machine cannot see it: do not train again. */
    static final String ELSEWHERE = ".elsewhere";
    /** How the training file is named: {@code FILE.tmp-NONCE}. */
    private static final String TRAINING = ".tmp-";

    private final String given;
    private final Path file;
    private final Path stampFile;
    private final boolean otherHosts;
    private final boolean auto;
    private final PrintStream err;
    /** This job's own training file name suffix ({@code .tmp-NONCE}): PE 0's JVM writes there. */
    private final String training = TRAINING + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
    /** What this job's PEs run on ({@link #stamp}). */
    private String stamp;
    /** The cache is missing or of another build: PE 0 trains it. */
    private boolean trains;
    /** {@code auto} for a job of fewer than {@link #AUTO_MIN_PES} PEs: a missing cache is trained on the build's second run. */
    private final boolean secondRun;

    /**
     * @param given      the --aot-cache FILE.
     * @param otherHosts the PEs run on other hosts (FILE is passed as given, and must be at that path there too).
     * @param err        the launcher's messages.
     */
    AotCache(final String given, final boolean otherHosts, final PrintStream err)
    {
        this(given, otherHosts, false, false, err);
    }

    private AotCache(final String given, final boolean otherHosts, final boolean auto, final boolean secondRun, final PrintStream err)
    {
        this.secondRun = secondRun;
        this.given = given;
        this.file = Path.of(given);
        this.stampFile = Path.of(given + ".stamp");
        this.otherHosts = otherHosts;
        this.auto = auto;
        this.err = err;
    }

    /**
     * {@code --aot-cache auto}: the cache of this JVM, its options, class path and program, or null where auto makes
     * none (a directory on the class path, the JVM options already name an AOT or CDS archive, no writable cache
     * directory). A job of fewer than {@link #AUTO_MIN_PES} PEs trains a missing cache only on its build's second run.
     *
     * @param np          the job's PEs.
     * @param cmd         the PEs' command (the JVM first, then its options, then {@code -cp PATH MAIN} or
     *                    {@code -jar JAR}, then the program's arguments).
     * @param classpath   the PEs' class path.
     * @param jar         the jar of {@code java -jar}, or null.
     * @param peEnv       the PEs' environment as the launcher knows it (JAVA_TOOL_OPTIONS and the like count).
     * @param launcherEnv the launcher's environment (XDG_CACHE_HOME, HOME).
     * @param otherHosts  the PEs run on other hosts.
     * @param err         the launcher's messages.
     */
    static AotCache auto(final int np, final List<String> cmd, final String classpath, final String jar,
        final Map<String, String> peEnv, final Map<String, String> launcherEnv, final boolean otherHosts, final PrintStream err)
    {
        try
        {
            final String[] entries = entries(classpath, jar);
            if (directoryOn(entries, jar) != null)
            {
                return null;
            }
            final int programAt = programIndex(cmd);
            final List<String> key = new ArrayList<>();
            for (int i = 1; i < programAt; i++)
            {
                final String a = cmd.get(i);
                if (sharingOption(a))
                {
                    return null; // the user's own archive
                }
                if (!a.startsWith("-Xlog:")) // logging does not change what a cache holds
                {
                    key.add(a);
                }
            }
            for (final String name : List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"))
            {
                final String v = peEnv.get(name);
                if (v != null)
                {
                    if (List.of(v.strip().split("\\s+")).stream().anyMatch(AotCache::sharingOption))
                    {
                        return null;
                    }
                    key.add(name + "=" + v);
                }
            }
            // the program: MAIN after -cp PATH (the class path is in the stamp), or the jar
            final boolean isJar = "-jar".equals(cmd.get(programAt));
            final String program = isJar ? cmd.get(programAt + 1) : cmd.get(programAt + 2);
            key.add(program);
            final Path dir = cacheDirectory(launcherEnv);
            if (dir == null)
            {
                return null;
            }
            Files.createDirectories(dir);
            if (!Files.isWritable(dir))
            {
                return null;
            }
            final String stamp = stamp(cmd.get(0), entries);
            final String name = (isJar ? Path.of(program).getFileName().toString().replaceFirst("\\.jar$", "") : simpleName(program))
                .replaceAll("[^A-Za-z0-9._-]", "_") + "-" + sha256(stamp + String.join("\n", key)).substring(0, 16) + ".aot";
            return new AotCache(dir.resolve(name).toString(), otherHosts, true, np < AUTO_MIN_PES, err);
        }
        catch (final IOException | RuntimeException ex)
        {
            return null; // auto never fails a job: it runs as it would without a cache
        }
    }

    /** @return the directory of auto's caches: {@code $XDG_CACHE_HOME/jshmem/aot}, else {@code $HOME/.cache/jshmem/aot}. */
    static Path cacheDirectory(final Map<String, String> launcherEnv)
    {
        final String xdg = launcherEnv.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute())
        {
            return Path.of(xdg, "jshmem", "aot");
        }
        final String home = launcherEnv.getOrDefault("HOME", System.getProperty("user.home"));
        return home == null || home.isBlank() ? null : Path.of(home, ".cache", "jshmem", "aot");
    }

    /** @return the index in {@code cmd} of {@code -cp} or {@code -jar}, which end the JVM's options. */
    private static int programIndex(final List<String> cmd)
    {
        for (int i = 1; i < cmd.size(); i++)
        {
            if ("-cp".equals(cmd.get(i)) || "-jar".equals(cmd.get(i)))
            {
                return i;
            }
        }
        throw new IllegalArgumentException("no -cp or -jar in " + cmd);
    }

    private static boolean sharingOption(final String a)
    {
        return a.startsWith("-XX:AOT") || a.startsWith("-XX:SharedArchiveFile") || a.startsWith("-XX:ArchiveClassesAtExit")
            || a.startsWith("-Xshare:off") || a.startsWith("-Xshare:dump");
    }

    private static String simpleName(final String main)
    {
        return main.substring(main.lastIndexOf('.') + 1);
    }

    /** @return whether PE 0 trains the cache in this job. */
    boolean trains()
    {
        return trains;
    }

    /** @return the cache file. */
    Path file()
    {
        return file;
    }

    /** @return the JVM arguments of the training PE. */
    List<String> trainingArgs()
    {
        // -Xlog:aot=off: not a warning line per class it leaves out (JFR event classes, classes never loaded)
        return List.of("-XX:AOTCacheOutput=" + path() + training, "-Xlog:aot=off");
    }

    /**
     * @param line a line of the training PE's output.
     * @return whether it is one of the JDK's own lines about recording and writing this job's cache (they name its
     *         training file, which nothing else does).
     */
    boolean jdkTrainingLine(final String line)
    {
        return line.contains(training);
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
        final String[] entries = entries(classpath, jar);
        final Path directory = directoryOn(entries, jar);
        if (directory != null)
        {
            throw new IOException("--aot-cache " + given + ": the PEs' class path has the directory " + directory
                + "; a JDK AOT cache takes jars only (package the classes, e.g. mvn package, and give the jar)");
        }
        stamp = stamp(java, entries);
        if (auto && Files.isRegularFile(Path.of(given + ELSEWHERE)))
        {
            return; // trained before where this machine does not see it: the PEs run without a cache
        }
        if (Files.isRegularFile(file))
        {
            final String trained = Files.isRegularFile(stampFile) ? Files.readString(stampFile) : null;
            if (stamp.equals(trained))
            {
                cmd.add(1, "-XX:AOTCache=" + path());
                if (auto)
                {
                    // silent where a host lacks the file (no shared home) or its JDK refuses it: those PEs run without
                    cmd.add(2, "-Xlog:aot=off");
                    touch(file);
                }
                return;
            }
            if (!auto)
            {
                err.println("shmemrun: the AOT cache " + given + " was trained on " + (trained == null ? "an unknown build (no "
                    + stampFile.getFileName() + ")" : "another build: " + firstDifference(trained, stamp)) + "; training it again");
            }
            Files.deleteIfExists(file);
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
        if (secondRun)
        {
            final Path seen = Path.of(given + SEEN);
            if (!stamp.equals(Files.isRegularFile(seen) ? Files.readString(seen) : null))
            {
                replace(seen, stamp); // the first small job of this build runs as it is; the next one trains
                evict(dir, AUTO_KEEP, System.currentTimeMillis());
                return;
            }
        }
        trains = true;
        err.println(auto
            ? "shmemrun: training an AOT cache for this program on PE 0 (" + given + "; later jobs start every PE from it; "
                + "--aot-cache off: none)"
            : "shmemrun: training the AOT cache " + given + " on PE 0 (written when PE 0 exits; the next run with "
                + "--aot-cache starts every PE from it)");
    }

    /**
     * After a training job: if it ended well, stamps the cache PE 0 wrote and moves it to FILE; else leaves nothing to
     * be used.
     */
    void jobEnded(final int status) throws IOException
    {
        if (!trains)
        {
            return;
        }
        final Path written = Path.of(file.toAbsolutePath() + training);
        try
        {
            if (status == 0 && Files.isRegularFile(written))
            {
                // the stamp before the cache: whoever sees FILE sees its stamp
                replace(stampFile, stamp);
                Files.move(written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                err.println("shmemrun: trained the AOT cache " + given + " (" + (Files.size(file) >> 20) + " MiB)");
                if (auto)
                {
                    Files.deleteIfExists(Path.of(given + SEEN));
                    evict(file.toAbsolutePath().getParent(), AUTO_KEEP, System.currentTimeMillis());
                }
            }
            else if (auto && status == 0)
            {
                // PE 0's host does not share this directory: train no more for this program (it would, every job)
                replace(Path.of(given + ELSEWHERE), stamp);
                err.println("shmemrun: PE 0 wrote no AOT cache on this machine (" + given + "): its host may not share "
                    + file.getParent() + "; the PEs run without one (delete " + file.getFileName() + ELSEWHERE + " to train again)");
            }
            else
            {
                err.println("shmemrun: no AOT cache " + given + " from this job (" + (status != 0 ? "it failed" : "PE 0 wrote none")
                    + "); the next run" + (auto ? "" : " with --aot-cache") + " trains again");
            }
        }
        finally
        {
            Files.deleteIfExists(written);
            Files.deleteIfExists(Path.of(written + ".config")); // the JDK's, where PE 0 died before removing it
        }
    }

    /**
     * Keeps the {@code keep} caches (and markers) of {@code dir} used last, with their stamps, and the
     * {@link #AUTO_KEEP_SEEN} newest {@link #SEEN} markers; deletes training files an hour old (their launcher died).
     */
    static void evict(final Path dir, final int keep, final long nowMs) throws IOException
    {
        final List<Path> caches = new ArrayList<>();
        final List<Path> seen = new ArrayList<>();
        try (var list = Files.list(dir))
        {
            for (final Path p : list.toList())
            {
                final String name = p.getFileName().toString();
                if (name.endsWith(".aot") || name.endsWith(".aot" + ELSEWHERE))
                {
                    caches.add(p);
                }
                else if (name.endsWith(".aot" + SEEN))
                {
                    seen.add(p);
                }
                else if (name.contains(".aot") && name.contains(TRAINING) && nowMs - modified(p) > STALE_TRAINING_MS)
                {
                    Files.deleteIfExists(p);
                }
            }
        }
        caches.sort(Comparator.comparingLong(AotCache::modified).reversed());
        for (final Path p : caches.subList(Math.min(keep, caches.size()), caches.size()))
        {
            Files.deleteIfExists(p);
            Files.deleteIfExists(Path.of(p + ".stamp"));
        }
        seen.sort(Comparator.comparingLong(AotCache::modified).reversed());
        for (final Path p : seen.subList(Math.min(AUTO_KEEP_SEEN, seen.size()), seen.size()))
        {
            Files.deleteIfExists(p);
        }
    }

    private static long modified(final Path p)
    {
        try
        {
            return Files.getLastModifiedTime(p).toMillis();
        }
        catch (final IOException gone)
        {
            return 0;
        }
    }

    private static void touch(final Path p)
    {
        try
        {
            Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis()));
        }
        catch (final IOException ex)
        {
            // a cache of another user's: it is used all the same, only not kept longer
        }
    }

    /** Writes {@code text} to {@code p} whole: into a file of its own, then renamed over it. */
    private void replace(final Path p, final String text) throws IOException
    {
        final Path tmp = Path.of(p + training);
        Files.writeString(tmp, text);
        Files.move(tmp, p, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static String[] entries(final String classpath, final String jar)
    {
        return jar != null ? new String[] {jar} : classpath.split(File.pathSeparator);
    }

    /**
     * @return the first non-empty directory on the PEs' class path (the JDK refuses an AOT cache for it), or null; none
     *         for {@code java -jar}.
     */
    private static Path directoryOn(final String[] entries, final String jar) throws IOException
    {
        if (jar != null)
        {
            return null;
        }
        for (final String entry : entries)
        {
            final Path p = Path.of(entry.isEmpty() ? "." : entry);
            if (Files.isDirectory(p))
            {
                try (var list = Files.list(p))
                {
                    if (list.findAny().isPresent())
                    {
                        return p;
                    }
                }
            }
        }
        return null;
    }

    /** The JVM (its path, and the size and time of its class library: a JDK updated in place) and the class path. */
    private static String stamp(final String java, final String[] entries) throws IOException
    {
        final StringBuilder b = new StringBuilder("java ").append(java);
        final Path home = Path.of(java).toAbsolutePath().getParent();
        final Path modules = home == null || home.getParent() == null ? null : home.getParent().resolve("lib").resolve("modules");
        if (modules != null && Files.isRegularFile(modules))
        {
            b.append(' ').append(Files.size(modules)).append(' ').append(Files.getLastModifiedTime(modules).toMillis());
        }
        b.append('\n');
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

    private static String sha256(final String s)
    {
        try
        {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("SHA-256 is in every JDK", ex);
        }
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
