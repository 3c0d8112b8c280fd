/**
 * Plumbing shared by Quiver's FFM backends: {@link dev.quiver.device.ffm.VendorLibrary} loads a vendor
 * library and says which candidates were missing, or stands for the C library the JVM already has;
 * {@link dev.quiver.device.ffm.Downcalls} makes a table's downcall handles on first use;
 * {@link dev.quiver.device.ffm.ProcAddressLoader} binds a table through a vendor's loader function
 * ({@code vkGetInstanceProcAddr} and its kind), for functions whose addresses come at run time;
 * {@link dev.quiver.device.ffm.Bindings} calls entry points bound from a backend's declarative table and turns
 * result codes (returned, or written through an out-parameter as OpenCL's constructors do) into the backend's
 * exceptions; {@link dev.quiver.device.ffm.Upcalls} makes the upcall stubs of vendor callbacks; and
 * {@link dev.quiver.device.ffm.Allocations} tracks a device's live allocations;
 * {@link dev.quiver.device.ffm.EventPool} keeps the events a device made for their next record;
 * {@link dev.quiver.device.ffm.VendorDevice} is what every vendor device shares (identity, tracked
 * allocation, inter-process memory and events through {@link dev.quiver.device.ffm.VendorIpc},
 * {@link dev.quiver.device.ffm.DriverIpc} and {@link dev.quiver.device.ffm.VendorIpcEvents}), and
 * {@link dev.quiver.device.ffm.DriverDevice} what CUDA's and HIP's devices share beyond it (a current context,
 * pinned host memory, pooled events, streams and events through {@link dev.quiver.device.ffm.StreamEventCalls});
 * {@link dev.quiver.device.ffm.FixedProvider} serves devices made from an application's own native objects; and
 * {@link dev.quiver.device.ffm.HostCopy} copies host memory with the JDK or the C library's {@code memcpy},
 * whichever is faster for the size; {@link dev.quiver.device.ffm.BackendUnavailableException} says why a
 * backend cannot be used here, as its probe's reason. Internal to Quiver's backends.
 */
package dev.quiver.device.ffm;
