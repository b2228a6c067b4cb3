/**
 * ISx, the scalable integer sort mini-app that OpenSHMEM papers use to show weak scaling, as a jshmem program:
 * {@link io.jshmem.examples.isx.Isx} ({@code bin/shmemrun -np 4 isx}). Every PE makes uniform random keys from
 * a per-PE seed, buckets them by destination PE, reserves room in each destination's receive buffer with a
 * fetch-add on its receive offset, puts its keys there, and counting-sorts what it received; the last
 * iteration is verified on every PE and the job-wide verdict decides every PE's exit status.
 */
package io.jshmem.examples.isx;
