package io.jshmem.transport;

import io.jshmem.config.ShmemConfig;
import io.jshmem.config.ShmemOptions;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The registry on its own: names and ids of the providers {@link ServiceLoader} finds, {@code auto}
 * resolved to p2p followed by the providers in their automatic order, explicit lists checked against
 * the known names, and {@code SHMEM_TRANSPORT} values that name a transport twice or mix {@code auto}
 * with names refused with a message naming them. Written against whatever providers are on the class
 * path (the proxy always is), so a new provider needs no change here.
 */
class TransportsTest
{
    private static final TransportSetup SETUP = new TransportSetup(ReachabilityMapTest.gathering(0, new byte[][] {{1}}), null, null,
        ShmemConfig.of(Map.of(), null, null), c -> c, s -> { });

    private static List<TransportProvider> providers()
    {
        return ServiceLoader.load(TransportProvider.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    @Test
    void namesAreP2pThenEveryProviderOnceWithItsOwnId()
    {
        final List<String> names = Transports.names();
        assertEquals("p2p", names.get(0));
        assertTrue(names.contains("proxy"), names::toString);
        assertEquals(names.size(), new HashSet<>(names).size(), "a name listed twice: " + names);
        assertEquals(providers().size() + 1, names.size(), names::toString);
        final HashSet<Byte> ids = new HashSet<>();
        for (final TransportProvider p : providers())
        {
            assertNotNull(Transports.provider(p.name()), p.name());
            assertEquals(p.getClass(), Transports.provider(p.name()).getClass());
            assertEquals(p.name(), Transports.nameOf(p.id()), "the name of id " + p.id());
            assertTrue(p.id() != ReachabilityMap.NONE && p.id() != ReachabilityMap.P2P, p.name() + " uses a reserved id " + p.id());
            assertTrue(ids.add(p.id()), p.name() + " reuses id " + p.id());
            assertTrue(p.name().matches("[a-z][a-z0-9_]*"), "'" + p.name() + "' is not a name SHMEM_TRANSPORT can hold");
        }
        assertEquals(ReachabilityMap.PROXY, Transports.provider("proxy").id());
    }

    @Test
    void p2pAutoAndUnknownNamesHaveNoProvider()
    {
        assertNull(Transports.provider("p2p"), "p2p is built in");
        assertNull(Transports.provider("auto"));
        assertNull(Transports.provider("verbs"));
        assertNull(Transports.provider("PROXY"), "names are lower case");
        assertEquals("none", Transports.nameOf(ReachabilityMap.NONE));
        assertEquals("p2p", Transports.nameOf(ReachabilityMap.P2P));
        assertEquals("transport#99", Transports.nameOf((byte)99));
    }

    @Test
    void autoIsP2pThenTheProvidersThatVolunteerInTheirOrder()
    {
        final List<String> expected = new ArrayList<>(List.of("p2p"));
        providers().stream().filter(p -> p.autoOrder(SETUP) >= 0).sorted(Comparator.comparingInt((TransportProvider p) -> p.autoOrder(SETUP)))
            .forEach(p -> expected.add(p.name()));
        final List<String> resolved = Transports.resolve(List.of("auto"), SETUP);
        assertEquals(expected, resolved);
        assertTrue(resolved.contains("proxy"), "the proxy reaches every PE, so auto always has it: " + resolved);
        for (final TransportProvider p : providers())
        {
            assertEquals(p.autoOrder(SETUP) >= 0, resolved.contains(p.name()), p.name() + " with autoOrder " + p.autoOrder(SETUP));
        }
        assertEquals(expected, Transports.resolve(parse("AUTO"), SETUP), "the default, whatever its case");
        assertEquals(expected, Transports.resolve(parse(null), SETUP), "auto is the default");
    }

    @Test
    void anExplicitListIsKeptInItsOrder()
    {
        for (final List<String> list : List.of(List.of("p2p"), List.of("proxy"), List.of("proxy", "p2p"), List.of("p2p", "proxy")))
        {
            assertEquals(list, Transports.resolve(list, SETUP));
            assertEquals(list, Transports.resolve(parse(String.join(" , ", list).toUpperCase(java.util.Locale.ROOT)), SETUP),
                "parsed from the option");
        }
    }

    @Test
    void anUnknownNameIsRefusedNamingItAndTheKnownOnes()
    {
        for (final List<String> list : List.of(List.of("verbs"), List.of("p2p", "verbs"), List.of("proxy", "p2p", "shm_x")))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Transports.resolve(list, SETUP), list::toString);
            final String unknown = list.get(list.size() - 1);
            assertTrue(ex.getMessage().startsWith("SHMEM_TRANSPORT: '" + unknown + "' is not a transport (known: "), ex.getMessage());
            for (final String known : Transports.names())
            {
                assertTrue(ex.getMessage().contains(known), ex.getMessage() + " does not name " + known);
            }
            assertTrue(ex.getMessage().endsWith("or auto)"), ex.getMessage());
        }
    }

