package io.jshmem.bootstrap;

/**
 * What ending this PE's process means, pluggable so in-JVM tests with several PEs as threads can
 * observe a global exit instead of dying. The bootstrap flushes {@code System.out}/{@code System.err}
 * and runs its cleanup hooks ({@link Bootstrap#onExit(Runnable)}) before calling the action.
 */
@FunctionalInterface
public interface ExitAction
{
    /**
     * Ends the process (or records the request, in tests). May return only in tests.
     *
     * @param status the exit status.
     */
    void exit(int status);

    /** @return the default: {@link Runtime#halt(int)}, which ends the JVM even while threads are blocked. */
    static ExitAction halt()
    {
        return status -> Runtime.getRuntime().halt(status);
    }
}
