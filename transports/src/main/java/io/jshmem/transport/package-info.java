/**
 * Transports carry one-sided operations between PEs. {@link io.jshmem.transport.P2pTransport} maps the
 * heaps of the PEs on this node (the CUDA-IPC analogue): put/get are copies into the peer's mapping and
 * atomics are hardware atomics on the peer's words. {@link io.jshmem.transport.ReachabilityMap} records
 * which transport reaches which PE, for teams and collectives to choose their algorithms.
 */
package io.jshmem.transport;
