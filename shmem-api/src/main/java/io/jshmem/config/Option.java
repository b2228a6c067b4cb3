package io.jshmem.config;

import java.util.Objects;
import java.util.function.Function;

/**
 * One configuration option: its environment name ({@code SHMEM_...}), an optional legacy alias
 * ({@code SMA_...}), the system property that may also set it ({@code shmem....}), its default, a
 * category and a description, after SOS's environment table. Values come from, in decreasing
 * precedence: an explicit setting, the system property, the {@code SHMEM_} variable, the legacy alias,
 * the default.
 *
 * @param <T> the parsed value type.
 */
public final class Option<T>
{
    /** What a secret value is printed as. */
    public static final String REDACTED = "(set, redacted)";

    private final String envName;
    private final String legacyName;
    private final String property;
    private final String defaultText;
    private final String category;
    private final String description;
    private final Function<String, T> parser;
    private final boolean secret;

    private Option(
        final String envName,
        final String legacyName,
        final String defaultText,
        final String category,
        final String description,
        final Function<String, T> parser,
        final boolean secret)
    {
        this.secret = secret;
        this.envName = Objects.requireNonNull(envName);
        this.legacyName = legacyName;
        this.property = propertyName(envName);
        this.defaultText = defaultText;
        this.category = category;
        this.description = description;
        this.parser = parser;
    }

    /**
     * Defines an option.
     *
     * @param envName     the environment variable, e.g. {@code SHMEM_SYMMETRIC_SIZE}.
     * @param legacyName  the deprecated alias, e.g. {@code SMA_SYMMETRIC_SIZE}, or null.
     * @param defaultText the default as text (parsed like a user value), or null for "unset".
     * @param category    a grouping word for {@code SHMEM_INFO}.
     * @param description one line for {@code SHMEM_INFO}.
     * @param parser      text to value; throws {@link IllegalArgumentException} with a reason on bad input.
     * @param <T>         the value type.
     * @return the option.
     */
    public static <T> Option<T> of(
        final String envName,
        final String legacyName,
        final String defaultText,
        final String category,
        final String description,
        final Function<String, T> parser)
    {
        return new Option<>(envName, legacyName, defaultText, category, description, parser, false);
    }

    /**
     * Defines an option whose value is a secret (a job secret, a unique id carrying one): {@code SHMEM_INFO},
     * {@link ShmemConfig.Setting#toString()} and configuration errors show it as {@link #REDACTED}.
     *
     * @param envName     the environment variable.
     * @param category    a grouping word for {@code SHMEM_INFO}.
     * @param description one line for {@code SHMEM_INFO}.
     * @param parser      text to value; throws {@link IllegalArgumentException} with a reason on bad input.
     * @param <T>         the value type.
     * @return the option (no legacy alias, no default).
     */
    public static <T> Option<T> secret(
        final String envName,
        final String category,
        final String description,
        final Function<String, T> parser)
    {
        return new Option<>(envName, null, null, category, description, parser, true);
    }

    /** {@return true if the value must never be printed ({@link #secret})} */
    public boolean isSecret()
    {
        return secret;
    }

    /**

     * Says how a value of this option may be printed.

     *
     * @param text a value of this option, or null.
     * @return the text to print for it: the value, or {@link #REDACTED} for a secret one.
     */
    public String shown(final String text)
    {
        return secret && text != null ? REDACTED : text;
    }

    /**
     * {@code SHMEM_SYMMETRIC_SIZE} becomes {@code shmem.symmetric.size}.
     *
     * @param envName an environment variable name.
     * @return the matching system property name.
     */
    static String propertyName(final String envName)
    {
        return envName.toLowerCase(java.util.Locale.ROOT).replace('_', '.');
    }

    /** {@return the option's environment variable, e.g. {@code SHMEM_SYMMETRIC_SIZE}} */
    public String envName()
    {
        return envName;
    }

    /** {@return the legacy {@code SMA_*} alias, or null if there is none} */
    public String legacyName()
    {
        return legacyName;
    }

    /** {@return the system property that sets the option, e.g. {@code shmem.symmetric.size}} */
    public String property()
    {
        return property;
    }

    /** {@return the default value as text, or null if the option has none} */
    public String defaultText()
    {
        return defaultText;
    }

    /** {@return the group the option belongs to, as {@code SHMEM_INFO} prints it} */
    public String category()
    {
        return category;
    }

    /** {@return what the option does, as {@code SHMEM_INFO} prints it} */
    public String description()
    {
        return description;
    }

    T parse(final String text)
    {
        return parser.apply(text);
    }

    @Override
    public String toString()
    {
        return envName;
    }
}
