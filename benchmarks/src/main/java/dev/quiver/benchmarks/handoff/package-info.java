/**
 * The handoff of one int64 batch between two JVMs on one machine, measured side by side with the same batch
 * through Quiver's Flight on loopback: {@link dev.quiver.benchmarks.handoff.HandoffVersusFlight} (this JVM, the
 * receiver) starts {@link dev.quiver.benchmarks.handoff.HandoffOwner} (a child JVM, the owner) and prints a
 * table; the batch in host memory, or with {@code --device vulkan} on Mesa's lavapipe
 * ({@link dev.quiver.benchmarks.handoff.VulkanHandoffVersusFlight}). Mains and their helpers, not a library;
 * see {@code benchmarks/README.md} for how to run them.
 */
package dev.quiver.benchmarks.handoff;
