package io.jshmem.bootstrap;

import io.jshmem.ConfigurationException;
import io.jshmem.config.ShmemOptions;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

/** Address choice for bootstrap sockets: interface, family, advertised address, host identity. */
final class Net
{
    private Net()
    {
    }

    /**
     * @return the address to advertise: the first address of the family on {@code ifname}, or on the
     *         first up non-loopback interface, or loopback.
     */
    static InetAddress advertised(final String ifname, final String family)
    {
        final boolean v6 = "AF_INET6".equals(family);
        try
        {
            if (ifname != null)
            {
                final NetworkInterface nif = NetworkInterface.getByName(ifname);
                if (nif == null)
                {
                    throw new ConfigurationException(ShmemOptions.BOOTSTRAP_UID_SOCK_IFNAME.envName(),
                        "no network interface named '" + ifname + "' (" + ShmemOptions.BOOTSTRAP_UID_SOCK_IFNAME.envName()
                            + "); interfaces: " + names());
                }
                final InetAddress a = first(nif, v6);
                if (a == null)
                {
                    throw new ConfigurationException(ShmemOptions.BOOTSTRAP_UID_SOCK_IFNAME.envName(),
                        "interface '" + ifname + "' has no " + family + " address (" + ShmemOptions.BOOTSTRAP_UID_SOCK_FAMILY.envName() + ")");
                }
                return a;
            }
            for (final NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces()))
            {
                if (nif.isUp() && !nif.isLoopback())
                {
                    final InetAddress a = first(nif, v6);
                    if (a != null)
                    {
                        return a;
                    }
                }
            }
            return v6 ? InetAddress.getByName("::1") : InetAddress.getByName("127.0.0.1");
        }
        catch (final SocketException | UnknownHostException ex)
        {
            throw new ConfigurationException(ShmemOptions.BOOTSTRAP_UID_SOCK_IFNAME.envName(), "cannot list interfaces: " + ex);
        }
    }

    private static InetAddress first(final NetworkInterface nif, final boolean v6)
    {
        for (final InetAddress a : Collections.list(nif.getInetAddresses()))
        {
            if (v6 ? a instanceof Inet6Address && !a.isLinkLocalAddress() : a instanceof Inet4Address)
            {
                return a;
            }
        }
        return null;
    }

    private static String names() throws SocketException
    {
        final StringBuilder sb = new StringBuilder();
        for (final NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces()))
        {
            sb.append(sb.isEmpty() ? "" : ", ").append(nif.getName());
        }
        return sb.toString();
    }

    /** Binds a listener on the wildcard address of the advertised address's family. */
    static ServerSocket listen(final InetAddress advertised, final int port) throws IOException
    {
        final ServerSocket ss = new ServerSocket();
        ss.setReuseAddress(true);
        // a backlog for a whole job arriving at once (capped by net.core.somaxconn): beyond it the kernel drops
        // SYNs and a PE's connect waits for a retransmission (1 s, then 3 s...)
        ss.bind(new InetSocketAddress(bindAddress(advertised), port), BACKLOG);
        return ss;
    }

    /** {@link #listen} for a selector: the same address and backlog, non-blocking. */
    static java.nio.channels.ServerSocketChannel listenChannel(final InetAddress advertised, final int port) throws IOException
    {
        final java.nio.channels.ServerSocketChannel ss = java.nio.channels.ServerSocketChannel.open();
        try
        {
            ss.setOption(java.net.StandardSocketOptions.SO_REUSEADDR, true);
            ss.bind(new InetSocketAddress(bindAddress(advertised), port), BACKLOG);
            ss.configureBlocking(false);
            return ss;
        }
        catch (final IOException | RuntimeException ex)
        {
            ss.close();
            throw ex;
        }
    }

    private static final int BACKLOG = 1024;

    /** The loopback address itself, else the wildcard of its family. */
    private static InetAddress bindAddress(final InetAddress advertised) throws IOException
    {
        return advertised.isLoopbackAddress() ? advertised
            : advertised instanceof Inet6Address ? InetAddress.getByName("::") : InetAddress.getByName("0.0.0.0");
    }

    /**
     * @param text {@code host:port} or {@code [v6]:port}.
     * @param what the option or variable it came from, for messages.
     */
    static InetSocketAddress parseHostPort(final String text, final String what)
    {
        final int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1)
        {
            throw new ConfigurationException(what, what + "='" + text + "' is not host:port");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]"))
        {
            host = host.substring(1, host.length() - 1);
        }
        return resolve(host, parsePort(text.substring(colon + 1), what), what);
    }

    static int parsePort(final String text, final String what)
    {
        final int port;
        try
        {
            port = Integer.parseInt(text.strip());
        }
        catch (final NumberFormatException ex)
        {
            throw new ConfigurationException(what, what + ": port '" + text + "' is not a number");
        }
        if (port < 1 || port > 65535)
        {
            throw new ConfigurationException(what, what + ": port " + port + " is outside 1..65535");
        }
        return port;
    }

    static InetSocketAddress resolve(final String host, final int port, final String what)
    {
        try
        {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        }
        catch (final UnknownHostException ex)
        {
            throw new ConfigurationException(what, what + ": cannot resolve host '" + host + "'");
        }
    }

    /** @return hostname + "/" + boot id: distinct per UTS namespace and per boot. */
    static String hostIdentity()
    {
        final String host = readFirstLine("/proc/sys/kernel/hostname");
        String name = host;
        if (name == null)
        {
            try
            {
                name = InetAddress.getLocalHost().getHostName();
            }
            catch (final UnknownHostException ex)
            {
                name = "unknown-host";
            }
        }
        final String boot = readFirstLine("/proc/sys/kernel/random/boot_id");
        return boot == null ? name : name + "/" + boot;
    }

    /** @return the machine part of a {@link #hostIdentity()}: its boot id, or the whole identity when it has none. */
    static String machineOf(final String hostIdentity)
    {
        return hostIdentity.substring(hostIdentity.lastIndexOf('/') + 1);
    }

    private static String readFirstLine(final String file)
    {
        try
        {
            final List<String> lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
            return lines.isEmpty() || lines.get(0).isBlank() ? null : lines.get(0).strip();
        }
        catch (final IOException | RuntimeException ex)
        {
            return null;
        }
    }
}
