/**
 * A conformance checker for other implementations of the Arrow C Device Data Interface: call a
 * producer, or hand over what one produced, and get every violation of the spec with a rule id, the
 * field path and a message.
 *
 * <p>{@link dev.quiver.check.Conformance} checks an {@code ArrowDeviceArray} (with or without its
 * {@code ArrowSchema}) or an {@code ArrowDeviceArrayStream}, then releases what it was given, checking
 * how the release callbacks behave. {@link dev.quiver.check.ConformanceReport} lists the
 * {@link dev.quiver.check.Violation}s, each naming a {@link dev.quiver.check.Rule}.
 */
package dev.quiver.check;
