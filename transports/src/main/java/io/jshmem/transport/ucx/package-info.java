/**
 * The UCX transport: one-sided operations through libucp (UCX 1.13 or newer) bound with
 * {@code java.lang.foreign}: RDMA verbs on InfiniBand/RoCE/EFA clusters, tcp and shared memory elsewhere.
 * {@link io.jshmem.transport.ucx.UcxProvider} is its registry entry; see docs/transports.md.
 */
package io.jshmem.transport.ucx;
