package io.jshmem.transport;

/**
 * How the registry ({@link Transports}) finds and makes a remote transport: one provider per transport,
 * listed in {@code META-INF/services/io.jshmem.transport.TransportProvider} of this module and found by
 * {@link java.util.ServiceLoader}. Adding a transport is one package with its provider (and one subclass
 * of the transport contract test); nothing in the runtime changes. The p2p transport is built in: it is
 * the first tier of every operation ({@link TransportSet#p2p()}).
 * <p>
 * A provider's constructor does nothing: it is made whenever the registry is asked for the names it
 * knows. Loading a native library or reading options happens in {@link #unavailableReason} and
 * {@link #create}.
 */
public interface TransportProvider
{
    /** @return the name used in {@code SHMEM_TRANSPORT} and messages, lower case. */
    String name();

    /** @return the id the transport has in the {@link ReachabilityMap} (stable: messages and tests use it). */
    byte id();

    /**
     * @param setup what the transports of this PE are made from.
     * @return null when the transport can be used on this PE, otherwise one line saying why not and what to
     *         install (a missing native library, an unsupported version).
     */
    default String unavailableReason(TransportSetup setup)
    {
        return null;
    }

    /**
     * Where this transport stands in {@code SHMEM_TRANSPORT=auto} (the default): providers are tried in
     * increasing order after p2p; a negative value leaves the transport out of the automatic list (it is
     * used only when named).
     *
     * @param setup what the transports of this PE are made from.
     * @return the order, or -1.
     */
    int autoOrder(TransportSetup setup);

    /**
     * @return whether the transport, wherever it is made, reaches every other PE ({@link Transport#canReach}): a remote
     *         transport listed after it is then made only if some PE of the job could not make this one (or another such
     *         listed before it), since no pair would use it otherwise ({@link TransportSet#open}).
     */
    default boolean reachesEveryPeer()
    {
        return false;
    }

    /**
     * Makes the transport; it publishes its endpoint next (see {@link Transport}).
     *
     * @param setup what the transports of this PE are made from.
     * @return the transport, not yet connected.
     */
    Transport create(TransportSetup setup);
}
