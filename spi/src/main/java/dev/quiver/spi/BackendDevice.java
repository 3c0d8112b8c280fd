package dev.quiver.spi;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * One device of a backend: the vtable through which Quiver allocates, copies and synchronises.
 *
 * <p><b>Handles.</b> Device pointers, streams and events are {@link MemorySegment}s whose meaning the backend
 * documents (a host address, a {@code CUdeviceptr}, a {@code cl_mem}, ...). Callers never do arithmetic on a
 * device pointer: every method that addresses device memory takes the pointer as returned by
 * {@link #allocate} (or imported from a foreign array) plus a byte offset. {@link MemorySegment#NULL} is a
 * valid stream and means the backend's default stream.
 *
 * <p><b>Ownership.</b> What {@code allocate} and {@code createStream} return is owned by the caller, who
 * releases it exactly once with {@code free} or {@code destroyStream}. What a capability's methods return is
 * owned as that capability says.
 *
 * <p><b>Capabilities.</b> Everything beyond this core is a {@link DeviceCapability} the device may offer,
 * found with {@link #capability(Class)}: {@link DeviceEvents} (and {@link EventWaits}), {@link IpcMemory},
 * {@link IpcEvents}, {@link NativeAdoption} and {@link PinnedHostMemory}.
 *
 * <p><b>Ordering.</b> Copies are enqueued on the given stream in order and may return before they complete;
 * they are complete once {@link #synchronizeStream} on that stream returns, and host memory passed to them
 * must stay valid and unchanged until then. A backend without asynchronous copies completes them before
 * returning.
 *
 * <p><b>Threading.</b> All methods may be called from any thread, concurrently. A single stream or event is
 * not used concurrently by Quiver, but backends must not corrupt state if an application does so.
 */
public interface BackendDevice {

    /** {@return the {@code ARROW_DEVICE_*} code of this device's memory} */
    int deviceType();

    /** {@return the device id as the Arrow C Device interface spells it: {@code -1} for the CPU} */
    long deviceId();

    /** {@return a human-readable name, for example {@code "pthread-AMD EPYC (PoCL)"}} */
    String name();

    /** {@return total memory in bytes, or {@code -1} if the backend cannot tell} */
    long totalMemory();

    /**
     * {@return true if the host can read and write this device's pointers directly (CPU, pinned, managed)}
     */
    boolean hostAccessible();

    /**
     * {@return limits and facts worth showing to a user (versions, maximum allocation, ...); never null}
     */
    default Map<String, String> properties() {
        return Map.of();
    }

    // ---- memory -------------------------------------------------------------------------------

    /**
     * Allocates device memory.
     *
     * @param byteSize  bytes to allocate; {@code 0} is allowed and returns a handle that {@link #free} accepts
     * @param alignment required alignment in bytes, a power of two; backends may align more
     * @return the device pointer or handle, owned by the caller; for host-accessible memory a segment
     *         of {@code byteSize} bytes that the host may access
     * @throws DeviceException if the device is out of memory or the call fails
     */
    MemorySegment allocate(long byteSize, long alignment);

    /**
     * Frees what {@link #allocate} returned. Must be called exactly once per allocation, after all work
     * using the memory is complete. {@link MemorySegment#NULL} is ignored.
     *
     * @param pointer the pointer or handle returned by {@link #allocate}
     */
    void free(MemorySegment pointer);

    // ---- capabilities ---------------------------------------------------------------------------

    /**
     * Finds a capability this device offers beyond the required core (see {@link DeviceCapability}).
     * The default answers this device itself where its class implements {@code kind}, and empty otherwise; a
     * device that knows only at run time whether it has a capability, or that wraps another device, overrides
     * it.
     *
     * @param kind the capability's interface, for example {@code PinnedHostMemory.class}
     * @param <C>  the capability
     * @return the capability, borrowed from this device and valid as long as it; empty where the device lacks it
     */
    default <C extends DeviceCapability> java.util.Optional<C> capability(Class<C> kind) {
        return kind.isInstance(this) ? java.util.Optional.of(kind.cast(this)) : java.util.Optional.empty();
    }

    // ---- what the device is -----------------------------------------------------------------

    /** {@return what the device is, as its driver reports it; {@link HardwareKind#OTHER} where it does not say} */
    default HardwareKind hardwareKind() {
        return HardwareKind.OTHER;
    }

    /** {@return the device's compute units (OpenCL compute units, CUDA multiprocessors), or -1 if unknown} */
    default int computeUnits() {
        return -1;
    }

    /**
     * {@return the vendor library this backend loaded and calls, if it loaded one}
     * The same library for every device of a backend; the lookup stays valid for the life of the process.
     */
    default java.util.Optional<LoadedLibrary> vendorLibrary() {
        return java.util.Optional.empty();
    }

    /**
     * Lets go of what the backend keeps for reuse beyond the caller's handles (a pool of events, say), as a
     * memory pool's trim asks. Handles the caller holds stay valid. The default keeps nothing and does nothing.
     */
    default void releaseCaches() {
    }

    // ---- copies -------------------------------------------------------------------------------

    /**
     * Copies {@code source.byteSize()} bytes of host memory into device memory.
     *
     * @param source            host memory to read
     * @param destination       device pointer or handle, as allocated
     * @param destinationOffset byte offset into {@code destination}
     * @param stream            the stream to order the copy on
     */
    void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream);

    /**
     * Copies {@code destination.byteSize()} bytes of device memory into host memory.
     *
     * @param source       device pointer or handle
     * @param sourceOffset byte offset into {@code source}
     * @param destination  host memory to write
     * @param stream       the stream to order the copy on
     */
    void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream);

    /**
     * Copies between two allocations of this device.
     *
     * @param source            device pointer or handle
     * @param sourceOffset      byte offset into {@code source}
     * @param destination       device pointer or handle
     * @param destinationOffset byte offset into {@code destination}
     * @param byteCount         bytes to copy
     * @param stream            the stream to order the copy on
     */
    void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                          long destinationOffset, long byteCount, MemorySegment stream);

    // ---- streams ------------------------------------------------------------------------------

    /**
     * {@return the default stream handle, borrowed (never destroy it); {@link MemorySegment#NULL} where the
     * backend's calls take NULL for it}
     */
    default MemorySegment defaultStream() {
        return MemorySegment.NULL;
    }

    /**
     * {@return a new stream, owned by the caller, released with {@link #destroyStream}}
     */
    MemorySegment createStream();

    /**
     * Blocks the calling thread until all work enqueued on {@code stream} is complete.
     *
     * @param stream a stream of this device
     */
    void synchronizeStream(MemorySegment stream);

    /**
     * Destroys a stream made by {@link #createStream}, after its pending work completes.
     *
     * @param stream the stream
     */
    void destroyStream(MemorySegment stream);
}
