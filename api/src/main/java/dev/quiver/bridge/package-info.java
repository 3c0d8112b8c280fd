/**
 * What the protocol packages ({@code dev.quiver.dlpack}, {@code dev.quiver.cai}) share beyond the API: the
 * public types ({@code DeviceArray}, {@code Devices}, {@code DeviceType}) connected to the internal machinery,
 * and the hand-off of pending work from a producer's stream to a consumer's
 * ({@link dev.quiver.bridge.StreamHandoff}). It depends on {@code dev.quiver}, and {@code dev.quiver}
 * never depends on it, so no package cycle forms. Not exported.
 */
package dev.quiver.bridge;
