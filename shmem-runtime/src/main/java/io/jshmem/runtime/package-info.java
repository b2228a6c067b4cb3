/**
 * The runtime: the composition root behind {@link io.jshmem.Shmem#init()} (init sequence, the default
 * context, allocation, barriers, finalize). Users depend on this artifact and code against
 * {@code io.jshmem}.
 */
package io.jshmem.runtime;
