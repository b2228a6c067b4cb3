package io.jshmem.bootstrap;

import io.jshmem.ConfigurationException;

import java.util.ArrayList;
import java.util.List;

/**
 * SLURM's compressed lists, expanded: host lists such as {@code n[1-3,07],gpu[01-02]x,login}
 * ({@code SLURM_STEP_NODELIST}, {@code SLURM_JOB_NODELIST}) and task counts such as {@code 2(x3),1}
 * ({@code SLURM_TASKS_PER_NODE}). Ranges keep their zero padding ({@code [08-10]} gives 08, 09, 10);
 * several bracket groups in one name multiply out, as SLURM's hostlist does.
 */
public final class Hostlist
{
    /** The most hosts one list may expand to: a typo such as {@code n[1-100000000]} fails instead of eating memory. */
    public static final int MAX_HOSTS = 1 << 20;

    private Hostlist()
    {
    }

    /**
     * @param list the compressed list.
     * @param what the variable it came from, for messages.
     * @return the host names in order.
     * @throws ConfigurationException naming {@code what} and the list if it is malformed.
     */
    public static List<String> expand(final String list, final String what)
    {
        final List<String> out = new ArrayList<>();
        if (list == null || list.isBlank())
        {
            throw new ConfigurationException(what, what + " is empty");
        }
        int depth = 0;
        int start = 0;
        final String s = list.strip();
        for (int i = 0; i <= s.length(); i++)
        {
            final char c = i < s.length() ? s.charAt(i) : ',';
            if (c == '[')
            {
                if (depth++ > 0)
                {
                    throw bad(what, s, "nested '['");
                }
            }
            else if (c == ']')
            {
                if (--depth < 0)
                {
                    throw bad(what, s, "']' without '['");
                }
            }
            else if (c == ',' && depth == 0)
            {
                final String item = s.substring(start, i).strip();
                if (item.isEmpty())
                {
                    throw bad(what, s, "an empty name");
                }
                expandItem(item, out, what, s);
                start = i + 1;
            }
        }
        if (depth != 0)
        {
            throw bad(what, s, "'[' without ']'");
        }
        return out;
    }

    private static void expandItem(final String item, final List<String> out, final String what, final String list)
    {
        final int open = item.indexOf('[');
        if (open < 0)
        {
            add(out, item, what, list);
            return;
        }
        final int close = item.indexOf(']', open);
        final String head = item.substring(0, open);
        final String tail = item.substring(close + 1);
        for (final String range : item.substring(open + 1, close).split(",", -1))
        {
            final String r = range.strip();
            final int dash = r.indexOf('-');
            final String lo = dash < 0 ? r : r.substring(0, dash);
            final String hi = dash < 0 ? r : r.substring(dash + 1);
            if (!lo.matches("[0-9]{1,9}") || !hi.matches("[0-9]{1,9}"))
            {
                throw bad(what, list, "range '" + r + "' in '" + item + "' is not N or N-M");
            }
            final long a = Long.parseLong(lo);
            final long b = Long.parseLong(hi);
            if (b < a)
            {
                throw bad(what, list, "range '" + r + "' in '" + item + "' runs backwards");
            }
            final int width = lo.length();
            for (long v = a; v <= b; v++)
            {
                // the tail may hold another bracket group: expand it for each value of this one
                expandItem(head + pad(v, width) + tail, out, what, list);
            }
        }
    }

    private static void add(final List<String> out, final String host, final String what, final String list)
    {
        if (out.size() >= MAX_HOSTS)
        {
            throw bad(what, list, "more than " + MAX_HOSTS + " hosts");
        }
        out.add(host);
    }

    private static String pad(final long v, final int width)
    {
        final String t = Long.toString(v);
        return t.length() >= width ? t : "0".repeat(width - t.length()) + t;
    }

    /**
     * @param counts SLURM's per-node counts, e.g. {@code 2(x3),1}.
     * @param what   the variable it came from, for messages.
     * @return one count per node, in order.
     * @throws ConfigurationException naming {@code what} if malformed.
     */
    public static List<Integer> counts(final String counts, final String what)
    {
        final List<Integer> out = new ArrayList<>();
        if (counts == null || counts.isBlank())
        {
            throw new ConfigurationException(what, what + " is empty");
        }
        for (final String item : counts.strip().split(",", -1))
        {
            final java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,9})(?:\\(x([0-9]{1,7})\\))?").matcher(item.strip());
            if (!m.matches() || Integer.parseInt(m.group(1)) < 1)
            {
                throw bad(what, counts, "'" + item + "' is not N or N(xM) with N >= 1");
            }
            final int times = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            for (int i = 0; i < times; i++)
            {
                if (out.size() >= MAX_HOSTS)
                {
                    throw bad(what, counts, "more than " + MAX_HOSTS + " nodes");
                }
                out.add(Integer.parseInt(m.group(1)));
            }
        }
        return out;
    }

    private static ConfigurationException bad(final String what, final String list, final String why)
    {
        return new ConfigurationException(what, what + "='" + list + "' is not a SLURM host list: " + why);
    }
}
