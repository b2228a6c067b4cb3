package io.jshmem.bootstrap;

/**
 * The root's checks of a PE's HELLO: version, size, rank range, lateness, duplicates. A rejection
 * only turns the arrival away (it gets a REJECT naming why): the job, forming or formed, goes on, so a
 * holder of the secret announcing a wrong size, a bad rank or a taken one cannot end it. A forming
 * job whose real PE never arrives ends at its formation deadline, naming the missing ranks.
 */
final class Admission
{
    private Admission()
    {
    }

    /**
     * Checks one arrival. Pure: the caller holds the root's lock and passes its state.
     *
     * @param version      the protocol version the arrival speaks.
     * @param rank         the rank it claims.
     * @param peSize       the job size it claims.
     * @param size         the job size the root knows (the launcher's or the first PE's), or 0 if none yet.
     * @param expectedSize the launcher's size, or 0 (for the message only).
     * @param formed       whether the job has formed.
     * @param taken        the remote address of the PE holding each rank (null entries: free), or null if no
     *                     PE has arrived; never indexed out of its bounds.
     * @return null to admit, or why not (naming the PE and the operands).
     */
    static String check(final int version, final int rank, final int peSize, final int size, final int expectedSize,
        final boolean formed, final String[] taken)
    {
        if (version != Wire.PROTOCOL_VERSION)
        {
            return "PE " + rank + " speaks bootstrap protocol version " + version + " but the root speaks " + Wire.PROTOCOL_VERSION;
        }
        if (formed)
        {
            return "PE " + rank + " (size " + peSize + ") arrived after the job formed";
        }
        if (peSize <= 0)
        {
            return "PE " + rank + " says the job has " + peSize + " PEs";
        }
        if (size != 0 && peSize != size)
        {
            return "PE " + rank + " says the job has " + peSize + " PEs but the job has " + size
                + (expectedSize > 0 ? " (set by the launcher)" : " (set by the first PE to connect)");
        }
        if (rank < 0 || rank >= peSize)
        {
            return "PE rank " + rank + " is outside 0.." + (peSize - 1) + " (job size " + peSize + ")";
        }
        if (taken != null && rank < taken.length && taken[rank] != null)
        {
            return "duplicate rank " + rank + ": already taken by the PE connected from " + taken[rank]
                + " (check the launcher's rank variables)";
        }
        return null;
    }
}
