package io.jshmem;

/** An option has a value that cannot be parsed or is out of range; the message names the variable and its source. */
public class ConfigurationException extends ShmemInitException
{
    private static final long serialVersionUID = 1L;

    /** The offending option's environment-variable name. */
    private final String optionName;

    /**
     * Makes the exception.
     *
     * @param optionName the option's environment-variable name, e.g. {@code SHMEM_SYMMETRIC_SIZE}.
     * @param message    what is wrong, naming the variable, its value and where the value came from.
     */
    public ConfigurationException(final String optionName, final String message)
    {
        super(message);
        this.optionName = optionName;
    }

    /** {@return the environment-variable name of the offending option, e.g. {@code SHMEM_SYMMETRIC_SIZE}} */
    public String optionName()
    {
        return optionName;
    }
}
