/**
 * Java ports of examples of the OpenSHMEM specification that no public test suite carries as a
 * program, made self-checking: each computes what the example's communication must leave behind
 * and compares. They run under {@link io.jshmem.conformance.Suite} like the tests-sos ports.
 */
package io.jshmem.conformance.spec;
