package dev.quiver;

import dev.quiver.spi.IpcEvents;
import dev.quiver.internal.backend.CheckedBackendDevice;
import dev.quiver.memory.MemoryPool;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Objects;

/**
 * One usable device, as a chosen backend serves it. Immutable and safe to share between threads; a device
 * lives as long as the process (backends keep their contexts).
 */
public final class Device {
    private final String provider;
    private final BackendDevice backend;
    private final DeviceType type;
    private final Devices devices;

    Device(String provider, BackendDevice backend, Devices devices) {
        this.provider = Objects.requireNonNull(provider);
        this.backend = Objects.requireNonNull(backend);
        this.devices = Objects.requireNonNull(devices);
        this.type = DeviceType.of(backend.deviceType());
    }

    /** {@return the device type of its memory} */
    public DeviceType type() {
        return type;
    }

    /** {@return the device id as the Arrow C Device interface spells it (-1 for the CPU)} */
    public long id() {
        return backend.deviceId();
    }

    /** {@return a human-readable name} */
    public String name() {
        return backend.name();
    }

    /** {@return total memory in bytes, or -1 if unknown} */
    public long totalMemory() {
        return backend.totalMemory();
    }

    /** {@return whether the host can address this device's memory} */
    public boolean isHostAccessible() {
        return backend.hostAccessible();
    }

    /** {@return what the device is, as its driver reports it; {@link DeviceKind#OTHER} where it does not say} */
    public DeviceKind kind() {
        return DeviceKind.valueOf(backend.hardwareKind().name());
    }

    /** {@return the device's compute units (OpenCL compute units, CUDA multiprocessors), or -1 if unknown} */
    public int computeUnits() {
        return backend.computeUnits();
    }

    /**
     * {@return whether the device has a feature}
     * @param feature the feature
     */
    public boolean supports(DeviceFeature feature) {
        return switch (feature) {
            case EVENTS, STREAM_ORDERED_RELEASE -> dev.quiver.internal.backend.Capabilities.hasEvents(backend);
            case HOST_ACCESS -> backend.hostAccessible();
            case PINNED_HOST_MEMORY -> pinnedHostPool().isPresent();
            case VENDOR_LIBRARY -> backend.vendorLibrary().isPresent();
        };
    }

    /** {@return every feature the device has, in declaration order} */
    public java.util.Set<DeviceFeature> features() {
        java.util.Set<DeviceFeature> features = java.util.EnumSet.noneOf(DeviceFeature.class);
        for (DeviceFeature feature : DeviceFeature.values()) {
            if (supports(feature)) {
                features.add(feature);
            }
        }
        return java.util.Collections.unmodifiableSet(features);
    }

    /**
     * The vendor library this device's backend loaded and calls, for code with bindings of its own: binding to
     * it instead of loading the library again keeps one driver in the process, the one Quiver chose (which
     * {@code quiver.opencl.library}, {@code quiver.cuda.library} and the like may have set). Each backend's
     * package documentation says which library it is.
     *
     * @return the library, or empty where the backend loaded none (the CPU)
     */
    public java.util.Optional<VendorLibrary> vendorLibrary() {
        return backend.vendorLibrary().map(l -> new VendorLibrary(l.name(), l.path(), l.lookup()));
    }

    /** {@return how this device's memory reaches another process on this machine, as its backend offers it} */
    public InterProcessMemory interProcessMemory() {
        dev.quiver.spi.IpcMechanism mechanism = dev.quiver.internal.backend.Capabilities.ipcMechanism(backend);
        return new InterProcessMemory(mechanism.name(), mechanism.description(), mechanism.handleBytes(),
                mechanism.eventHandleBytes() > 0 && backend.capability(IpcEvents.class).isPresent());
    }

    /** {@return limits and facts the backend reports} */
    public Map<String, String> properties() {
        return backend.properties();
    }

    /** @return the set of devices this device was found in, which arrays built on it use for their events and copies */
    Devices devices() {
        return devices;
    }

    /** {@return the name of the provider serving this device} */
    public String provider() {
        return provider;
    }

    /**
     * The checked backend behind this device, for the API's own classes; others reach it through
     * {@link dev.quiver.plugin.Backends#of(Device)}.
     *
     * @return the SPI view of this device
     */
    BackendDevice backend() {
        return backend;
    }

    /** {@return the device's default stream, borrowed: closing it does nothing} */
    public DeviceStream defaultStream() {
        return DeviceStream.defaultOf(this);
    }

    /** {@return a new stream, owned by the caller, who closes it} */
    public DeviceStream createStream() {
        return DeviceStream.created(this);
    }

    /**
     * Wraps a stream or queue of this device made outside Quiver (by the application or another library)
     * so that every Quiver operation taking a stream accepts it.
     *
     * @param nativeStream the vendor API's stream handle (a {@code CUstream}, {@code cl_command_queue}, ...)
     * @param owned        true to hand the native stream over: closing the returned stream releases it;
     *                     false to keep it: closing only forgets it
     * @return the stream, owned by the caller, who closes it
     * @throws IllegalArgumentException if the handle is not a stream of this device, where the backend can tell
     */
    public DeviceStream adoptStream(MemorySegment nativeStream, boolean owned) {
        return DeviceStream.adopted(this, nativeStream, owned);
    }

