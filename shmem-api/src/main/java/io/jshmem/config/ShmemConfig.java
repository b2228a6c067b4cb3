package io.jshmem.config;

import io.jshmem.ConfigurationException;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * The resolved configuration of one PE: every {@link Option} looked up in, by decreasing precedence,
 * explicit settings, system properties ({@code shmem.symmetric.size}), the {@code SHMEM_} environment
 * variable, its {@code SMA_} legacy alias, and the default. Remembers where each value came from so
 * {@code SHMEM_INFO} can print it. Immutable once built; safe to share between threads.
 * <p>
 * A bad value fails with a {@link ConfigurationException} that names the variable, its source and
 * the reason.
 */
public final class ShmemConfig
{
    /** Where a value came from. */
    public enum Source
    {
        /** Set by the program ({@link ShmemConfig#with}, or the explicit map of {@link ShmemConfig#of}). */
        EXPLICIT("explicit setting"),
        /** A {@code shmem.*} system property. */
        PROPERTY("system property"),
        /** A {@code SHMEM_*} environment variable. */
        ENV("environment"),
        /** A legacy {@code SMA_*} environment variable. */
        LEGACY_ENV("environment (deprecated SMA_ alias)"),
        /** Nothing set the option: its default. */
        DEFAULT("default");

        private final String text;

        Source(final String text)
        {
            this.text = text;
        }

        @Override
        public String toString()
        {
            return text;
        }
    }

    /**
     * A value's text and its source.
     *
     * @param text   the value's text, or null if unset.
     * @param source where it came from.
     * @param from   the variable, property or setting name.
     * @param secret true if the text must never be printed ({@link Option#isSecret()}).
     */
    public record Setting(String text, Source source, String from, boolean secret)
    {
        /** {@return the setting, a secret text shown as {@link Option#REDACTED}} */
        @Override
        public String toString()
        {
            return "Setting[text=" + (secret && text != null ? Option.REDACTED : text) + ", source=" + source + ", from=" + from + "]";
        }
    }

    private final Map<String, String> env;
    private final Map<String, String> properties;
    private final Map<String, String> explicit;
    private final Map<Option<?>, Object> cache = new java.util.concurrent.ConcurrentHashMap<>();

    private ShmemConfig(final Map<String, String> env, final Map<String, String> properties, final Map<String, String> explicit)
    {
        this.env = Map.copyOf(env);
        this.properties = Map.copyOf(properties);
        this.explicit = Map.copyOf(explicit);
    }

    /** {@return the configuration of this process: its environment and system properties} */
    public static ShmemConfig fromProcess()
    {
        return of(System.getenv(), System.getProperties(), Map.of());
    }

    /**

     * Makes a configuration from explicit maps (tests, embedding).

     *
     * @param env        environment variables (all of them: launcher detection reads non-SHMEM names too).
     * @param properties system properties, or null for none.
     * @param explicit   explicit settings keyed by option env name, or null for none.
     * @return a configuration.
     */
    public static ShmemConfig of(final Map<String, String> env, final Properties properties, final Map<String, String> explicit)
    {
        final Map<String, String> props = new HashMap<>();
        if (properties != null)
        {
            for (final String name : properties.stringPropertyNames())
            {
                if (name.startsWith("shmem."))
                {
                    props.put(name, properties.getProperty(name));
                }
            }
        }
        return new ShmemConfig(env == null ? Map.of() : env, props, explicit == null ? Map.of() : explicit);
    }

    /**

     * Adds explicit settings.

     *
     * @param overrides explicit settings keyed by option env name.
     * @return a copy of this configuration with more explicit settings (they win over everything).
     */
    public ShmemConfig with(final Map<String, String> overrides)
    {
        final Map<String, String> merged = new HashMap<>(explicit);
        merged.putAll(overrides);
        return new ShmemConfig(env, properties, merged);
    }

    /**

     * Reads one environment variable as this configuration saw it.

     *
     * @param name any environment variable (launcher variables such as {@code SLURM_PROCID} included).
     * @return its value, or null.
     */
    public String env(final String name)
    {
        return env.get(name);
    }

