/**
 * Connects the public types ({@code DeviceArray}, {@code Devices}, {@code DeviceType}) to the internal
 * machinery, for the protocol packages ({@code dev.quiver.dlpack}, {@code dev.quiver.cai}). It depends on
 * {@code dev.quiver}, and {@code dev.quiver} never depends on it, so no package cycle forms. Not exported.
 */
package dev.quiver.internal.bridge;
