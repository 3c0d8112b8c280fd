/**
 * Arrow IPC files and streams to and from {@link dev.quiver.stream.DeviceArrayStream}s, through Arrow Java's
 * IPC readers and writers and Quiver's Arrow Java bridge: how data comes to a Flight server from disk and
 * leaves a client for it. Reading gives CPU batches without copying what Arrow Java read; writing takes
 * batches from any device, copying each to the host.
 */
package dev.quiver.flight.ipc;
