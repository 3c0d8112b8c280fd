package dev.quiver.spi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * <p><b>Ownership.</b> What {@code allocate}, {@code createStream}, {@code createEvent},
 * {@code recordNewEvent}, {@code createInterProcessEvent}, {@code recordInterProcessEvent} and
 * {@code openEvent} return is owned by the caller, who releases it exactly once with {@code free},
 * {@code destroyStream} or {@code destroyEvent}; what {@code openMemory} returns is closed with its own
 * {@link ImportedMemory#close()}. Handles obtained from
 * {@link #eventFromSyncEvent} are borrowed: they stay owned by the foreign producer.
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

    // ---- events -------------------------------------------------------------------------------

    /**
     * {@return whether this device has events; when false the event methods throw
     * {@link UnsupportedOperationException} and arrays of this device carry no {@code sync_event}}
     */
    boolean supportsEvents();

    /**
     * {@return a new event handle (for example a {@code CUevent}), owned by the caller, released with
     * {@link #destroyEvent}}
     */
    default MemorySegment createEvent() {
        throw noEvents();
    }

    /**
     * Records {@code event} on {@code stream}: it completes when the work enqueued so far does.
     *
     * @param event  an event handle
     * @param stream a stream of this device
     */
    default void recordEvent(MemorySegment event, MemorySegment stream) {
        throw noEvents();
    }

    /**
     * Makes a new event and records it on {@code stream}, in one call: what {@link #createEvent} followed by
     * {@link #recordEvent} gives. A backend whose vendor API makes an event by enqueueing it (an OpenCL
     * marker) overrides this to return that event itself; the default makes exactly those two calls and
     * destroys the event if recording fails, so plugins that implement only the two keep working.
     *
     * @param stream a stream of this device
     * @return a new event, recorded, owned by the caller, released with {@link #destroyEvent}
     * @throws UnsupportedOperationException if this device has no events
     */
    default MemorySegment recordNewEvent(MemorySegment stream) {
        return recordOrDestroy(createEvent(), stream);
    }

    /**
     * Blocks the calling thread until {@code event} completes.
     *
     * @param event an event handle, owned or borrowed
     */
    default void waitEvent(MemorySegment event) {
        throw noEvents();
    }

    /**
     * Makes future work on {@code stream} wait for {@code event}, without blocking the host.
     *
     * @param stream a stream of this device
     * @param event  an event handle, owned or borrowed
     */
    default void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        throw noEvents();
    }

    /**
     * {@return true if the event has completed; never blocks}
     * @param event an event handle
     */
    default boolean isEventComplete(MemorySegment event) {
        throw noEvents();
    }

    /**
     * Destroys an event made by {@link #createEvent}.
     *
     * @param event the event handle
     */
    default void destroyEvent(MemorySegment event) {
        throw noEvents();
    }

    /**
     * Turns the {@code sync_event} field of a foreign ArrowDeviceArray (a pointer to the event, for example
     * a {@code cl_event*}) into an event handle the methods above accept. The handle is borrowed: it stays
     * owned by the producer and is valid until the array is released. The default reads one pointer-sized
     * handle at {@code syncEvent}.
     *
     * @param syncEvent the non-null {@code sync_event} pointer
     * @return the borrowed event handle
     */
    default MemorySegment eventFromSyncEvent(MemorySegment syncEvent) {
        if (!supportsEvents()) {
            throw noEvents();
        }
        return syncEvent.reinterpret(ValueLayout.ADDRESS.byteSize()).get(ValueLayout.ADDRESS, 0);
    }

    // ---- native objects and adoption -----------------------------------------------------------

    /**
     * The vendor API's objects behind this device, for applications and libraries that call the vendor API
     * themselves (their own kernels on this device's context, say). Keys are the vendor API's type names
     * ({@code "cl_context"}, {@code "CUcontext"}, {@code "VkDevice"}, ...), listed in each backend's package
     * documentation; values are raw handles (integers such as a {@code CUdevice} ordinal or a queue family
     * index are given as {@code MemorySegment.ofAddress(value)}).
     *
     * <p>The handles are borrowed: the backend owns them, they stay valid as long as the device, and the
     * caller never releases them.
     *
     * @return the handles, in a stable order; empty where the backend has none (the CPU)
     */
    default Map<String, MemorySegment> nativeHandles() {
        return Map.of();
    }

    /**
     * Accepts a stream or queue of this device that was made outside Quiver (a {@code CUstream}, a
     * {@code cl_command_queue}, ...) so that every method of this interface that takes a stream accepts
     * the handle this returns. The native object stays the caller's until {@link #forgetStream} with
     * {@code destroy} true.
     *
     * @param nativeStream the vendor API's stream or queue handle, of this device
     * @return the stream handle to pass to this device's methods (the default returns {@code nativeStream})
     * @throws IllegalArgumentException if the handle is not a stream of this device, where the backend can tell
     */
    default MemorySegment adoptStream(MemorySegment nativeStream) {
        return nativeStream;
    }

    /**
     * Undoes {@link #adoptStream}. With {@code destroy} true the native object is also released, as the
     * vendor API releases it, once the work enqueued on it completes.
     *
     * @param stream  what {@link #adoptStream} returned
     * @param destroy whether to release the native stream too
     */
    default void forgetStream(MemorySegment stream, boolean destroy) {
        if (destroy) {
            destroyStream(stream);
        }
    }

    /**
     * Accepts an event of this device that was made outside Quiver (a {@code CUevent}, a {@code cl_event},
     * ...) so that {@link #waitEvent}, {@link #streamWaitEvent}, {@link #isEventComplete} and, where the
     * vendor API allows recording an existing event, {@link #recordEvent} accept the handle this returns. The
     * native object stays the caller's until {@link #forgetEvent} with {@code destroy} true.
     *
     * @param nativeEvent the vendor API's event handle, of this device
     * @return the event handle to pass to this device's methods (the default returns {@code nativeEvent})
     * @throws UnsupportedOperationException if this device has no events
     * @throws IllegalArgumentException      if the handle is not an event of this device, where the backend can tell
     */
    default MemorySegment adoptEvent(MemorySegment nativeEvent) {
        if (!supportsEvents()) {
            throw noEvents();
        }
        return nativeEvent;
    }

    /**
     * Undoes {@link #adoptEvent}. With {@code destroy} true the native event is also released, as the vendor
     * API releases it.
     *
     * @param event   what {@link #adoptEvent} returned
     * @param destroy whether to release the native event too
     */
    default void forgetEvent(MemorySegment event, boolean destroy) {
        if (destroy) {
            destroyEvent(event);
        }
    }

    // ---- memory and events of other processes ---------------------------------------------------

    /**
     * {@return how this device's memory from {@link #allocate} reaches another process on this machine without
     * a copy; {@link IpcMechanism#NONE} (the default) where the driver offers no mechanism, and the memory is
     * copied through shared host memory instead}
     */
    default IpcMechanism ipcMechanism() {
        return IpcMechanism.NONE;
    }

    /**
     * Exports device memory for another process: the driver's handle of the allocation that holds
     * {@code pointer + offset}, and that address's offset within the allocation (driver handles name an
     * allocation's start). The memory must stay allocated until every peer closed what it opened.
     *
     * @param pointer a device pointer of this device, as allocated or imported
     * @param offset  byte offset into {@code pointer}
     * @return the handle, with the offset of {@code pointer + offset} in its allocation
     * @throws UnsupportedOperationException if {@link #ipcMechanism()} is {@link IpcMechanism#NONE} (the default)
     * @throws IllegalArgumentException      if the address is not in an allocation the mechanism can export
     * @throws DeviceException               if the driver fails
     */
    default IpcMemoryHandle exportMemory(MemorySegment pointer, long offset) {
        throw noIpc();
    }

    /**
     * Opens memory that another process exported with {@link #exportMemory}, on this device.
     *
     * @param handle a handle of this device's {@link #ipcMechanism()}, made by another process
     * @return the memory, owned by the caller, who closes it exactly once
     * @throws UnsupportedOperationException if {@link #ipcMechanism()} is {@link IpcMechanism#NONE} (the default)
     * @throws IllegalArgumentException      if the handle is of another mechanism
     * @throws DeviceException               if the driver refuses the handle (not exported, exporter gone,
     *                                       exported by this same process); the message names the driver call
     */
    default ImportedMemory openMemory(IpcMemoryHandle handle) {
        throw noIpc();
    }

    /**
     * {@return whether events of this device reach another process: whether {@link #createInterProcessEvent},
     * {@link #recordInterProcessEvent}, {@link #exportEvent} and {@link #openEvent} work (the default: no)}
     * Where true, {@link #ipcMechanism()} is a mechanism whose {@link IpcMechanism#eventHandleBytes()} is more
     * than zero, and the handles are of that mechanism.
     */
    default boolean supportsIpcEvents() {
        return false;
    }

    /**
     * Makes a new event that another process may wait on, not yet recorded ({@code cuEventCreate} with
     * {@code CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING}, and its like). Such events are never taken from or
     * given to a pool of ordinary events. Ownership as for {@link #recordInterProcessEvent}.
     *
     * @return the new event, owned by the caller, released with {@link #destroyEvent}
     * @throws UnsupportedOperationException if {@link #supportsIpcEvents()} is false (the default)
     * @throws DeviceException               if the driver fails
     */
    default MemorySegment createInterProcessEvent() {
        throw noIpcEvents();
    }

    /**
     * Makes a new event that another process may wait on, and records it on {@code stream}: it completes when
     * the work enqueued so far does. The default makes exactly the calls {@link #createInterProcessEvent} and
     * {@link #recordEvent}, and destroys the event if recording fails.
     *
     * <p><b>Ownership.</b> The caller owns the event and destroys it exactly once with {@link #destroyEvent},
     * and not before every peer destroyed what it opened from the event's handle (drivers leave a peer's use
     * of an event whose owner destroyed it undefined). The other event methods accept it; it may be recorded
     * again, and a peer's wait then waits for the latest record made before the wait was enqueued.
     *
     * @param stream a stream of this device
     * @return the new event, recorded, owned by the caller
     * @throws UnsupportedOperationException if {@link #supportsIpcEvents()} is false (the default)
     * @throws DeviceException               if the driver fails; nothing is left to destroy then
     */
    default MemorySegment recordInterProcessEvent(MemorySegment stream) {
        return recordOrDestroy(createInterProcessEvent(), stream);
    }

    /**
     * Exports an event for another process ({@code cuIpcGetEventHandle}, {@code hipIpcGetEventHandle}), so that
     * the peer's stream can wait for work of this process. Exporting gives nothing new to release; the event
     * stays the caller's.
     *
     * @param event an event of this device made by {@link #recordInterProcessEvent} or
     *              {@link #createInterProcessEvent}
     * @return the driver's handle, of this device's {@link #ipcMechanism()}
     * @throws UnsupportedOperationException if {@link #supportsIpcEvents()} is false (the default)
     * @throws DeviceException               if the driver refuses the event (one not made for sharing); the message
     *                                       names the driver call
     */
    default IpcEventHandle exportEvent(MemorySegment event) {
        throw noIpcEvents();
    }

    /**
     * Opens an event that another process exported with {@link #exportEvent}, on this device
     * ({@code cuIpcOpenEventHandle}, {@code hipIpcOpenEventHandle}). The result is an event handle that
     * {@link #waitEvent}, {@link #streamWaitEvent} and {@link #isEventComplete} accept, as a local event made
     * without timing would be.
     *
     * <p><b>Ownership.</b> The caller owns the opened event and destroys it exactly once with
     * {@link #destroyEvent}, before the exporting process destroys its own. Destroying it never destroys the
     * exporter's event.
     *
     * <p><b>Threading.</b> As for every method here, any thread; the opened event, like any event, may be waited
     * on from any thread, and a wait on it returns once the exporter's latest record made before the wait
     * completed.
     *
     * @param handle a handle of this device's {@link #ipcMechanism()}, made by another process
     * @return the opened event, owned by the caller
     * @throws UnsupportedOperationException if {@link #supportsIpcEvents()} is false (the default)
     * @throws IllegalArgumentException      if the handle is of another mechanism (checked before any driver call)
     * @throws DeviceException               if the driver refuses the handle (bytes it never made, an exporter
     *                                       gone, a handle of this same process); the message names the driver
     *                                       call
     */
    default MemorySegment openEvent(IpcEventHandle handle) {
        throw noIpcEvents();
    }

    /** Records a new event on {@code stream}, or destroys it and rethrows if recording fails. */
    private MemorySegment recordOrDestroy(MemorySegment event, MemorySegment stream) {
        try {
            recordEvent(event, stream);
        } catch (RuntimeException | Error e) {
            try {
                destroyEvent(event);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return event;
    }

    private UnsupportedOperationException noIpc() {
        return new UnsupportedOperationException("device type " + deviceType() + " (" + name()
                + ") has no inter-process mechanism for memory");
    }

    private UnsupportedOperationException noIpcEvents() {
        return new UnsupportedOperationException("device type " + deviceType() + " (" + name()
                + ") has no inter-process mechanism for events");
    }

    private UnsupportedOperationException noEvents() {
        return new UnsupportedOperationException("device type " + deviceType() + " (" + name() + ") has no events");
    }
}
