/**
 * The expert-parallel (mixture-of-experts) dispatch and combine workload of the seeds as a jshmem program:
 * {@link io.jshmem.examples.moe.Moe} ({@code bin/shmemrun -np 4 moe --verify}) with the normal (bulk,
 * counts first), low-latency (per-token put-with-signal, worst-case buffers) and collective (alltoall)
 * exchanges, bf16 or fp8 payloads and a deterministic workload every PE can check.
 */
package io.jshmem.examples.moe;
