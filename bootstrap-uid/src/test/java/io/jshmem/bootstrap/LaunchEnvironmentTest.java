package io.jshmem.bootstrap;

import io.jshmem.ConfigurationException;
import io.jshmem.config.ShmemConfig;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaunchEnvironmentTest
{
    private static LaunchEnvironment detect(final String... kv)
    {
        final Map<String, String> env = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2)
        {
            env.put(kv[i], kv[i + 1]);
        }
        return LaunchEnvironment.detect(ShmemConfig.of(env, null, null));
    }

    private static void assertBad(final String var, final String why, final String... kv)
    {
        final ConfigurationException ex = assertThrows(ConfigurationException.class, () -> detect(kv));
        assertEquals(var, ex.optionName(), ex.getMessage());
        assertTrue(ex.getMessage().contains(why), ex.getMessage());
    }

    @Test
    void nothingSetIsASingleton()
    {
        final LaunchEnvironment e = detect("PATH", "/bin");
        assertEquals("singleton", e.kind());
        assertEquals(0, e.rank());
        assertEquals(1, e.size());
    }

    @Test
    void shmemrunVariablesWin()
    {
        final LaunchEnvironment e = detect("JSHMEM_RANK", "2", "JSHMEM_SIZE", "4", "JSHMEM_LOCAL_RANK", "2", "JSHMEM_LOCAL_SIZE", "4",
            "JSHMEM_JOB_ID", "abc", "SHMEM_BOOTSTRAP_UID", "jsuid1-xyz", "RANK", "0", "WORLD_SIZE", "9", "SLURM_PROCID", "5");
        assertEquals("shmemrun", e.kind());
        assertEquals(2, e.rank());
        assertEquals(4, e.size());
        assertEquals(2, e.localRank());
        assertEquals(4, e.localSize());
        assertEquals("abc", e.jobId());
        assertEquals("jsuid1-xyz", e.uidText());
        assertBad("SHMEM_BOOTSTRAP_UID", "SHMEM_BOOTSTRAP_UID is not", "JSHMEM_RANK", "0", "JSHMEM_SIZE", "2");
    }

    @Test
    void torchrunHostsTheRootAtMasterAddr()
    {
        final LaunchEnvironment e = detect("RANK", "3", "WORLD_SIZE", "8", "LOCAL_RANK", "1", "LOCAL_WORLD_SIZE", "2",
            "MASTER_ADDR", "node0", "MASTER_PORT", "29500", "TORCHELASTIC_RUN_ID", "run7");
        assertEquals("torchrun", e.kind());
        assertEquals(3, e.rank());
        assertEquals(8, e.size());
        assertEquals(1, e.localRank());
        assertEquals(2, e.localSize());
        assertEquals("node0:29500", e.rootAddress());
        assertNull(e.uidText());
        assertEquals(32, e.secret().length);
        assertTrue(e.warning().contains("TORCHELASTIC_RUN_ID"), e.warning());
        // every rank derives the same secret
        assertArrayEquals(e.secret(), detect("RANK", "0", "WORLD_SIZE", "8", "MASTER_ADDR", "node0", "MASTER_PORT", "29500",
            "TORCHELASTIC_RUN_ID", "run7").secret());
        // an explicit secret: no warning; 64 hex digits are the key itself
        final String hex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
        final LaunchEnvironment s = detect("RANK", "0", "WORLD_SIZE", "2", "MASTER_ADDR", "h", "MASTER_PORT", "1", "SHMEM_BOOTSTRAP_SECRET", hex);
        assertNull(s.warning());
        assertArrayEquals(java.util.HexFormat.of().parseHex(hex), s.secret());
        // session id wins over MASTER_ADDR
        assertEquals("10.0.0.1:7777", detect("RANK", "0", "WORLD_SIZE", "2", "MASTER_ADDR", "h", "MASTER_PORT", "1",
            "SHMEM_BOOTSTRAP_UID_SESSION_ID", "10.0.0.1:7777").rootAddress());
    }

    @Test
    void torchrunMalformedValuesNameTheVariable()
    {
        assertBad("RANK", "RANK='abc' is not an integer", "RANK", "abc", "WORLD_SIZE", "2", "MASTER_ADDR", "h", "MASTER_PORT", "1");
        assertBad("RANK", "RANK=2 is outside 0..1 (WORLD_SIZE=2)", "RANK", "2", "WORLD_SIZE", "2", "MASTER_ADDR", "h", "MASTER_PORT", "1");
        assertBad("WORLD_SIZE", "WORLD_SIZE is not set", "RANK", "0");
        assertBad("WORLD_SIZE", "WORLD_SIZE=0 is outside", "RANK", "0", "WORLD_SIZE", "0");
        assertBad("MASTER_PORT", "port '29x' is not a number", "RANK", "0", "WORLD_SIZE", "2", "MASTER_ADDR", "h", "MASTER_PORT", "29x");
        assertBad("MASTER_PORT", "port 70000 is outside", "RANK", "0", "WORLD_SIZE", "2", "MASTER_ADDR", "h", "MASTER_PORT", "70000");
        assertBad("MASTER_PORT", "MASTER_PORT is not", "RANK", "0", "WORLD_SIZE", "2", "MASTER_ADDR", "h");
        assertBad("LOCAL_RANK", "LOCAL_RANK=2 is outside 0..1", "RANK", "0", "WORLD_SIZE", "4", "LOCAL_RANK", "2", "LOCAL_WORLD_SIZE", "2",
            "MASTER_ADDR", "h", "MASTER_PORT", "1");
        assertBad("SHMEM_BOOTSTRAP_UID_SESSION_ID", "not host:port", "RANK", "0", "WORLD_SIZE", "2", "SHMEM_BOOTSTRAP_UID_SESSION_ID", "nohost");
    }

    @Test
    void slurmWithSessionIdAndDerivedSecretWarning()
    {
        final LaunchEnvironment e = detect("SLURM_PROCID", "5", "SLURM_NTASKS", "6", "SLURM_LOCALID", "1", "SLURM_JOB_ID", "4711",
            "SLURM_STEP_ID", "0", "SHMEM_BOOTSTRAP_UID_SESSION_ID", "n1:5000");
        assertEquals("slurm", e.kind());
        assertEquals(5, e.rank());
        assertEquals(6, e.size());
        assertEquals(1, e.localRank());
        assertEquals(-1, e.localSize());
        assertEquals("4711.0", e.jobId());
        assertEquals("n1:5000", e.rootAddress());
        assertTrue(e.warning().contains("SLURM_JOB_ID") && e.warning().contains("only as secret as that id"), e.warning());
        assertBad("SLURM_PROCID", "SLURM_PROCID='x'", "SLURM_PROCID", "x", "SLURM_NTASKS", "2");
        assertBad("SHMEM_BOOTSTRAP_UID_SESSION_ID", "gives no root address", "SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_ID", "1");
    }

    @Test
    void launcherRendezvous()
    {
        // mpirun's orted: a PMIx server, several nodes: the id travels through PMIx, a random secret
        final LaunchEnvironment m = detect("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4", "OMPI_COMM_WORLD_LOCAL_RANK", "0",
            "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "PMIX_NAMESPACE", "1234@1", "PMIX_RANK", "2", "PMIX_SERVER_URI4", "pmix-server.1;tcp4://10.0.0.1:1");
        assertEquals(LaunchEnvironment.PMIX, m.rendezvous());
        assertNull(m.secret(), "rank 0 draws a random secret");
        assertNull(m.rootAddress());
        // SHMEM_BOOTSTRAP_UID_SESSION_ID wins over PMIx
        assertNull(detect("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4", "PMIX_NAMESPACE", "1234@1", "PMIX_RANK", "2",
            "PMIX_SERVER_URI4", "x", "SHMEM_BOOTSTRAP_UID_SESSION_ID", "h:7").rendezvous());
        // torchrun's static rendezvous: the agent's TCPStore on the master port
        final LaunchEnvironment t = detect("RANK", "1", "WORLD_SIZE", "4", "LOCAL_RANK", "1", "LOCAL_WORLD_SIZE", "2", "MASTER_ADDR", "10.0.0.1",
            "MASTER_PORT", "29500", "TORCHELASTIC_RUN_ID", "r1", "TORCHELASTIC_USE_AGENT_STORE", "True");
        assertEquals(LaunchEnvironment.TCPSTORE, t.rendezvous());
        assertEquals("10.0.0.1:29500", t.rootAddress());
        // c10d: no agent store, rank 0 hosts the root on MASTER_PORT
        assertNull(detect("RANK", "1", "WORLD_SIZE", "4", "MASTER_ADDR", "h", "MASTER_PORT", "29500", "TORCHELASTIC_USE_AGENT_STORE", "False")
            .rendezvous());
        // SLURM without PMIx: the step's first node, a port every task derives alike
        final LaunchEnvironment s = detect("SLURM_PROCID", "3", "SLURM_NTASKS", "4", "SLURM_LOCALID", "1", "SLURM_JOB_ID", "77",
            "SLURM_STEP_ID", "0", "SLURM_STEP_NODELIST", "node[07-08]");
        assertEquals("node07:" + LaunchEnvironment.derivedPort("77.0"), s.rootAddress());
        assertTrue(LaunchEnvironment.derivedPort("77.0") >= 10240 && LaunchEnvironment.derivedPort("77.0") < 32240);
    }

    @Test
    void hostlists()
    {
        assertEquals(java.util.List.of("n1", "n2", "n3", "n07", "gpu01x", "gpu02x", "login"), Hostlist.expand("n[1-3,07],gpu[01-02]x,login", "L"));
        assertEquals(java.util.List.of("a08", "a09", "a10"), Hostlist.expand("a[08-10]", "L"));
        assertEquals(java.util.List.of(2, 2, 2, 1), Hostlist.counts("2(x3),1", "C"));
        assertBad("SLURM_STEP_NODELIST", "SLURM_STEP_NODELIST", "SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_JOB_ID", "1",
            "SLURM_STEP_NODELIST", "n[1-");
    }

    @Test
    void openMpiAndPmi()
    {
        final LaunchEnvironment m = detect("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "4", "OMPI_COMM_WORLD_LOCAL_RANK", "1",
            "OMPI_COMM_WORLD_LOCAL_SIZE", "4", "PMIX_NAMESPACE", "prterun-x-1@1");
        assertEquals("mpi", m.kind());
        assertEquals(1, m.rank());
        assertEquals(4, m.localSize());
        assertNotNull(m.rootAddress(), "single node: a loopback root derived from the job id");
        assertTrue(m.rootAddress().startsWith("127.0.0.1:"), m.rootAddress());
        final LaunchEnvironment p = detect("PMI_RANK", "2", "PMI_SIZE", "3", "MPI_LOCALRANKID", "0", "MASTER_ADDR", "h", "MASTER_PORT", "9");
        assertEquals("pmi", p.kind());
        assertEquals(2, p.rank());
        assertEquals(3, p.size());
        assertEquals(0, p.localRank());
        assertTrue(p.warning().contains("no job id"), p.warning());
        assertBad("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_SIZE='four'", "OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "four");
        assertBad("PMI_RANK", "PMI_RANK=-1", "PMI_RANK", "-1", "PMI_SIZE", "3");
    }

    @Test
    void explicitModeOverridesDetection()
    {
        assertEquals("singleton", detect("SHMEM_BOOTSTRAP", "singleton", "RANK", "1", "WORLD_SIZE", "2").kind());
        final LaunchEnvironment e = detect("SHMEM_BOOTSTRAP", "slurm", "RANK", "1", "WORLD_SIZE", "2", "SLURM_PROCID", "0",
            "SLURM_NTASKS", "1");
        assertEquals("slurm", e.kind());
        assertEquals(0, e.rank());
        assertBad("SLURM_PROCID", "SLURM_PROCID is not set", "SHMEM_BOOTSTRAP", "slurm", "RANK", "1", "WORLD_SIZE", "2");
        final LaunchEnvironment u = detect("SHMEM_BOOTSTRAP", "uid", "RANK", "1", "WORLD_SIZE", "2", "SHMEM_BOOTSTRAP_UID", "jsuid1-a");
        assertEquals("uid", u.kind());
        assertEquals("jsuid1-a", u.uidText());
        assertBad("SHMEM_BOOTSTRAP_UID", "SHMEM_BOOTSTRAP_UID is not set", "SHMEM_BOOTSTRAP", "uid", "RANK", "1", "WORLD_SIZE", "2");
        assertBad("SHMEM_BOOTSTRAP", "not one of", "SHMEM_BOOTSTRAP", "bogus");
    }
}
