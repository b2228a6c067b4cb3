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
}
