package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;

import java.util.List;
import java.util.Map;

/**
 * One conformance program, ported from a public OpenSHMEM test suite: its name ({@link #name()}) is the
 * original's file name in Java form ({@code put_nbi.c} → {@code PutNbi}), {@link #follows()} names the
 * original. Every implementation needs a public no-arg constructor: {@link Suite} instantiates it by
 * name and {@code SuiteIT} finds it by scanning the module's classes (any package under
 * {@code io.jshmem.conformance}), so a new program is picked up without being listed anywhere.
 * <p>
 * {@link Suite} runs many programs in one job (one init, a barrier before each program, every PE's
 * verdict per program aggregated by the IT); a program that must own its job (it calls global exit,
 * tests init/finalize) says so with {@link #ownJob()}. A program needing more PEs than the job has is a
 * SKIP, never a pass. A program must free what it allocates: the suite fails a program that leaves
 * symmetric heap in use.
 * <p>
 * Environment variants: {@link #variants()} lists the environments (extra {@code shmemrun -x NAME=VALUE}
 * settings) the program must run under, e.g. each forced {@code SHMEM_BROADCAST_ALGORITHM}. The IT
 * runs the program once per variant and PE count; programs with equal variant maps share launches.
 * <p>
 * Coverage: {@link #routines()} names the spec routines the program exercises; the coverage table of
 * {@code conformance/README.md} is generated from it.
 */
public interface Program
{
    /** @return the original this port follows, e.g. {@code "tests-sos test/unit/put_nbi.c"}. */
    String follows();

    /** @return the name printed in verdicts and JUnit results: the class's simple name. */
    default String name()
    {
        return getClass().getSimpleName();
    }

    /**
     * @return the OpenSHMEM routines (spec names as in {@code Routines}, e.g. {@code shmem_put_nbi},
     * {@code shmem_atomic_fetch_add}) this program exercises and checks.
     */
    default List<String> routines()
    {
        return List.of();
    }

    /** @return the fewest PEs the program can check anything with; a smaller job is a SKIP, never a pass. */
    default int minPes()
    {
        return 1;
    }

    /** @return the thread level the program needs (the suite inits at the highest level of its programs). */
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
     * @return true for an {@link #ownJob()} program that ends the job itself (global exit) before the PEs
     * can print verdicts: its verdict is the job's exit status ({@link #expectedJobStatus()}) within the
     * deadline, with no {@code FAIL} line from any PE.
     */
    default boolean endsJob()
    {
        return false;
    }

    /** @return for an {@link #endsJob()} program, the exit status the job must end with. */
    default int expectedJobStatus()
    {
        return 0;
    }

    /**
     * @return the environments to run under, each a map of variable → value passed to every PE
     * ({@code shmemrun -x}); one run per map. The default is one run with no extra variables.
     */
    default List<Map<String, String>> variants()
    {
        return List.of(Map.of());
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
