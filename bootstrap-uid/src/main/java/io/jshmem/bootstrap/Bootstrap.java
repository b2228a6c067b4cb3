package io.jshmem.bootstrap;

import io.jshmem.JobFailedException;

import java.util.function.Consumer;

/**
 * How the PEs of a job find each other and exchange small amounts of data before (and beside) the
 * symmetric heap: NVSHMEM's bootstrap handle plus a key-value store. Every collective here is called
 * by all PEs in the same order; each has a deadline ({@code SHMEM_BOOTSTRAP_TIMEOUT}) and fails with
 * a {@link JobFailedException} naming the lost or missing PEs rather than waiting forever.
 * <p>
 * Threads: collectives must be called from one thread at a time (they are ordered per job); the
 * store, {@link #failure()}, {@link #globalExit(int)} and the accessors are safe from any thread.
 */
public interface Bootstrap extends AutoCloseable
{
    /** @return this PE's rank, 0..size-1. */
    int rank();

    /** @return the number of PEs in the job. */
    int size();

    /** @return this PE's index among the PEs on its node (same host identity), 0..nodeSize-1. */
    int nodeRank();

    /** @return the number of PEs on this PE's node. */
    int nodeSize();

    /**
     * @return the number of PEs on this PE's machine: those whose host identity has this PE's boot id. Hosts made
     *         of network namespaces or containers on one machine have their own hostnames but share its kernel
     *         and cores; without a boot id, the PEs of this node.
     */
    int machineSize();

    /**
     * @return the most PEs any machine of the job runs ({@link #machineSize()} of the busiest machine): with machines of
     *         equal cores, whether the job's PEs have cores to spare everywhere; the same on every PE.
     */
    int largestMachineSize();

    /** @return which node (0..nodeCount-1, in order of first rank) each rank is on. */
    int[] nodeOfRank();

    /** @return the host identity string of each rank (what node identity was computed from). */
    String[] hostOfRank();

    /** @return how the job was launched (shmemrun, uid, torchrun, slurm, mpi, singleton). */
    String launcher();

    /** @return a job identifier shared by every PE of this job and unlikely to repeat across jobs. */
    String jobId();

    /**
     * Every PE contributes a byte array (lengths may differ); every PE receives all of them.
     *
     * @param mine this PE's contribution.
     * @return element i is rank i's contribution.
     */
    byte[][] allgather(byte[] mine);

    /**
     * Personalized exchange: element j of {@code toEach} goes to rank j.
     *
     * @param toEach one array per rank (length {@link #size()}).
     * @return element i is what rank i sent to this PE.
     */
    byte[][] alltoall(byte[][] toEach);

    /**
     * @param data the root's data (ignored on other PEs, may be null there).
     * @param root the rank whose data everyone receives.
     * @return the root's data.
     */
    byte[] broadcast(byte[] data, int root);

    /** Returns once every PE has entered the barrier (dissemination, O(log N) rounds). */
    void barrier();

    /** @return the job's key-value store on the control channel. */
    KeyValueStore store();

    /**
     * Ends the whole job: every PE's JVM exits with {@code status}, including PEs blocked in a barrier.
     * Does not return (with a test {@link ExitAction} that returns, it throws the resulting
     * {@link JobFailedException}).
     *
     * @param status the exit status every PE's process reports.
     */
    void globalExit(int status);

    /**
     * @return the failure that ended this job for this PE (a lost PE, a lost root, a global exit in
     *         progress), or null while the job is healthy. Cheap: a volatile read, for polling loops.
     */
    JobFailedException failure();

    /**
     * Records a failure another part of this PE saw first (a transport that lost its connection to a
     * peer), exactly as if the bootstrap had seen it: waits wake, listeners run, and the job's exit
     * policy applies. The first failure wins; later ones are ignored.
     *
     * @param ex the failure, naming the lost PE when there is one.
     */
    void reportFailure(JobFailedException ex);

    /**
     * @return true once a global exit (this PE's or a peer's) is ending this process: a wait that sees
     *         the job's failure then must not return into the program, but {@link #awaitExit} instead.
     */
    boolean exitPending();

    /** Waits until the exit under way has run its hooks and exit action (the process normally ends first). */
    void awaitExit(long timeoutNs);

    /**
     * @return the address this PE advertises to its peers (the bootstrap's interface and family), where
     *         transports listen too; loopback for a job on one machine without an interface choice.
     */
    java.net.InetAddress address();

    /**
     * A key derived from the job secret for another of this job's protocols (HMAC-SHA256 of the secret
     * and the label); the secret itself never leaves the bootstrap. Every PE of the job derives the same
     * key for the same label.
     *
     * @param label what the key is for, e.g. {@code "proxy"}.
     * @return 32 bytes.
     */
    byte[] deriveKey(String label);

    /**
     * @param listener called once, from a bootstrap thread, when the job fails (see {@link #failure()}).
     */
    void onFailure(Consumer<JobFailedException> listener);

    /**
     * Registers a cleanup hook run before this process ends by a global exit or the failure policy
     * (e.g. unlinking a heap file); hooks run in registration order on the exiting thread.
     *
     * @param hook what to run.
     */
    void onExit(Runnable hook);

    /** Leaves the job cleanly (after the last collective); closes every socket and thread. Idempotent. */
    @Override
    void close();
}