    /**
     * Wraps an event of this device made outside Quiver, so that streams can wait on it and arrays can carry
     * it as their {@code sync_event}.
     *
     * @param nativeEvent the vendor API's event handle (a {@code CUevent}, {@code cl_event}, ...)
     * @param owned       true to hand the event over: closing the returned event, or the release of an array
     *                    it moved into, destroys it; false to keep it: closing only forgets it (such an
     *                    event cannot move into an array)
     * @return the event, owned by the caller, who closes it (or moves it into an array)
     * @throws UnsupportedOperationException if this device has no events
     * @throws IllegalArgumentException      if the handle is not an event of this device, where the backend can tell
     */
    public SyncEvent adoptEvent(MemorySegment nativeEvent, boolean owned) {
        java.util.Objects.requireNonNull(nativeEvent, "nativeEvent");
        dev.quiver.spi.DeviceEvents events = dev.quiver.internal.backend.Capabilities.events(backend);
        MemorySegment handle = events.adoptEvent(nativeEvent);
        return SyncEvent.ofHandle(type(), id(), backend, handle, () -> events.forgetEvent(handle, owned), owned);
    }

    /**
     * {@return the memory pool every allocation on this device goes through: {@link #allocate}, the buffers of
     * copies to this device, and, for the CPU, host copies of arrays; its statistics, limits and allocator}
     */
    public MemoryPool memoryPool() {
        return CheckedBackendDevice.of(backend).pool();
    }

    /**
     * The pool of host memory pinned for this device (page-locked for its DMA engines), which host copies of
     * its arrays and staged copies use as the {@link dev.quiver.memory.PinnedHostPolicy} in force says.
     *
     * @return the pool, made on first use; empty where the backend has no pinned host memory
     */
    public java.util.Optional<MemoryPool> pinnedHostPool() {
        CheckedBackendDevice view = CheckedBackendDevice.of(backend).pinnedHostView();
        return view == null ? java.util.Optional.empty() : java.util.Optional.of(view.pool());
    }

    /**
     * Allocates memory on this device, aligned to 64 bytes, from its {@linkplain #memoryPool() pool}.
     *
     * @param byteSize bytes to allocate; 0 is allowed
     * @return the memory, owned by the caller, who closes it or moves it into an array
     * @throws IllegalArgumentException if {@code byteSize} is negative
     * @throws DeviceOutOfMemoryException if the device (or its pool's limit) cannot serve the request
     * @throws DriverException            if the driver fails otherwise
     */
    public DeviceBuffer allocate(long byteSize) {
        return DeviceBuffer.allocate(this, byteSize, 64);
    }

    /**
     * Allocates memory on this device.
     *
     * @param byteSize  bytes to allocate; 0 is allowed
     * @param alignment a power of two; backends may align more
     * @return the memory, owned by the caller, who closes it or moves it into an array
     * @throws IllegalArgumentException if {@code byteSize} is negative or {@code alignment} not a power of two
     * @throws DeviceOutOfMemoryException if the device (or its pool's limit) cannot serve the request
     * @throws DriverException            if the driver fails otherwise
     */
    public DeviceBuffer allocate(long byteSize, long alignment) {
        return DeviceBuffer.allocate(this, byteSize, alignment);
    }

    /**
     * Wraps memory of this device that the caller allocated some other way (a kernel library, another
     * runtime), so that it can move into an array; {@code release} frees it.
     *
     * @param pointer  the pointer or handle, as arrays of this device hold it
     * @param byteSize its size in bytes, or -1 if unknown
     * @param release  runs exactly once, on the thread that lets go last (the buffer's close, or the release
     *                 of the array it moved into); must not throw
     * @return the buffer, owned by the caller
     * @throws NullPointerException     if {@code pointer} or {@code release} is null
     * @throws IllegalArgumentException if {@code pointer} is NULL or Java heap memory, {@code byteSize} is
     *                                  below -1, or more than the size of a sized {@code pointer} segment;
     *                                  {@code release} does not run then
     */
    public DeviceBuffer wrap(MemorySegment pointer, long byteSize, Runnable release) {
        return DeviceBuffer.wrap(this, pointer, byteSize, release);
    }

    /**
     * The vendor API's objects behind this device, for calling the vendor API directly (running one's own
     * kernels on this device's context, say). Keys are the vendor's type names, listed in each backend's
     * package documentation: OpenCL {@code cl_platform_id}, {@code cl_context}, {@code cl_device_id},
     * {@code cl_command_queue}; CUDA {@code CUdevice}, {@code CUcontext}; Vulkan {@code VkInstance},
     * {@code VkPhysicalDevice}, {@code VkDevice}, {@code VkQueue}, {@code queueFamilyIndex}; and so on.
     * The handles are borrowed: valid as long as the device, never released by the caller.
     *
     * @return the handles; empty for the CPU
     */
    public Map<String, MemorySegment> nativeHandles() {
        return dev.quiver.internal.backend.Capabilities.adoption(backend).nativeHandles();
    }

    /**
     * {@return the handle, borrowed}
     * @param name a key of {@link #nativeHandles()}, such as {@code "cl_context"}
     * @throws java.util.NoSuchElementException naming the handles this device has
     */
    public MemorySegment nativeHandle(String name) {
        Map<String, MemorySegment> handles = nativeHandles();
        MemorySegment handle = handles.get(name);
        if (handle == null) {
            throw new java.util.NoSuchElementException(this + " has no native handle \"" + name + "\"; it has "
                    + handles.keySet());
        }
        return handle;
    }

    @Override
    public String toString() {
        return type + ":" + id() + " " + name() + " [" + provider + "]";
    }
}
