package io.jshmem.transport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The transport registry: the providers found by {@link ServiceLoader}, by name, and the resolution of
 * {@code SHMEM_TRANSPORT} into the ordered list a PE uses. {@code p2p} is built in (the first tier, see
 * {@link TransportSet}); every other name is a {@link TransportProvider}.
 */
public final class Transports
{
    /** The name of the built-in load/store transport. */
    public static final String P2P = "p2p";
    /** The value of {@code SHMEM_TRANSPORT} that lets the registry choose (the default). */
    public static final String AUTO = "auto";

    private static final Map<String, TransportProvider> PROVIDERS = load();

    private Transports()
    {
    }

    private static Map<String, TransportProvider> load()
    {
        final Map<String, TransportProvider> byName = new LinkedHashMap<>();
        for (final TransportProvider p : ServiceLoader.load(TransportProvider.class, Transports.class.getClassLoader()))
        {
            if (P2P.equals(p.name()) || AUTO.equals(p.name()) || byName.containsKey(p.name()))
            {
                throw new IllegalStateException("transport provider " + p.getClass().getName() + " reuses the name '" + p.name() + "'");
            }
            byName.put(p.name(), p);
        }
        return byName;
    }

    /** @return every name {@code SHMEM_TRANSPORT} accepts: p2p, then the providers' names. */
    public static List<String> names()
    {
        final List<String> names = new ArrayList<>();
        names.add(P2P);
        names.addAll(PROVIDERS.keySet());
        return names;
    }

    /** @return the provider of a remote transport, or null for p2p and unknown names. */
    public static TransportProvider provider(final String name)
    {
        return PROVIDERS.get(name);
    }

    /** @return the name of a transport id, for messages and the map's printout. */
    public static String nameOf(final byte id)
    {
        if (id == ReachabilityMap.NONE)
        {
            return "none";
        }
        if (id == ReachabilityMap.P2P)
        {
            return P2P;
        }
        for (final TransportProvider p : PROVIDERS.values())
        {
            if (p.id() == id)
            {
                return p.name();
            }
        }
        return "transport#" + id;
    }

    /**
     * Resolves the configured list: {@code auto} becomes p2p followed by the providers whose
     * {@link TransportProvider#autoOrder} is not negative, in that order; an explicit list is checked
     * against the known names.
     *
     * @param configured the parsed {@code SHMEM_TRANSPORT} (names, lower case, no duplicates).
     * @param setup      what the transports of this PE are made from.
     * @return the names in order of preference.
     * @throws IllegalArgumentException naming the unknown transport and the known ones.
     */
    public static List<String> resolve(final List<String> configured, final TransportSetup setup)
    {
        if (configured.equals(List.of(AUTO)))
        {
            final List<String> names = new ArrayList<>();
            names.add(P2P);
            PROVIDERS.values().stream()
                .filter(p -> p.autoOrder(setup) >= 0)
                .sorted(Comparator.comparingInt((TransportProvider p) -> p.autoOrder(setup)))
                .forEach(p -> names.add(p.name()));
            return List.copyOf(names);
        }
        for (final String name : configured)
        {
            if (AUTO.equals(name))
            {
                throw new IllegalArgumentException("SHMEM_TRANSPORT: 'auto' stands alone (got " + String.join(",", configured) + ")");
            }
            if (!P2P.equals(name) && !PROVIDERS.containsKey(name))
            {
                throw new IllegalArgumentException("SHMEM_TRANSPORT: '" + name + "' is not a transport (known: " +
                    String.join(", ", names()) + ", or auto)");
            }
        }
        return configured;
    }
}
