/**
 * What the API puts around every backend: {@link dev.quiver.internal.backend.CheckedBackendDevice}, the
 * argument checks common to all backends, which {@link dev.quiver.Devices} applies to every device of every
 * provider; and {@link dev.quiver.internal.backend.ArenaHostHeap}, the JDK's host memory for the shared host
 * device when no CPU backend brings the C library's. Internal to Quiver: not exported.
 */
package dev.quiver.internal.backend;
