package io.jshmem.launch;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines a {@link RootAgent} says to shmemrun on its stdout: {@code uid TEXT}, {@code exit STATUS} and
 * {@code closed}, each after the marker {@link #MARK}.
 * <p>
 * The root agent's stdout is also the JVM's: a diagnostic a user asks for with {@code -x JAVA_TOOL_OPTIONS=...}
 * ({@code -XX:+PrintCompilation}, {@code -Xlog} to stdout) is written there by HotSpot in pieces, so a line of the root
 * could land in the middle of one. With {@code uid} at the start of a line only, such a job waited its whole
 * {@code SHMEM_BOOTSTRAP_TIMEOUT} for an id it had been sent (glued to a compile line), and printed the id, which
 * holds the job's secret, as a line of log. So each line is written in one write, starts with a line break and the
 * marker, and is recognised wherever the marker is in a line read back; what precedes the marker is the diagnostic's.
 */
final class RootLines
{
    /** Precedes every line of the protocol. */
    static final String MARK = "@jshmem-root ";

    private static final Pattern SAID = Pattern.compile(Pattern.quote(MARK) + "(uid|exit|closed)(?: +(\\S+))?");

    /** What a line said; {@code before} is the text ahead of the marker (a diagnostic's, to be logged), maybe empty. */
    record Said(Kind kind, String value, String before)
    {
    }

    /** The three things a root agent says. */
    enum Kind
    {
        /** The unique id: the root listens. */
        UID,
        /** A PE called global exit; the value is its status. */
        EXIT,
        /** The root closed (its stdin ended). */
        CLOSED
    }

    private RootLines()
    {
    }

    /** {@return the line that tells shmemrun the unique id, with its line breaks: one write} */
    static String uid(final String text)
    {
        return line("uid " + text);
    }

    /** {@return the line of a global exit's status} */
    static String exit(final int status)
    {
        return line("exit " + status);
    }

    /** {@return the line that says the root closed} */
    static String closed()
    {
        return line("closed");
    }

    private static String line(final String body)
    {
        return "\n" + MARK + body + "\n";
    }

    /**
     * @param line a line of the root agent's stdout.
     * @return what it said, or null for a line of no protocol (blank, or a diagnostic of the JVM: to be logged).
     */
    static Said parse(final String line)
    {
        final Matcher m = SAID.matcher(line);
        if (!m.find())
        {
            return null;
        }
        final String value = m.group(2);
        final String before = line.substring(0, m.start());
        return switch (m.group(1))
        {
            case "uid" -> value == null ? null : new Said(Kind.UID, value, before);
            case "exit" -> value == null || !value.matches("-?\\d{1,9}") ? null : new Said(Kind.EXIT, value, before);
            default -> new Said(Kind.CLOSED, "", before);
        };
    }
}