    /** {@return the whole environment this configuration was built from (read-only)} */
    public Map<String, String> environment()
    {
        return env;
    }

    /**
     * Says what sets an option.
     *
     * @param option an option.
     * @return the text that sets it and its source; the default (possibly null text) if nothing does.
     */
    public Setting setting(final Option<?> option)
    {
        String v = explicit.get(option.envName());
        if (v != null)
        {
            return new Setting(v, Source.EXPLICIT, option.envName(), option.isSecret());
        }
        v = properties.get(option.property());
        if (v != null)
        {
            return new Setting(v, Source.PROPERTY, option.property(), option.isSecret());
        }
        v = env.get(option.envName());
        if (v != null)
        {
            return new Setting(v, Source.ENV, option.envName(), option.isSecret());
        }
        if (option.legacyName() != null)
        {
            v = env.get(option.legacyName());
            if (v != null)
            {
                return new Setting(v, Source.LEGACY_ENV, option.legacyName(), option.isSecret());
            }
        }
        return new Setting(option.defaultText(), Source.DEFAULT, option.envName(), option.isSecret());
    }

    /**
     * Says whether anything but the default sets an option.
     *
     * @param option an option.
     * @return true if anything but the default sets it.
     */
    public boolean isSet(final Option<?> option)
    {
        return setting(option).source() != Source.DEFAULT;
    }

    /**
     * Reads an option's value.
     *
     * @param option an option.
     * @param <T>    its type.
     * @return its parsed value, or null if it is unset and has no default.
     * @throws ConfigurationException naming the variable, the source and the reason if the value is bad.
     */
    @SuppressWarnings("unchecked")
    public <T> T get(final Option<T> option)
    {
        final Object cached = cache.get(option);
        if (cached != null)
        {
            return (T)cached;
        }
        final Setting s = setting(option);
        if (s.text() == null)
        {
            return null;
        }
        final T value;
        try
        {
            value = Objects.requireNonNull(option.parse(s.text()));
        }
        catch (final IllegalArgumentException ex)
        {
            String reason = String.valueOf(ex.getMessage());
            if (option.isSecret() && s.text().strip().length() >= 4)
            {
                reason = reason.replace(s.text().strip(), Option.REDACTED);
            }
            throw new ConfigurationException(option.envName(),
                "invalid value for " + option.envName() + " (from " + s.source() + " " + s.from() + "): " + reason);
        }
        cache.put(option, value);
        return value;
    }

    /**
     * Parses every option of a table, so that a bad value fails now, naming its variable.
     *
     * @param options the options to check.
     */
    public void validate(final Iterable<Option<?>> options)
    {
        for (final Option<?> o : options)
        {
            get(o);
        }
    }

    /**
     * Prints each option with its value and source, for {@code SHMEM_INFO}; secret values
     * ({@link Option#isSecret()}: the unique id, the job secret) as {@link Option#REDACTED}.
     *
     * @param out     where to print.
     * @param options the table.
     */
    public void printInfo(final PrintStream out, final Iterable<Option<?>> options)
    {
        final Map<String, StringBuilder> byCategory = new LinkedHashMap<>();
        for (final Option<?> o : options)
        {
            final Setting s = setting(o);
            final String legacy = o.legacyName() == null ? "" : " (alias " + o.legacyName() + ")";
            byCategory.computeIfAbsent(o.category(), k -> new StringBuilder())
                .append(String.format("  %-34s %-22s [%s]%s%n      %s%n",
                    o.envName(), s.text() == null ? "(unset)" : o.shown(s.text()), s.source(), legacy, o.description()));
        }
        final StringBuilder sb = new StringBuilder("jshmem options (env name, value, source; system property shmem.<name.lower.dotted>):\n");
        byCategory.forEach((cat, text) -> sb.append(cat).append(":\n").append(text));
        out.print(sb);
        out.flush();
    }
}
