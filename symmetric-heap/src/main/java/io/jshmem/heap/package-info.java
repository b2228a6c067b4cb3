/**
 * One PE's symmetric heap and the mappings of its node-local peers' heaps.
 * <ul>
 *   <li>{@link io.jshmem.heap.HeapLayout}: the heap file's header layout (magic, version, sizes, PE, job,
 *       creator, state) and its checks.</li>
 *   <li>{@link io.jshmem.heap.HeapFile}: creates this PE's file under {@code /dev/shm} (exclusive, mode 0600,
 *       sparse), maps it as a {@link java.lang.foreign.MemorySegment}, maps peers' files after checking their
 *       headers, unlinks early so a crash leaks nothing.</li>
 *   <li>{@link io.jshmem.heap.StaleHeapFiles}: removes files whose creator died, and nothing else.</li>
 *   <li>{@link io.jshmem.heap.SymmetricAllocator}: the deterministic allocator: the same collective call
 *       sequence gives the same offsets on every PE, plus a call fingerprint to detect PEs that diverge.</li>
 * </ul>
 * Memory ordering: the header's state word is the only field read concurrently with its writing; the creator
 * stores READY with release semantics after every other field, and readers load it with acquire semantics
 * before trusting the rest. The data region carries no ordering of its own; the transports provide it.
 */
package io.jshmem.heap;
