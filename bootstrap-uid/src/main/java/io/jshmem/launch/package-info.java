/**
 * {@code shmemrun}, jshmem's launcher (the oshrun/torchrun of jshmem): {@link io.jshmem.launch.ShmemRun}
 * starts N PE JVMs on this machine (or on other hosts through a launch agent such as ssh, with
 * {@link io.jshmem.launch.RootAgent} hosting the root on the first one), hosts their bootstrap root,
 * relays their output and ends the job as one. See docs/bootstrap.md for the environment contract
 * with the PEs, docs/multihost.md for jobs on several hosts.
 */
package io.jshmem.launch;
