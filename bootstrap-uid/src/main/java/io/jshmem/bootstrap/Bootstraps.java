package io.jshmem.bootstrap;

import io.jshmem.ShmemException;
import io.jshmem.config.ShmemConfig;

import java.net.InetSocketAddress;

/** The factory the runtime calls: detect the launch environment, then form the job's bootstrap. */
public final class Bootstraps
{
    private Bootstraps()
    {
    }

    /**
     * Forms this PE's bootstrap from its configuration ({@link LaunchEnvironment#detect}), with the
     * default exit action ({@link ExitAction#halt()}).
     *
     * @param config the PE's options and environment.
     * @return the formed bootstrap; close it at the end of the job.
     */
    public static Bootstrap fromConfig(final ShmemConfig config)
    {
        return fromConfig(config, BootstrapSettings.from(config));
    }

    /**
     * @param config   the PE's options and environment (launcher variables).
     * @param settings timeouts, exit action, log sink (usually {@link BootstrapSettings#from} then {@code withX}).
     * @return the formed bootstrap.
     */
    public static Bootstrap fromConfig(final ShmemConfig config, final BootstrapSettings settings)
    {
        final LaunchEnvironment env = LaunchEnvironment.detect(config);
        BootstrapSettings s = settings.withLauncher(env.kind());
        if (env.jobId() != null && s.jobId() == null)
        {
            s = s.withJobId(env.jobId());
        }
        if (env.size() == 1 && env.uidText() == null)
        {
            return new SingletonBootstrap(s);
        }
        if (env.uidText() != null)
        {
            final String launcherPid = config.env("JSHMEM_LAUNCHER_PID");
            if ("shmemrun".equals(env.kind()) && launcherPid != null && launcherPid.strip().matches("[0-9]{1,18}") && s.launcherPid() == 0)
            {
                s = s.withLauncherPid(Long.parseLong(launcherPid.strip()));
            }
            return UidBootstrap.connect(UniqueId.parse(env.uidText()), env.rank(), env.size(), s);
        }
        final String prefix = ShmemException.pePrefix(env.rank(), env.size());
        if (env.rendezvous() != null)
        {
            return viaRendezvous(env, s, prefix);
        }
        if (env.warning() != null && env.rank() == 0)
        {
            s.log().accept(prefix + env.warning());
        }
        final InetSocketAddress root = Net.parseHostPort(env.rootAddress(), "root address (SHMEM_BOOTSTRAP_UID_SESSION_ID or MASTER_ADDR:MASTER_PORT)");
        if (env.rank() == 0)
        {
            // PE 0's root lives for this init only: a later init (OpenSHMEM 1.6) hosts a new one on the same address
            final BootstrapRoot r = BootstrapRoot.startHosted(s.withRootLogPrefix(prefix + "bootstrap: root: "), env.size(), env.secret(), root);
            return UidBootstrap.connectHosting(r, env.size(), s);
        }
        return UidBootstrap.connect(UniqueId.of(env.secret(), root), env.rank(), env.size(), s);
    }

    /** The unique id the launcher's rendezvous carried at this process's first init (later inits reuse it). */
    private static volatile String rendezvousUid;

    /**
     * Rank 0 hosts the root on a free port of its advertised interface with a random secret (or the
     * explicit one) and publishes the unique id through the launcher's rendezvous (PMIx fence, or
     * torchrun's TCPStore); the other ranks read it there. A later init (OpenSHMEM 1.6) reuses the id:
     * rank 0 hosts its new root on the same address.
     */
    private static Bootstrap viaRendezvous(final LaunchEnvironment env, final BootstrapSettings s, final String prefix)
    {
        String uid = rendezvousUid;
        if (uid == null)
        {
            BootstrapRoot root = null;
            if (env.rank() == 0)
            {
                root = BootstrapRoot.startHosted(s.withRootLogPrefix(prefix + "bootstrap: root: "), env.size(),
                    env.secret(), new InetSocketAddress(Net.advertised(s.ifname(), s.family()), 0));
            }
            try
            {
                uid = publish(env, s, prefix, root == null ? null : root.uniqueId().toText());
            }
            catch (final RuntimeException ex)
            {
                if (root != null)
                {
                    root.close();
                }
                throw ex;
            }
            rendezvousUid = uid;
            if (root != null)
            {
                return UidBootstrap.connectHosting(root, env.size(), s);
            }
            return UidBootstrap.connect(UniqueId.parse(uid), env.rank(), env.size(), s);
        }
        final UniqueId id = UniqueId.parse(uid);
        if (env.rank() == 0)
        {
            final BootstrapRoot r = BootstrapRoot.startHosted(s.withRootLogPrefix(prefix + "bootstrap: root: "), env.size(),
                id.secret(), id.rootAddress());
            return UidBootstrap.connectHosting(r, env.size(), s);
        }
        return UidBootstrap.connect(id, env.rank(), env.size(), s);
    }

    private static String publish(final LaunchEnvironment env, final BootstrapSettings s, final String prefix, final String uid)
    {
        final int timeoutS = (int)Math.max(1, Math.min(Integer.MAX_VALUE, s.timeoutNs() / 1_000_000_000L));
        if (LaunchEnvironment.PMIX.equals(env.rendezvous()))
        {
            return Pmix.exchange(RENDEZVOUS_KEY, uid, 0, timeoutS, prefix);
        }
        final InetSocketAddress store = Net.parseHostPort(env.rootAddress(), "MASTER_ADDR:MASTER_PORT");
        final String key = RENDEZVOUS_KEY + "/" + (env.jobId() == null ? "job" : env.jobId());
        final long deadline = System.nanoTime() + s.timeoutNs();
        try (TcpStore t = TcpStore.connect(store, deadline))
        {
            if (uid != null)
            {
                t.set(key, uid.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                return uid;
            }
            return new String(t.get(key, deadline), java.nio.charset.StandardCharsets.US_ASCII);
        }
        catch (final java.io.IOException ex)
        {
            throw new io.jshmem.ShmemInitException(prefix + "bootstrap: torchrun's TCPStore at " + store + ": " + ex.getMessage()
                + " (rank 0 publishes the unique id under '" + key + "')", ex);
        }
    }

    /** The key under which rank 0 publishes the unique id in the launcher's rendezvous (PMIx, TCPStore). */
    static final String RENDEZVOUS_KEY = "jshmem.bootstrap.uid";
}
