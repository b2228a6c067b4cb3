/**
 * Java ports of the tests-sos collective, team, spec-example and shmemx programs (barrier/sync,
 * broadcast, collect/fcollect, alltoall(s), reductions, scans, teams, team contexts), one class per
 * original named after it, each a {@link io.jshmem.conformance.Program} run by
 * {@link io.jshmem.conformance.Suite}; collective ports also run under every forced
 * {@code SHMEM_<COLLECTIVE>_ALGORITHM} ({@link io.jshmem.conformance.sos.coll.CollProgram#forced}).
 * {@link io.jshmem.conformance.sos.coll.CollProperties} checks teams and collectives against their
 * arithmetic definitions with seeded random cases. The list of ports, the originals that do not apply
 * and why, and the defects found are in {@code conformance/SOS-COLL.md} and
 * {@code conformance/DEFECTS-coll.md}.
 */
package io.jshmem.conformance.sos.coll;
