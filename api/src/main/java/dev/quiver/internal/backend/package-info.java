/**
 * What the API puts around every backend, and the host as one of them:
 * {@link dev.quiver.internal.backend.CheckedBackendDevice}, the argument checks common to all backends, which
 * {@link dev.quiver.Devices} applies to every device of every provider; and
 * {@link dev.quiver.internal.backend.HostMemory}, the shared host device behind those checks, which the API
 * copies to the host with, and which gets the JDK's memory (a package-private heap) when no CPU backend brings
 * the C library's. Internal to Quiver: not exported.
 */
package dev.quiver.internal.backend;
