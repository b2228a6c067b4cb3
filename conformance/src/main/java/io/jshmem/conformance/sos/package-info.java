/**
 * Java ports of the tests-sos {@code test/unit} programs for setup and query, memory management, RMA,
 * atomics, signals, point-to-point synchronization, ordering, locks, contexts, threads and global
 * exit. Each class is named after its original ({@code put_nbi.c} → {@code PutNbi}), says which one it
 * follows ({@link io.jshmem.conformance.Program#follows()}) and runs under
 * {@link io.jshmem.conformance.Suite}. C11-generic and typed variants of an original become loops over
 * the Java element types; C static symmetric variables become symmetric allocations.
 */
package io.jshmem.conformance.sos;
