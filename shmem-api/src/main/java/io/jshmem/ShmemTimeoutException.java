package io.jshmem;

import java.util.Arrays;

/** A wait on other PEs passed its deadline; the message and {@link #missingPes()} name who never arrived. */
public class ShmemTimeoutException extends JobFailedException
{
    private static final long serialVersionUID = 1L;

    /** The PEs (world numbering) that had not arrived. */
    private final int[] missingPes;

    /**
     * Makes the exception.
     *
     * @param message    what timed out, naming the team, the operation and the missing PEs.
     * @param missingPes the PEs (world numbering) that had not arrived; the first is {@link #lostPe()}.
     */
    public ShmemTimeoutException(final String message, final int[] missingPes)
    {
        super(message, missingPes.length > 0 ? missingPes[0] : -1, null);
        this.missingPes = missingPes.clone();
    }

    /** {@return the PEs (world numbering) that had not arrived when the deadline passed} */
    public int[] missingPes()
    {
        return missingPes.clone();
    }

    @Override
    public String toString()
    {
        return super.toString() + " missing=" + Arrays.toString(missingPes);
    }
}
