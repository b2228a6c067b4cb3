/** Small programs a newcomer runs first, e.g. {@code bin/shmemrun -np 4 --tag-output hello}. */
package io.jshmem.examples;
