/**
 * Validation of imported structs: the schema reader (and the cache that gives a schema read before its
 * field again, by content), the structural array validator (counts, lengths, offsets, buffer presence) and
 * the full validator (buffer contents). Faults are described neutrally
 * ({@link dev.quiver.internal.validate.Fault}) and sent to a {@link dev.quiver.internal.validate.Faults}
 * sink chosen by the caller: import throws its own exception at the first fault, the conformance checker
 * collects every fault under its rule ids. Not exported from the module, except to the conformance checker.
 */
package dev.quiver.internal.validate;
