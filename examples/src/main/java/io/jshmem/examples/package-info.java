/** Small programs a newcomer runs first, e.g. {@code bin/shmemrun -np 4 --tag-output hello} (init, a collective, a put, a barrier and an atomic on every PE). */
package io.jshmem.examples;
