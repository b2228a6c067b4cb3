package io.jshmem.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.Charset;

/**
 * Copies one PE stream to the launcher's stream line by line: each whole line (with its tag) is
 * written and flushed under one lock shared by every pump, so lines of different PEs never
 * interleave; a last line without a newline is completed at end of stream.
 * <p>
 * On a PE's stderr, an uncaught {@code ConfigurationException} (a bad option: the same mistake on
 * every PE) is condensed to one line, {@code configuration error: MESSAGE}, without its stack trace;
 * untagged, the same line from several PEs is printed once.
 */
final class OutputPump implements Runnable
{
    /** How the JVM reports an uncaught configuration error in main. */
    static final String CONFIG_ERROR = "Exception in thread \"main\" io.jshmem.ConfigurationException: ";

    private final InputStream in;
    private final PrintStream out;
    private final String tag;
    private final Object lock;
    private final java.util.Set<String> condensed;
    private final java.util.function.Consumer<String> watcher;
    /** Lines not copied (the JDK's own lines of a PE training an AOT cache), or null. */
    private java.util.function.Predicate<String> dropped;

    OutputPump(final InputStream in, final PrintStream out, final String tag, final Object lock)
    {
        this(in, out, tag, lock, null);
    }

    /**
     * @param condensed the configuration error lines already printed (shared by the job's stderr
     *                  pumps), or null to copy every line as it is.
     */
    OutputPump(final InputStream in, final PrintStream out, final String tag, final Object lock, final java.util.Set<String> condensed)
    {
        this(in, out, tag, lock, condensed, null);
    }

    /** @param watcher sees every line before it is copied (the launcher learns whom a PE's timeout names), or null. */
    OutputPump(final InputStream in, final PrintStream out, final String tag, final Object lock, final java.util.Set<String> condensed,
        final java.util.function.Consumer<String> watcher)
    {
        this.watcher = watcher;
        this.in = in;
        this.out = out;
        this.tag = tag;
        this.lock = lock;
        this.condensed = condensed;
    }

    /**
     * @param lines the lines not to copy, or null for none; set before the pump's thread starts.
     * @return this pump.
     */
    OutputPump dropping(final java.util.function.Predicate<String> lines)
    {
        this.dropped = lines;
        return this;
    }

    private static boolean stackLine(final String line)
    {
        return line.startsWith("\tat ") || line.startsWith("\t... ") || line.startsWith("Caused by: ");
    }

    @Override
    public void run()
    {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, Charset.defaultCharset()), 8192))
        {
            String line;
            boolean skipping = false;
            while ((line = r.readLine()) != null)
            {
                if (watcher != null)
                {
                    watcher.accept(line);
                }
                if (skipping && stackLine(line) || dropped != null && dropped.test(line))
                {
                    continue;
                }
                skipping = false;
                if (condensed != null && line.startsWith(CONFIG_ERROR))
                {
                    skipping = true;
                    line = "configuration error: " + line.substring(CONFIG_ERROR.length());
                    if (tag.isEmpty() && !condensed.add(line))
                    {
                        continue;
                    }
                }
                final String whole = tag + line + System.lineSeparator();
                synchronized (lock)
                {
                    out.print(whole);
                    out.flush();
                }
            }
        }
        catch (final IOException ex)
        {
            // the PE is gone; nothing more to copy
        }
    }
}
