/**
 * The jshmem conformance suite: SPMD programs, one per OpenSHMEM routine family, in the spirit of
 * tests-sos and shmemvv. Every PE runs the same {@code main} under {@code shmemrun}; each PE exits
 * {@link io.jshmem.conformance.Spmd#PASS 0} (pass), {@link io.jshmem.conformance.Spmd#SKIP 77} (skip:
 * needs more PEs, says why) or {@link io.jshmem.conformance.Spmd#FAIL 1} (fail, every failure printed
 * with its PE, routine, type, index, expected and actual value). The job's exit status is the verdict.
 */
package io.jshmem.conformance;
