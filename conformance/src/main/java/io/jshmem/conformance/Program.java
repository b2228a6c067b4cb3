package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;

/**
 * One conformance program, ported from a public OpenSHMEM test suite: its name is the class's simple
 * name, {@link #follows()} names the original. A suite runner may run many programs in one job (one
 * init, programs separated by barriers, every PE's verdict per program aggregated); a program that
 * must own its job (it calls global exit, tests init/finalize, needs a special environment) says so
 * with {@link #ownJob()}.
 */
public interface Program
{
    /** @return the original this port follows, e.g. {@code "tests-sos test/unit/put_nbi.c"}. */
    String follows();

    /** @return the fewest PEs the program can check anything with; a smaller job is a SKIP, never a pass. */
    default int minPes()
    {
        return 1;
    }

    /** @return the thread level the program needs. */
    default ThreadLevel threadLevel()
    {
        return ThreadLevel.SINGLE;
    }

    /** @return true when the program must run alone in its own job. */
    default boolean ownJob()
    {
        return false;
    }

    /**
     * Runs the checks; called on every PE.
     *
     * @param shmem this PE.
     * @param check where results go.
     * @throws Exception anything unexpected, which fails the program.
     */
    void run(Shmem shmem, Check check) throws Exception;
}
