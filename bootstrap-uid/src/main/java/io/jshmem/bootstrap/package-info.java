/**
 * How the PEs of a job find each other: the {@link io.jshmem.bootstrap.Bootstrap} contract, the
 * UID/TCP implementation after NVSHMEM's ({@link io.jshmem.bootstrap.UniqueId},
 * {@link io.jshmem.bootstrap.BootstrapRoot}, {@link io.jshmem.bootstrap.UidBootstrap}), the
 * control-channel key-value store, and launch-environment detection
 * ({@link io.jshmem.bootstrap.LaunchEnvironment}, {@link io.jshmem.bootstrap.Bootstraps}).
 * See docs/bootstrap.md for the wire protocol.
 */
package io.jshmem.bootstrap;
