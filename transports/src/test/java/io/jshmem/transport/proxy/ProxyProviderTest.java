package io.jshmem.transport.proxy;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code SHMEM_PROXY_WAIT_POLL}: auto polls from waits with a core per PE on the machine, not when PEs outnumber cores. */
class ProxyProviderTest
{
    @Test
    void autoPollsFromWaitsWithACorePerPe()
    {
        assertTrue(ProxyProvider.waitPolls("auto", 2, 16), "1+1 on 16 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 4, 16), "2+2 on 16 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 8, 16), "8 PEs on 16 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 16, 16), "16 PEs on 16 cores");
        assertFalse(ProxyProvider.waitPolls("auto", 17, 16), "17 PEs on 16 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 2, 2), "1+1 on 2 cores");
        assertFalse(ProxyProvider.waitPolls("auto", 4, 2), "2+2 on 2 cores");
        assertTrue(ProxyProvider.waitPolls("auto", 1, 2), "one PE on 2 cores");
        assertTrue(ProxyProvider.waitPolls("on", 64, 2), "forced on");
        assertFalse(ProxyProvider.waitPolls("off", 1, 64), "forced off");
    }
}
