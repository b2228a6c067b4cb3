package io.jshmem.bootstrap;

import io.jshmem.ConfigurationException;
import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The launch environment of this PE, detected from a {@link ShmemConfig} alone (a pure function, so
 * tests feed it maps). Order, unless {@code SHMEM_BOOTSTRAP} names one: shmemrun
 * ({@code JSHMEM_RANK}...), torchrun ({@code RANK}, {@code WORLD_SIZE}...), SLURM
 * ({@code SLURM_PROCID}...), Open MPI ({@code OMPI_COMM_WORLD_RANK}...), PMI/Hydra
 * ({@code PMI_RANK}...), else a singleton. If {@code SHMEM_BOOTSTRAP_UID} is set, PEs join that root;
 * otherwise rank 0 hosts the root: at {@code rootAddress} with {@code secret}, or, when {@code rendezvous}
 * is set, on a free port with a random secret, publishing the unique id through the launcher's own
 * rendezvous (PMIx under Open MPI's mpirun, torchrun's TCPStore under a static rendezvous) for the
 * other ranks to read. Where the root address comes from, in order: {@code SHMEM_BOOTSTRAP_UID_SESSION_ID};
 * torchrun's agent store ({@code TORCHELASTIC_USE_AGENT_STORE=True}: rendezvous {@code tcpstore} at
 * MASTER_ADDR:MASTER_PORT); {@code MASTER_ADDR}/{@code MASTER_PORT}; a PMIx server ({@code PMIX_NAMESPACE}
 * and {@code PMIX_SERVER_URI*}: rendezvous {@code pmix}); SLURM's step node list (the first node, a port
 * derived from the job and step ids); one node (loopback, a port derived from the job id).
 *
 * @param kind        shmemrun, uid, torchrun, slurm, mpi, pmi or singleton.
 * @param rank        this PE's rank.
 * @param size        the number of PEs.
 * @param localRank   the launcher's local rank, or -1 if it gives none (node identity is computed anyway).
 * @param localSize   the launcher's PEs on this node, or -1.
 * @param jobId       the launcher's job id, or null.
 * @param uidText     the unique id text to join, or null when rank 0 hosts the root.
 * @param rootAddress host:port where rank 0 hosts the root (when {@code uidText} is null).
 * @param secret      the 32-byte job secret (when {@code uidText} is null).
 * @param warning     a one-line warning to print (a derived secret), or null.
 * @param rendezvous  {@code pmix} or {@code tcpstore} when the unique id travels through the launcher's
 *                    rendezvous ({@code rootAddress} is then the store's address for tcpstore, null for
 *                    pmix; {@code secret} is the explicit one or null for a random one), else null.
 */
