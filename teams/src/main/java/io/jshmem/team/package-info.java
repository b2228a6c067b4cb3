/**
 * Teams and collectives: teams as (start, stride, size) views of WORLD, their slots in the symmetric
 * heap, splits, and every collective with its algorithms, built only from the one-sided operations of
 * the WORLD default context (put, fence, signals, waits), so they run unchanged over any transport.
 * The runtime plugs in through {@link io.jshmem.team.TeamHost}. Not for applications: they use
 * {@link io.jshmem.Team}.
 */
package io.jshmem.team;
