/**
 * The backend contract: what a device plugin implements so that Quiver can use one kind of device.
 *
 * <p>The contract is the Java form of a C device vtable (compare nanoarrow's {@code struct ArrowDevice}):
 * device types are {@code int} codes (the {@code ARROW_DEVICE_*} values of the Arrow C Device Data
 * Interface, listed in {@link dev.quiver.spi.DeviceTypeCodes}), device ids are {@code long}, and device
 * pointers, streams and events are {@link java.lang.foreign.MemorySegment} handles whose meaning each backend
 * documents. The contract knows nothing about Arrow layouts; the API module builds all Arrow logic on top.
 *
 * <p>A plugin is found with {@link java.util.ServiceLoader}: it declares
 * {@code provides dev.quiver.spi.DeviceProvider with ...} in its module-info and lists the same class in
 * {@code META-INF/services/dev.quiver.spi.DeviceProvider} for the class path.
 *
 * <p>A device implements a small required core ({@link dev.quiver.spi.BackendDevice}: identity, allocation,
 * copies, streams) and offers more as capabilities ({@link dev.quiver.spi.DeviceCapability}), which callers
 * find with {@link dev.quiver.spi.BackendDevice#capability(Class)}: {@link dev.quiver.spi.DeviceEvents} (and
 * {@link dev.quiver.spi.EventWaits}), {@link dev.quiver.spi.IpcMemory}, {@link dev.quiver.spi.IpcEvents},
 * {@link dev.quiver.spi.NativeAdoption} and {@link dev.quiver.spi.PinnedHostMemory}.
 *
 * <p>Optionally a backend hands its memory to another process on the same machine without a copy
 * ({@link dev.quiver.spi.IpcMemory}): it names its driver mechanism ({@link dev.quiver.spi.IpcMechanism}), exports the allocation holding a pointer as an
 * {@link dev.quiver.spi.IpcMemoryHandle} (the driver's handle of the allocation plus the pointer's offset in
 * it) and opens a peer's handle as {@link dev.quiver.spi.ImportedMemory}, which its opener closes once.
 *
 * <p>Rules every backend follows:
 * <ul>
 *   <li>No native work at class initialisation or construction; {@link dev.quiver.spi.DeviceProvider#probe()}
 *       is the first place a backend may load a native library, and it never throws.</li>
 *   <li>Never do pointer arithmetic on a handle that is not host addressable (OpenCL {@code cl_mem}, Vulkan
 *       buffers, Metal buffers): offsets travel beside the handle, as the copy methods show.</li>
 *   <li>Failures of the vendor API are reported as {@link dev.quiver.spi.DeviceException} with the vendor's
 *       error name.</li>
 * </ul>
 */
package dev.quiver.spi;
