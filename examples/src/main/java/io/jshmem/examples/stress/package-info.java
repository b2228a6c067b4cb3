/**
 * The synchronization stress of issue 24: {@link io.jshmem.examples.stress.SyncStorm}, one job of barrier and sync
 * storms with puts, gets, atomics and signals between them, every result checked; and
 * {@link io.jshmem.examples.stress.SyncStress}, which runs many short such jobs on test hosts (over UCX by default)
 * with a short collective deadline, counts those that hung, and keeps their output and the PEs' jstacks.
 */
package io.jshmem.examples.stress;
