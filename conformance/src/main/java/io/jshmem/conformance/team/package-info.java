/**
 * Conformance programs for teams, collectives, contexts and locks (spec 1.3, 1.4, 1.9, 1.11), run as
 * real multi-JVM jobs through shmemrun by {@code TeamsIT}.
 */
package io.jshmem.conformance.team;
