package io.jshmem.bootstrap;

import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;

import java.util.function.Consumer;

/**
 * The tunables of one bootstrap (PE side or root), resolved from a {@link ShmemConfig} and
 * adjustable by copy ({@code withX}) for embedding and tests. Immutable.
 */
public final class BootstrapSettings
{
    private long timeoutNs = 120_000_000_000L;
    private long peerTimeoutNs = 3_000_000_000L;
    private long handshakeTimeoutNs = 30_000_000_000L;
    private String ifname;
    private String family = "AF_INET";
    private String sessionId;
    private boolean debug;
    private ExitAction exitAction = ExitAction.halt();
    private Consumer<String> log = line -> System.err.println(line);
    private String launcher = "uid";
    private String jobId;
    private String hostIdentity;
    private boolean exitOnFailure = true;
    private long failureExitGraceNs = 250_000_000L;
    private String rootLogPrefix;
    private int maxPendingHandshakes = 64;
    private long launcherPid;
    private int generation = 1;

    private BootstrapSettings()
    {
    }

    private BootstrapSettings copy()
    {
        final BootstrapSettings s = new BootstrapSettings();
        s.timeoutNs = timeoutNs;
        s.peerTimeoutNs = peerTimeoutNs;
        s.handshakeTimeoutNs = handshakeTimeoutNs;
        s.ifname = ifname;
        s.family = family;
        s.sessionId = sessionId;
        s.debug = debug;
        s.exitAction = exitAction;
        s.log = log;
        s.launcher = launcher;
        s.jobId = jobId;
        s.hostIdentity = hostIdentity;
        s.exitOnFailure = exitOnFailure;
        s.failureExitGraceNs = failureExitGraceNs;
        s.rootLogPrefix = rootLogPrefix;
        s.maxPendingHandshakes = maxPendingHandshakes;
        s.launcherPid = launcherPid;
        s.generation = generation;
        return s;
    }

    /** @return the defaults of the option table. */
    public static BootstrapSettings defaults()
    {
        return new BootstrapSettings();
    }

    /**
     * @param config options: SHMEM_BOOTSTRAP_TIMEOUT, SHMEM_BOOTSTRAP_PEER_TIMEOUT, SHMEM_BOOTSTRAP_HANDSHAKE_TIMEOUT,
     *               SHMEM_BOOTSTRAP_UID_SOCK_IFNAME, SHMEM_BOOTSTRAP_UID_SOCK_FAMILY,
     *               SHMEM_BOOTSTRAP_UID_SESSION_ID, SHMEM_DEBUG.
     * @return the settings.
     */
    public static BootstrapSettings from(final ShmemConfig config)
    {
        final BootstrapSettings s = new BootstrapSettings();
        s.timeoutNs = config.get(ShmemOptions.BOOTSTRAP_TIMEOUT_NS);
        s.peerTimeoutNs = config.get(ShmemOptions.BOOTSTRAP_PEER_TIMEOUT_NS);
        s.handshakeTimeoutNs = config.get(ShmemOptions.BOOTSTRAP_HANDSHAKE_TIMEOUT_NS);
        s.ifname = config.get(ShmemOptions.BOOTSTRAP_UID_SOCK_IFNAME);
        s.family = config.get(ShmemOptions.BOOTSTRAP_UID_SOCK_FAMILY);
        s.sessionId = config.get(ShmemOptions.BOOTSTRAP_UID_SESSION_ID);
        s.debug = config.isSet(ShmemOptions.DEBUG);
        return s;
    }

    /** @return deadline of every bootstrap wait. */
    public long timeoutNs()
    {
        return timeoutNs;
    }

    /**
     * @return the least silence after which a peer (or the root) is declared lost: the floor of the
     *         adaptive failure detector ({@link PeerWatch}); a peer whose heartbeats have been coming late
     *         on a loaded machine gets longer. Not a handshake deadline ({@link #handshakeTimeoutNs()}).
     */
    public long peerTimeoutNs()
    {
        return peerTimeoutNs;
    }

