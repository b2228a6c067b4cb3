/**
 * The {@code hybrid} transport: the proxy and UCX to the same peers, each operation through the one that is faster
 * at it between hosts, with one atomicity domain and OpenSHMEM's ordering across the two.
 */
package io.jshmem.transport.hybrid;
