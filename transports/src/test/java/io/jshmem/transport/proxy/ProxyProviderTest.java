package io.jshmem.transport.proxy;

import io.jshmem.config.ShmemConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code SHMEM_PROXY_WAIT_POLL}: auto polls from waits with a core per PE on the machine, or on a machine of many cores;
 * not when PEs outnumber a few cores.
 */
class ProxyProviderTest
{
    @Test
    void autoPollsFromWaitsWithACorePerPe()
    {
        assertTrue(ProxyProvider.waitPolls("auto", 2, 16), "1+1 on 16 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 4, 16), "2+2 on 16 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 8, 16), "8 PEs on 16 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 16, 16), "16 PEs on 16 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 17, 16), "17 PEs on 16 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 512, 16), "512 PEs on 16 cores");
        assertFalse(ProxyProvider.waitPolls("auto", 9, 8), "9 PEs on 8 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 2, 2), "1+1 on 2 cores");
        assertFalse(ProxyProvider.waitPolls("auto", 4, 2), "2+2 on 2 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 1, 2), "one PE on 2 cores");
        assertTrue(ProxyProvider.waitPolls("on", 64, 2), "forced on");
        assertFalse(ProxyProvider.waitPolls("off", 1, 64), "forced off");
    }

    @Test
    void polledWaitsDeferAcksOnlyWhileEveryPeHasACore()
    {
        final int cores = Runtime.getRuntime().availableProcessors();
        final ShmemConfig on = ShmemConfig.of(Map.of("SHMEM_PROXY_WAIT_POLL", "on"), new Properties(), Map.of());
        final ProxyTransport.Settings roomy = ProxyProvider.settings(on, line -> { }, cores);
        assertTrue(roomy.waitPolls(), "forced on");
        assertFalse(roomy.sharedCores(), cores + " PEs on " + cores + " cores");
        final ProxyTransport.Settings crowded = ProxyProvider.settings(on, line -> { }, cores + 1);
        assertTrue(crowded.sharedCores(), (cores + 1) + " PEs on " + cores + " cores");
        final ShmemConfig off = ShmemConfig.of(Map.of("SHMEM_PROXY_WAIT_POLL", "off"), new Properties(), Map.of());
        assertFalse(ProxyProvider.settings(off, line -> { }, 1).waitPolls(), "forced off");
    }

    /** The waits alone serve the proxy (poster-sent signals, a proxy thread that keeps out) only with a core per PE on many cores. */
    @Test
    void waitsAloneServeTheProxyOnlyWithACorePerPeOnManyCores()
    {
        final int cores = Runtime.getRuntime().availableProcessors();
        final ShmemConfig on = ShmemConfig.of(Map.of("SHMEM_PROXY_WAIT_POLL", "on"), new Properties(), Map.of());
        final ProxyTransport.Settings roomy = ProxyProvider.settings(on, line -> { }, cores);
        assertEquals(cores >= ProxyProvider.MANY_CORES, roomy.manyCores(), cores + " cores");
        final ProxyTransport.Settings many = roomy.withManyCores(true);
        assertTrue(many.waitsAlone(), "polling waits, a core per PE, many cores");
        assertFalse(many.withSharedCores(true).waitsAlone(), "PEs outnumber cores");
        assertFalse(many.withWaitPolls(false).waitsAlone(), "waits that leave the proxy to its thread");
        assertFalse(many.withManyCores(false).waitsAlone(), "few cores (2 cores: the 2-PE barrier was slower)");
    }
}
