/**
 * The host as a device: the one {@link dev.quiver.spi.BackendDevice} of host memory, shared by the API (its
 * copies to the host, tensor byte moves) and the CPU backend (which serves it as the CPU device).
 *
 * <p>Exported only to {@code dev.quiver.api} and {@code dev.quiver.device.cpu}. The package makes no
 * restricted FFM calls: what needs them (turning a raw host address into a segment, C library memory,
 * {@code memcpy}) comes from a {@link dev.quiver.spi.host.HostHeap} that those two modules install.
 */
package dev.quiver.spi.host;