    /**
     * @return the deadline of one connection's whole handshake (authentication, then HELLO or PEER_IDENT),
     *         however its bytes are split: {@code SHMEM_BOOTSTRAP_HANDSHAKE_TIMEOUT} (30 s), at most
     *         {@link #timeoutNs()}. A listener drops a connection that has not finished by then (a stranger
     *         dripping bytes); a PE whose handshake is cut, or whose connect times out, tries again until
     *         {@link #timeoutNs()}, so a job starts however slowly its JVMs come up on a loaded machine.
     */
    public long handshakeTimeoutNs()
    {
        return Math.min(handshakeTimeoutNs, timeoutNs);
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #handshakeTimeoutNs()} set to {@code v} (still at most {@link #timeoutNs()}).
     */
    public BootstrapSettings withHandshakeTimeoutNs(final long v)
    {
        final BootstrapSettings s = copy();
        s.handshakeTimeoutNs = v;
        return s;
    }

    /**
     * @return the heartbeat period: an eighth of the peer timeout, at most 500 ms. A PE checks the root's silence at
     *         this period; the root checks its PEs' {@link #CHECKS_PER_HEARTBEAT} times as often
     *         ({@link #silenceCheckNs()}).
     */
    public long heartbeatNs()
    {
        return Math.max(10_000_000L, Math.min(500_000_000L, peerTimeoutNs / 8));
    }

    /** How many times per heartbeat period the root checks its PEs' silence. */
    public static final int CHECKS_PER_HEARTBEAT = 4;

    /**
     * @return the period of the root's silence checks, a quarter of the heartbeat period: with the default 3 s peer
     *         timeout, on an idle machine, a silent PE is found 3 to 3.1 s after its last heartbeat (3 to 3.4 s when
     *         the checks ran at the heartbeat period, which left a stopped PE's job ending 4.6 s after the stop at
     *         64 PEs on 8 test hosts, too close to the 5 s it is allowed).
     */
    public long silenceCheckNs()
    {
        return heartbeatNs() / CHECKS_PER_HEARTBEAT;
    }

    /** @return the interface whose address sockets advertise, or null for the first non-loopback one. */
    public String ifname()
    {
        return ifname;
    }

    /** @return AF_INET or AF_INET6. */
    public String family()
    {
        return family;
    }

    /** @return a fixed root address {@code host:port}, or null. */
    public String sessionId()
    {
        return sessionId;
    }

    /** @return true if SHMEM_DEBUG is set. */
    public boolean debug()
    {
        return debug;
    }

    /** @return what ending the process means. */
    public ExitAction exitAction()
    {
        return exitAction;
    }

    /** @return where one-line diagnostics go (default System.err). */
    public Consumer<String> log()
    {
        return log;
    }

    /** @return the launch environment's name (reported by {@link Bootstrap#launcher()}). */
    public String launcher()
    {
        return launcher;
    }

    /** @return the job id to use if this side hosts the root, or null for a random one. */
    public String jobId()
    {
        return jobId;
    }

    /** @return the host identity override (tests simulating several nodes), or null to compute it. */
    public String hostIdentity()
    {
        return hostIdentity;
    }

    /** @return whether a failed job ends this process after {@link #failureExitGraceNs()} unless closed. */
    public boolean exitOnFailure()
    {
        return exitOnFailure;
    }

    /** @return the grace between a failure and the default policy ending the process. */
    public long failureExitGraceNs()
    {
        return failureExitGraceNs;
    }

    /** @return the root's log prefix, or null for the default. */
    public String rootLogPrefix()
    {
        return rootLogPrefix;
    }

    /**
     * @return how many connections a listener (the root, a PE's) lets wait for authentication at once;
     *         more are closed as they arrive (a PE retries, a stranger is dropped). Default 64.
     */
    public int maxPendingHandshakes()
    {
        return maxPendingHandshakes;
    }

    /**
     * @return the pid of the launcher this PE must not outlive ({@code JSHMEM_LAUNCHER_PID}), or 0 for none.
     *         From the first connection attempt on, the PE ends (status 1, exit hooks first) within a
     *         second of the launcher's end, even after {@link Bootstrap#close()}.
     */
    public long launcherPid()
    {
        return launcherPid;
    }

    /**
     * @param v the new value (at least 1).
     * @return a copy with {@link #maxPendingHandshakes()} set to {@code v}.
     */
    public BootstrapSettings withMaxPendingHandshakes(final int v)
    {
        if (v < 1)
        {
            throw new IllegalArgumentException("maxPendingHandshakes " + v + " < 1");
        }
        final BootstrapSettings s = copy();
        s.maxPendingHandshakes = v;
        return s;
    }

    /**
     * @return which init of this process the bootstrap serves: 1 for the first, n for the init after the
     *         (n-1)th last finalize (OpenSHMEM 1.6 re-initialization). The root admits one generation at a
     *         time and tells PEs of the next one to retry until every PE of the current one has left.
     */
    public int generation()
    {
        return generation;
    }

    /**
     * @param v the generation (at least 1).
     * @return a copy with {@link #generation()} set to {@code v}.
     */
    public BootstrapSettings withGeneration(final int v)
    {
        if (v < 1)
        {
            throw new IllegalArgumentException("generation " + v + " < 1");
        }
        final BootstrapSettings s = copy();
        s.generation = v;
        return s;
    }

    /**
     * @param v the launcher's pid, or 0 for none.
     * @return a copy with {@link #launcherPid()} set to {@code v}.
     */
    public BootstrapSettings withLauncherPid(final long v)
    {
        final BootstrapSettings s = copy();
        s.launcherPid = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #timeoutNs()} set to {@code v}.
     */
    public BootstrapSettings withTimeoutNs(final long v)
    {
        final BootstrapSettings s = copy();
        s.timeoutNs = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #peerTimeoutNs()} set to {@code v}.
     */
    public BootstrapSettings withPeerTimeoutNs(final long v)
    {
        final BootstrapSettings s = copy();
        s.peerTimeoutNs = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #ifname()} set to {@code v}.
     */
    public BootstrapSettings withIfname(final String v)
    {
        final BootstrapSettings s = copy();
        s.ifname = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #sessionId()} set to {@code v}.
     */
    public BootstrapSettings withSessionId(final String v)
    {
        final BootstrapSettings s = copy();
        s.sessionId = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #debug()} set to {@code v}.
     */
    public BootstrapSettings withDebug(final boolean v)
    {
        final BootstrapSettings s = copy();
        s.debug = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #exitAction()} set to {@code v}.
     */
    public BootstrapSettings withExitAction(final ExitAction v)
    {
        final BootstrapSettings s = copy();
        s.exitAction = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #log()} set to {@code v}.
     */
    public BootstrapSettings withLog(final Consumer<String> v)
    {
        final BootstrapSettings s = copy();
        s.log = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #launcher()} set to {@code v}.
     */
    public BootstrapSettings withLauncher(final String v)
    {
        final BootstrapSettings s = copy();
        s.launcher = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #jobId()} set to {@code v}.
     */
    public BootstrapSettings withJobId(final String v)
    {
        final BootstrapSettings s = copy();
        s.jobId = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #hostIdentity()} set to {@code v}.
     */
    public BootstrapSettings withHostIdentity(final String v)
    {
        final BootstrapSettings s = copy();
        s.hostIdentity = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #exitOnFailure()} set to {@code v}.
     */
    public BootstrapSettings withExitOnFailure(final boolean v)
    {
        final BootstrapSettings s = copy();
        s.exitOnFailure = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #failureExitGraceNs()} set to {@code v}.
     */
    public BootstrapSettings withFailureExitGraceNs(final long v)
    {
        final BootstrapSettings s = copy();
        s.failureExitGraceNs = v;
        return s;
    }

    /**
     * @param v the new value.
     * @return a copy with {@link #rootLogPrefix()} set to {@code v}.
     */
    public BootstrapSettings withRootLogPrefix(final String v)
    {
        final BootstrapSettings s = copy();
        s.rootLogPrefix = v;
        return s;
    }

    /** @return the settings that matter for diagnostics; nothing here is secret. */
    @Override
    public String toString()
    {
        return "BootstrapSettings[launcher=" + launcher + " timeout=" + timeoutNs / 1_000_000 + "ms peerTimeout="
            + peerTimeoutNs / 1_000_000 + "ms handshakeTimeout=" + handshakeTimeoutNs() / 1_000_000 + "ms ifname=" + ifname + " family=" + family + " sessionId=" + sessionId
            + " jobId=" + jobId + " launcherPid=" + launcherPid + " generation=" + generation + "]";
    }
}