public record LaunchEnvironment(String kind, int rank, int size, int localRank, int localSize, String jobId,
    String uidText, String rootAddress, byte[] secret, String warning, String rendezvous)
{
    /** Rendezvous through the PMIx server that started the PE. */
    public static final String PMIX = "pmix";
    /** Rendezvous through torchrun's TCPStore (the agent's store on MASTER_ADDR:MASTER_PORT). */
    public static final String TCPSTORE = "tcpstore";
    /** The variables that name SLURM's step (then job) node list, in order of preference. */
    static final String[] SLURM_NODELISTS = {"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST", "SLURM_NODELIST"};

    private static final String[][] RANK_VARS = {
        {"shmemrun", "JSHMEM_RANK", "JSHMEM_SIZE", "JSHMEM_LOCAL_RANK", "JSHMEM_LOCAL_SIZE"},
        {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE"},
        {"slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", null},
        {"mpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
        {"pmi", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
    };

    /**
     * @param config the PE's configuration (its environment included).
     * @return the launch environment.
     * @throws ConfigurationException naming the variable if a value is malformed or missing.
     */
    public static LaunchEnvironment detect(final ShmemConfig config)
    {
        final String mode = config.get(ShmemOptions.BOOTSTRAP);
        final String uid = config.get(ShmemOptions.BOOTSTRAP_UID);
        if ("singleton".equals(mode))
        {
            return singleton(config);
        }
        String[] vars = null;
        if ("auto".equals(mode) || "uid".equals(mode))
        {
            for (final String[] v : RANK_VARS)
            {
                if (config.env(v[1]) != null)
                {
                    vars = v;
                    break;
                }
            }
            if (vars == null)
            {
                if ("uid".equals(mode))
                {
                    throw new ConfigurationException(ShmemOptions.BOOTSTRAP.envName(), "SHMEM_BOOTSTRAP=uid but no rank variables "
                        + "(JSHMEM_RANK, RANK, SLURM_PROCID, OMPI_COMM_WORLD_RANK or PMI_RANK) are set");
                }
                return singleton(config);
            }
        }
        else
        {
            for (final String[] v : RANK_VARS)
            {
                if (v[0].equals(mode))
                {
                    vars = v;
                }
            }
        }
        final String kind = "uid".equals(mode) ? "uid" : vars[0];
        if (config.env(vars[1]) == null)
        {
            throw new ConfigurationException(vars[1], vars[1] + " is not set (SHMEM_BOOTSTRAP=" + mode + " needs it)");
        }
        final int size = intVar(config, vars[2], 1, Integer.MAX_VALUE, null);
        final int rank = intVar(config, vars[1], 0, size - 1, vars[2]);
        final int localSize = vars[4] == null || config.env(vars[4]) == null ? -1 : intVar(config, vars[4], 1, size, vars[2]);
        final int localRank = vars[3] == null || config.env(vars[3]) == null ? -1
            : intVar(config, vars[3], 0, localSize > 0 ? localSize - 1 : size - 1, localSize > 0 ? vars[4] : vars[2]);
        final String[] jobIdVar = jobIdVar(config, vars[0]);
        final String jobId = jobIdVar == null ? null : jobIdVar[1];
        if ("shmemrun".equals(kind) && uid == null)
        {
            throw new ConfigurationException(ShmemOptions.BOOTSTRAP_UID.envName(),
                "JSHMEM_RANK is set but SHMEM_BOOTSTRAP_UID is not: shmemrun sets both; was the environment copied without it?");
        }
        if ("uid".equals(kind) && uid == null)
        {
            throw new ConfigurationException(ShmemOptions.BOOTSTRAP_UID.envName(), "SHMEM_BOOTSTRAP=uid but SHMEM_BOOTSTRAP_UID is not set");
        }
        if (uid != null)
        {
            return new LaunchEnvironment(kind, rank, size, localRank, localSize, jobId, uid, null, null, null, null);
        }
        final String[] rv = rootAddress(config, kind, size, localSize, jobId);
        final String root = rv[0];
        final String secretText = config.get(ShmemOptions.BOOTSTRAP_SECRET);
        final byte[] secret;
        String warning = null;
        if (secretText != null)
        {
            secret = secretText.matches("[0-9a-fA-F]{64}") ? HexFormat.of().parseHex(secretText) : sha256("jshmem-secret:" + secretText);
        }
        else if (rv[1] != null)
        {
            // rank 0 draws a random secret and publishes it with the unique id
            secret = null;
        }
        else if (jobId != null)
        {
            secret = sha256("jshmem-derived:" + kind + ":" + jobId + ":" + root);
            warning = "bootstrap: no SHMEM_BOOTSTRAP_SECRET; the job secret is derived from " + jobIdVar[0]
                + " and is only as secret as that id";
        }
        else
        {
            secret = sha256("jshmem-derived:" + kind + ":" + root);
            warning = "bootstrap: no SHMEM_BOOTSTRAP_SECRET and no job id; the job secret is derived from the root address "
                + root + ", which anyone can guess: set SHMEM_BOOTSTRAP_SECRET";
        }
        return new LaunchEnvironment(kind, rank, size, localRank, localSize, jobId, null, root, secret, warning, rv[1]);
    }

    private static LaunchEnvironment singleton(final ShmemConfig config)
    {
        return new LaunchEnvironment("singleton", 0, 1, 0, 1, null, null, null, null, null, null);
    }

    private static String[] jobIdVar(final ShmemConfig c, final String kind)
    {
        final String[] names = switch (kind)
        {
            case "shmemrun" -> new String[] {"JSHMEM_JOB_ID"};
            case "torchrun" -> new String[] {"TORCHELASTIC_RUN_ID"};
            case "slurm" -> new String[] {"SLURM_JOB_ID", "SLURM_JOBID"};
            case "mpi" -> new String[] {"OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE"};
            default -> new String[] {"PMI_JOBID", "PMIX_NAMESPACE"};
        };
        for (final String n : names)
        {
            final String v = c.env(n);
            if (v != null && !v.isBlank() && !"none".equals(v))
            {
                final String step = "slurm".equals(kind) && c.env("SLURM_STEP_ID") != null ? "." + c.env("SLURM_STEP_ID") : "";
                return new String[] {n, v.strip() + step};
            }
        }
        return null;
    }

    /** @return {root address or null, rendezvous or null}. */
    private static String[] rootAddress(final ShmemConfig c, final String kind, final int size, final int localSize, final String jobId)
    {
        final String session = c.get(ShmemOptions.BOOTSTRAP_UID_SESSION_ID);
        if (session != null)
        {
            final String name = ShmemOptions.BOOTSTRAP_UID_SESSION_ID.envName();
            final int colon = session.lastIndexOf(':');
            if (colon <= 0)
            {
                throw new ConfigurationException(name, name + "='" + session + "' is not host:port");
            }
            Net.parsePort(session.substring(colon + 1), name);
            return new String[] {session, null};
        }
        final String addr = c.env("MASTER_ADDR");
        final String port = c.env("MASTER_PORT");
        if (addr != null || port != null)
        {
            if (addr == null || addr.isBlank())
            {
                throw new ConfigurationException("MASTER_ADDR", "MASTER_PORT is set but MASTER_ADDR is not");
            }
            if (port == null)
            {
                throw new ConfigurationException("MASTER_PORT", "MASTER_ADDR is set but MASTER_PORT is not");
            }
            final String store = addr.strip() + ":" + Net.parsePort(port, "MASTER_PORT");
            // torchrun's static rendezvous: its agent's TCPStore listens on MASTER_PORT, share it
            return new String[] {store, "torchrun".equals(kind) && "True".equals(c.env("TORCHELASTIC_USE_AGENT_STORE")) ? TCPSTORE : null};
        }
        if (size > 1 && Pmix.underServer(c::env))
        {
            return new String[] {null, PMIX};
        }
        if (size == 1 || (localSize == size && jobId != null))
        {
            // one node: a port derived from the job id, the same on every PE
            return new String[] {"127.0.0.1:" + derivedPort(jobId), null};
        }
        if ("slurm".equals(kind))
        {
            for (final String var : SLURM_NODELISTS)
            {
                final String list = c.env(var);
                if (list != null && !list.isBlank())
                {
                    // SLURM places task 0 on the first node of the step (block and cyclic distributions)
                    final java.util.List<String> nodes = Hostlist.expand(list, var);
                    return new String[] {(nodes.size() == 1 ? "127.0.0.1" : nodes.get(0)) + ":" + derivedPort(jobId), null};
                }
            }
        }
        throw new ConfigurationException(ShmemOptions.BOOTSTRAP_UID_SESSION_ID.envName(), kind
            + " gives no root address for a job of " + size + " PEs: set SHMEM_BOOTSTRAP_UID_SESSION_ID=host:port"
            + " (rank 0's host and a free port) or MASTER_ADDR and MASTER_PORT, or pass SHMEM_BOOTSTRAP_UID");
    }

    /**
     * A port every PE of a job computes alike from its job id: 10240..32239, below Linux's ephemeral
     * range (32768..60999) so that no outgoing connection holds it.
     */
    static int derivedPort(final String jobId)
    {
        final byte[] h = sha256("jshmem-port:" + (jobId == null ? "" : jobId));
        return 10240 + Math.floorMod(((h[0] & 0xff) << 16) | ((h[1] & 0xff) << 8) | (h[2] & 0xff), 22000);
    }

    private static int intVar(final ShmemConfig c, final String name, final int min, final int max, final String maxFrom)
    {
        final String text = c.env(name);
        if (text == null)
        {
            throw new ConfigurationException(name, name + " is not set (needed by this launch mode)");
        }
        final int v;
        try
        {
            v = Integer.parseInt(text.strip());
        }
        catch (final NumberFormatException ex)
        {
            throw new ConfigurationException(name, name + "='" + text + "' is not an integer");
        }
        if (v < min || v > max)
        {
            throw new ConfigurationException(name, name + "=" + v + " is outside " + min + ".." + max
                + (maxFrom == null ? "" : " (" + maxFrom + "=" + c.env(maxFrom) + ")"));
        }
        return v;
    }

    /**
     * {@link Sha256}, not {@code MessageDigest} (the security providers cost a PE 20 ms, docs/bootstrap.md): every PE of
     * a torchrun, SLURM or MPI job derives its secret and port here, in init.
     */
    static byte[] sha256(final String text)
    {
        return Sha256.of(text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString()
    {
        return "LaunchEnvironment[" + kind + " rank=" + rank + " size=" + size + " local=" + localRank + "/" + localSize
            + " job=" + jobId + (uidText != null ? " uid" : " root=" + rootAddress) + (rendezvous == null ? "" : " via " + rendezvous) + "]";
    }
}
