package io.jshmem.transport.hybrid;

import io.jshmem.transport.proxy.ProxyProvider;
import io.jshmem.transport.ucx.UcxProvider;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code SHMEM_TRANSPORT=auto} lists hybrid ahead of the proxy over tcp where every PE of the busiest machine has three
 * cores (its thread, the proxy's, UCX's progress thread); never where an RDMA device makes UCX alone the first choice.
 */
class HybridProviderTest
{
    @Test
    void autoTakesHybridWithThreeCoresPerPe()
    {
        assertTrue(HybridProvider.autoChoice(0, 16, 2), "1+1 on 16 cores");
        assertTrue(HybridProvider.autoChoice(0, 16, 4), "2+2 on 16 cores");
        assertTrue(HybridProvider.autoChoice(0, 16, 5), "5 PEs on 16 cores");
        assertFalse(HybridProvider.autoChoice(0, 16, 6), "6 PEs on 16 cores");
        assertFalse(HybridProvider.autoChoice(0, 16, 8), "4+4 on 16 cores");
        assertFalse(HybridProvider.autoChoice(0, 16, 512), "512 PEs on 16 cores");
        assertFalse(HybridProvider.autoChoice(0, 2, 1), "one PE on 2 cores");
        assertFalse(HybridProvider.autoChoice(0, 2, 2), "1+1 on 2 cores (the test hosts of this machine kind)");
        assertTrue(HybridProvider.autoChoice(0, 128, 16), "16 PEs a node on 128-core nodes");
        assertTrue(HybridProvider.autoChoice(0, Integer.MAX_VALUE, Integer.MAX_VALUE / 3), "no overflow");
        assertFalse(HybridProvider.autoChoice(1, 128, 2), "an RDMA device: UCX alone");
    }

    @Test
    void autoOrderIsAheadOfTheProxyAndBehindRdmaUcx()
    {
        assertTrue(HybridProvider.AUTO_ORDER < ProxyProvider.AUTO_ORDER, "ahead of the proxy, which stays for the peers hybrid cannot reach");
        assertTrue(HybridProvider.AUTO_ORDER > UcxProvider.RDMA_AUTO_ORDER, "behind UCX where an RDMA device lists it");
    }

    /** UCX (alone or as hybrid's half) takes the bootstrap's interface, unless the user named devices, RDMA is there, or it is loopback. */
    @Test
    void ucxUsesTheBootstrapsInterface() throws Exception
    {
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        assertNull(UcxProvider.netDevices(null, 0, loopback), "one machine: UCX's own choice");
        assertNull(UcxProvider.netDevices(null, 0, null));
        int checked = 0;
        for (final NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces()))
        {
            for (final InetAddress a : Collections.list(nic.getInetAddresses()))
            {
                if (!a.isLoopbackAddress())
                {
                    assertEquals(nic.getName(), UcxProvider.netDevices(null, 0, a), a.toString());
                    assertNull(UcxProvider.netDevices("ib0", 0, a), "UCX_NET_DEVICES set: the user's choice");
                    assertNull(UcxProvider.netDevices(null, 1, a), "an RDMA device: UCX's own choice");
                    checked++;
                }
            }
        }
        assertNull(UcxProvider.netDevices(null, 0, InetAddress.getByName("192.0.2.7")), "an address no interface has");
        System.out.println("HybridProviderTest: checked " + checked + " interface address(es)");
    }
}