    @Test
    void autoMixedWithNamesIsRefused()
    {
        for (final List<String> list : List.of(List.of("auto", "proxy"), List.of("p2p", "auto")))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Transports.resolve(list, SETUP));
            assertEquals("SHMEM_TRANSPORT: 'auto' stands alone (got " + String.join(",", list) + ")", ex.getMessage());
        }
    }

    @Test
    void aNameListedTwiceOrMalformedIsRefusedBeforeResolution()
    {
        for (final String text : new String[] {"p2p,proxy,p2p", "proxy,PROXY", "auto,auto"})
        {
            final RuntimeException ex = assertThrows(RuntimeException.class, () -> parse(text), text);
            assertTrue(ex.getMessage().contains("SHMEM_TRANSPORT"), ex.getMessage());
            assertTrue(ex.getMessage().contains("is listed twice"), ex.getMessage());
        }
        for (final String text : new String[] {"p2p,,proxy", "p2p;proxy", "", "9p"})
        {
            final RuntimeException ex = assertThrows(RuntimeException.class, () -> parse(text), "'" + text + "'");
            assertTrue(ex.getMessage().contains("is not a transport name"), ex.getMessage());
        }
    }

    /**
     * Under auto a transport that cannot be made, with another after it in the list, is left out with one line and its
     * reason; forced, or last in the list, its failure fails init as before.
     */
    @Test
    void aTransportAutoChoseThatCannotBeMadeGivesWayToTheNext()
    {
        final TransportProvider failing = new TransportProvider()
        {
            @Override
            public String name()
            {
                return "failing";
            }

            @Override
            public byte id()
            {
                return 99;
            }

            @Override
            public int autoOrder(final TransportSetup setup)
            {
                return 1;
            }

            @Override
            public Transport create(final TransportSetup setup)
            {
                throw new IllegalStateException("ucp_worker_create: no usable interface");
            }
        };
        final List<String> log = new ArrayList<>();
        final TransportSetup setup = new TransportSetup(SETUP.bootstrap(), null, null, SETUP.config(), c -> c, log::add);
        final Map<String, String> unavailable = new java.util.LinkedHashMap<>();
        assertNull(TransportSet.create(failing, setup, true, unavailable));
        assertEquals(Map.of("failing", "could not be made: ucp_worker_create: no usable interface"), unavailable);
        assertEquals(1, log.size(), log::toString);
        assertTrue(log.get(0).contains("SHMEM_TRANSPORT=auto: not using failing (ucp_worker_create: no usable interface)"), log.get(0));
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> TransportSet.create(failing, setup, false,
            new java.util.LinkedHashMap<>()));
        assertEquals("ucp_worker_create: no usable interface", ex.getMessage());
    }

    private static List<String> parse(final String text)
    {
        final Map<String, String> env = text == null ? Map.of() : Map.of("SHMEM_TRANSPORT", text);
        return ShmemConfig.of(env, null, null).get(ShmemOptions.TRANSPORT);
    }
}
