package io.jshmem.bootstrap;

/** The root's checks of a PE's HELLO: version, size, rank range, duplicates, lateness. */
final class Admission
{
    private Admission()
    {
    }

    /**
     * Why a PE is turned away.
     *
     * @param reason   the message (it names the PE and the operands).
     * @param failsJob true if the forming job cannot succeed either (every PE is told).
     */
    record Verdict(String reason, boolean failsJob)
    {
    }

    /**
     * @param existing the remote address of the PE already holding this rank, or null.
     * @return null to admit, or the verdict.
     */
    static Verdict check(final int version, final int rank, final int peSize, final int size, final int expectedSize,
        final boolean formed, final String failed, final String existing)
    {
        if (version != Wire.PROTOCOL_VERSION)
        {
            return new Verdict("PE " + rank + " speaks bootstrap protocol version " + version + " but the root speaks "
                + Wire.PROTOCOL_VERSION, false);
        }
        if (peSize <= 0)
        {
            return new Verdict("PE " + rank + " says the job has " + peSize + " PEs", false);
        }
        if (size != 0 && peSize != size)
        {
            return new Verdict("PE " + rank + " says the job has " + peSize + " PEs but the job has " + size
                + (expectedSize > 0 ? " (set by the launcher)" : " (set by the first PE to connect)"), true);
        }
        if (rank < 0 || rank >= peSize)
        {
            return new Verdict("PE rank " + rank + " is outside 0.." + (peSize - 1) + " (job size " + peSize + ")", true);
        }
        if (formed || failed != null)
        {
            return new Verdict("PE " + rank + " arrived after the job " + (formed ? "formed" : "failed: " + failed), false);
        }
        if (existing != null)
        {
            return new Verdict("duplicate rank " + rank + ": already taken by the PE connected from " + existing
                + " (check the launcher's rank variables)", true);
        }
        return null;
    }
}
