/**
 * {@code shmemrun}, jshmem's launcher (the oshrun/torchrun of jshmem): {@link io.jshmem.launch.ShmemRun}
 * starts N PE JVMs on this machine, hosts their bootstrap root, relays their output and ends the job
 * as one. See docs/bootstrap.md for the environment contract with the PEs.
 */
package io.jshmem.launch;
