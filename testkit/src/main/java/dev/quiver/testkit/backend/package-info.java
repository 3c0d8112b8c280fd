/**
 * A test double of a device backend, for the tests of every Quiver module: {@link
 * dev.quiver.testkit.backend.TestDoubleProvider} serves devices of any device type code whose "device memory"
 * is host memory, whose events are tokens (or small blocks of host memory), and which record what they were
 * asked, so that tests can exercise discovery, ranking, copies, events and streams where no accelerator
 * exists. It is a test double: it never backs a claim about hardware.
 */
package dev.quiver.testkit.backend;
