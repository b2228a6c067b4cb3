/**
 * jshmem's public API: OpenSHMEM 1.6 in Java clothes.
 * <p>
 * {@link io.jshmem.Shmem#init()} starts a PE; allocation is collective and returns typed symmetric
 * handles ({@link io.jshmem.SymmetricLongs}, ...) naming the same object on every PE; one-sided
 * operations live on {@link io.jshmem.ShmemContext} and take (handle, index, pe); point-to-point
 * synchronization on the handle, since it reads this PE's own memory.
 * <p>
 * Memory-ordering words in internal accessor names follow JCTools: {@code lv} volatile load,
 * {@code la} acquire load, {@code so} ordered (release) store.
 */
package io.jshmem;
