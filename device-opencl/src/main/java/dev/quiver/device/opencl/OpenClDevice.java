package dev.quiver.device.opencl;

import dev.quiver.device.ffm.Allocations;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.NativeAdoption;
import dev.quiver.spi.PinnedHostMemory;
import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One OpenCL device with a context and a default in-order command queue.
 *
 * <p><b>Handles.</b> Device pointers are {@code cl_mem} buffer handles (never addresses; offsets travel
 * beside them), read-write, at least one byte, aligned to {@code CL_DEVICE_MEM_BASE_ADDR_ALIGN}, the
 * largest alignment {@link #allocate} accepts. Streams are in-order {@code cl_command_queue}s:
 * {@link #defaultStream()} is the device's queue and {@link MemorySegment#NULL} means the same;
 * {@link #createStream()} makes another queue on the same context; {@link #adoptStream} accepts one made
 * outside Quiver. Events are {@code cl_event}s of the device's context: markers from {@link #recordNewEvent},
 * made by {@link #createEvent()} (see the package documentation for how it and {@link #recordEvent} map
 * onto OpenCL markers), adopted with
 * {@link #adoptEvent}, or borrowed from a {@code sync_event}. {@link #nativeHandles()} gives the platform,
 * context, device and default queue.
 *
 * <p><b>Ownership.</b> Devices from {@link OpenClProvider} belong to the provider and live as long as the
 * process; closing them does nothing. Devices from {@link OpenClDevices#adopt} hold one reference to the
 * application's context and queue, and belong to the caller, who closes them once, from any thread, after
 * the work enqueued through them is complete: {@link #close()} releases those two references. After close,
 * only {@link #free}, {@link #destroyStream}, {@link #destroyEvent}, {@link #forgetStream} and
 * {@link #forgetEvent} still work, so that what was made or adopted through the device can still be
 * released; every other method throws {@link IllegalStateException}. Queues and events adopted through the
 * device stay retained until forgotten, also after close.
 *
 * <p><b>Threading.</b> All methods may be called from any thread, concurrently; OpenCL calls are
 * thread-safe. Copies are non-blocking: host memory given to them must stay valid until the queue is
 * synchronized.
 */
public final class OpenClDevice implements BackendDevice, PinnedHostMemory, DeviceEvents, NativeAdoption, AutoCloseable {
    private final OpenCl cl;
    private final ClDeviceInfo info;
    private final MemorySegment context;
    private final boolean adopted;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Allocations allocations = new Allocations();
    private final ClQueues queues;
    private final ClEvents events;
    private final ClMappedBuffers mappedBuffers;
    /** What the device is, read on first use; null until then. */
    private volatile dev.quiver.spi.HardwareKind hardwareKind;

    OpenClDevice(OpenCl cl, ClDeviceInfo info, MemorySegment context, MemorySegment queue, boolean adopted) {
        this.cl = cl;
        this.info = info;
        this.context = context;
        this.adopted = adopted;
        this.queues = new ClQueues(cl, info, context, queue);
        this.events = new ClEvents(cl, info.displayName(), context);
        this.mappedBuffers = new ClMappedBuffers(cl, context, queue, toString());
    }

    /** @return {@code ARROW_DEVICE_OPENCL} */
    @Override
    public int deviceType() {
        return DeviceTypeCodes.OPENCL;
    }

    /** @return the device's index over all platforms' devices, in the order the ICD loader lists them */
    @Override
    public long deviceId() {
        return info.id();
    }

    /** @return the device name and, in parentheses, its platform */
    @Override
    public String name() {
        return info.displayName();
    }

    /** @return {@code CL_DEVICE_GLOBAL_MEM_SIZE} */
    @Override
    public long totalMemory() {
        return info.globalMemory();
    }

    /**
     * @return from {@code CL_DEVICE_TYPE}, and for a GPU {@code CL_DEVICE_HOST_UNIFIED_MEMORY} (a GPU that shares
     *         host memory is an integrated one; a platform that does not answer it has a discrete one)
     */
    @Override
    public dev.quiver.spi.HardwareKind hardwareKind() {
        dev.quiver.spi.HardwareKind kind = hardwareKind;
        if (kind == null) {
            boolean unified;
            try {
                unified = ClInfo.uint(cl.info(ClFunction.clGetDeviceInfo), info.device(), ClConstants.CL_DEVICE_HOST_UNIFIED_MEMORY,
                        "clGetDeviceInfo(CL_DEVICE_HOST_UNIFIED_MEMORY)") != 0;
            } catch (OpenClException e) {
                unified = false;
            }
            kind = info.hardwareKind(unified);
            hardwareKind = kind;   // a fact of the device: asked once (racing threads compute the same)
        }
        return kind;
    }

    /** @return {@code CL_DEVICE_MAX_COMPUTE_UNITS} */
    @Override
    public int computeUnits() {
        return info.computeUnits();
    }

    /** @return the OpenCL library this backend loaded (the ICD loader, or {@code quiver.opencl.library}) */
    @Override
    public java.util.Optional<dev.quiver.spi.LoadedLibrary> vendorLibrary() {
        return java.util.Optional.of(cl.loaded());
    }

    /** @return false: {@code cl_mem} handles are not host addresses, whatever memory backs them */
    @Override
    public boolean hostAccessible() {
        return false;
    }

    /** @return platform, vendor, versions, device type, compute units, clock, memory sizes, alignment */
    @Override
    public Map<String, String> properties() {
        Map<String, String> properties = info.properties();
        if (adopted) {
            properties.put("context", "adopted");
        }
        return properties;
    }

    // ---- raw handles --------------------------------------------------------------------------

    /** {@return the {@code cl_context}, borrowed: valid while this device is open} */
    public MemorySegment context() {
        checkOpen();
        return context;
    }

    /** {@return the {@code cl_device_id}, borrowed} */
    public MemorySegment clDevice() {
        return info.device();
    }

    /** {@return the {@code cl_platform_id}, borrowed} */
    public MemorySegment platform() {
        return info.platform();
    }

    /** {@return true if this device wraps an application's context and queue (see {@link OpenClDevices#adopt})} */
    public boolean isAdopted() {
        return adopted;
    }

    /** @return what OpenCL reported about this device when it was opened */
    ClDeviceInfo info() {
        return info;
    }

    // ---- memory -------------------------------------------------------------------------------

    /**
     * Creates a read-write {@code cl_mem} buffer, at least one byte (OpenCL has no empty buffers), whose device
     * address is aligned to {@code CL_DEVICE_MEM_BASE_ADDR_ALIGN}.
     *
     * @return the {@code cl_mem} handle as a zero-length segment, owned by the caller, released with {@link #free}
     * @throws IllegalArgumentException if {@code byteSize} is negative, or {@code alignment} is not a power of
     *                                  two up to {@code CL_DEVICE_MEM_BASE_ADDR_ALIGN}
     * @throws IllegalStateException    if this adopted device is closed
     * @throws OpenClException          if OpenCL refuses, for example {@code CL_INVALID_BUFFER_SIZE} above
     *                                  {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE}
     */
    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        Allocations.checkAlignment(alignment, info.baseAlignment(), "CL_DEVICE_MEM_BASE_ADDR_ALIGN of " + name());
        MemorySegment buffer = cl.createBuffer(context(), Math.max(byteSize, 1));
        allocations.add(buffer);
        return buffer;
    }

    /**
     * Releases a buffer from {@link #allocate}; OpenCL frees it once enqueued work using it is done. Works
     * after close.
     *
     * @throws IllegalArgumentException if this device did not allocate {@code pointer} or it was freed already
     */
    @Override
    public void free(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return;
        }
        allocations.remove(pointer, this);
        cl.releaseMemObject(pointer);
    }

    // ---- pinned host memory -----------------------------------------------------------------

    /** {@return true for GPUs and accelerators, whose transfers from mapped {@code CL_MEM_ALLOC_HOST_PTR} memory avoid a bounce} */
    @Override
    public boolean pinsHostMemory() {
        return (info.type() & (ClConstants.CL_DEVICE_TYPE_GPU | ClConstants.CL_DEVICE_TYPE_ACCELERATOR)) != 0;
    }

    /**
     * A buffer made with {@code CL_MEM_ALLOC_HOST_PTR} and mapped for reading and writing for as long as it
     * lives: the host memory the implementation can move fastest (pinned, on GPU implementations).
     */
    @Override
    public MemorySegment allocateHost(long byteSize, long alignment) {
        checkOpen();
        return mappedBuffers.allocateMapped(byteSize, alignment);
    }

    @Override
    public void freeHost(MemorySegment memory) {
        mappedBuffers.unmapAndRelease(memory);
    }

    // ---- copies -------------------------------------------------------------------------------

    /** Enqueues {@code clEnqueueWriteBuffer} (non-blocking) at {@code destinationOffset} of the {@code cl_mem}. */
    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        cl.enqueueWrite(queueOf(stream), destination, destinationOffset, source);
    }

    /** Enqueues {@code clEnqueueReadBuffer} (non-blocking) from {@code sourceOffset} of the {@code cl_mem}. */
    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        cl.enqueueRead(queueOf(stream), source, sourceOffset, destination);
    }

    /** Enqueues {@code clEnqueueCopyBuffer} between two {@code cl_mem}s of this device's context. */
    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        cl.enqueueCopy(queueOf(stream), source, sourceOffset, destination, destinationOffset, byteCount);
    }

    // ---- streams ------------------------------------------------------------------------------

    /** @return the device's default {@code cl_command_queue}, borrowed */
    @Override
    public MemorySegment defaultStream() {
        return queues().defaultQueue();
    }

    /** @return a new in-order {@code cl_command_queue} on this device's context, owned by the caller */
    @Override
    public MemorySegment createStream() {
        return queues().create();
    }

    /** {@code clFinish} on the queue: the default one, one from {@link #createStream()}, or an adopted one. */
    @Override
    public void synchronizeStream(MemorySegment stream) {
        cl.finish(queueOf(stream));
    }

    /**
     * {@code clFinish}, then {@code clReleaseCommandQueue}, on a queue from {@link #createStream()}.
     *
     * @throws IllegalArgumentException if {@code stream} is not a live queue from {@link #createStream()}
     *                                  (adopted queues are given back with {@link #forgetStream})
     */
    @Override
    public void destroyStream(MemorySegment stream) {
        queues.destroy(stream);
    }

    // ---- events -------------------------------------------------------------------------------

    /**
     * @return a new {@code cl_event} (a user event of this device's context) that completes once the
     *         marker of {@link #recordEvent} does; owned by the caller, released with {@link #destroyEvent}
     */
    @Override
    public MemorySegment createEvent() {
        return events().createUserEvent();
    }

    /**
     * Enqueues a marker ({@code clEnqueueMarkerWithWaitList}) on the queue (the default one, one from
     * {@link #createStream()}, or an adopted one) and makes {@code event} complete when it does, then
     * flushes the queue so the marker is submitted. An OpenCL event completes once, so each event is recorded
     * at most once; and an event made outside Quiver is the completion of a command already enqueued (or a
     * user event its maker completes), so adopted events cannot be recorded at all.
     *
     * @throws IllegalArgumentException if {@code event} is adopted, or was not made by {@link #createEvent()}
     *                                  of this device
     * @throws IllegalStateException    if {@code event} was recorded before
     */
    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        events.record(event, queueOf(stream));
    }

    /**
     * Enqueues a marker ({@code clEnqueueMarkerWithWaitList}) on the queue (the default one, one from
     * {@link #createStream()}, or an adopted one), flushes the queue, and returns the marker's event: a plain
     * {@code cl_event} that completes when the work enqueued before it does, with no user event or
     * completion callback in between. Like an event from {@link #createEvent()} it is owned by the caller,
     * released with {@link #destroyEvent}, and cannot be recorded again.
     */
    @Override
    public MemorySegment recordNewEvent(MemorySegment stream) {
        return events.recordNew(queueOf(stream));
    }

    /**
     * {@code clWaitForEvents} on the event: one made here and recorded, an adopted one, or one borrowed
     * from an array's {@code sync_event}.
     *
     * @throws IllegalStateException if the event was made here and never recorded (it would never complete)
     * @throws OpenClException       with {@code CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST} if its work failed
     */
    @Override
    public void waitEvent(MemorySegment event) {
        events.waitFor(event);
    }

    /**
     * {@code clEnqueueBarrierWithWaitList} on the queue (default, created or adopted), waiting for the event
     * (made here and recorded, adopted, or borrowed from a {@code sync_event}).
     */
    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        events.enqueueWait(queueOf(stream), event);
    }

    /**
     * @return whether {@code CL_EVENT_COMMAND_EXECUTION_STATUS} is {@code CL_COMPLETE}, for any event this
     *         device accepts
     * @throws OpenClException naming the error status if the event's work terminated abnormally
     */
    @Override
    public boolean isEventComplete(MemorySegment event) {
        return events.hasCompleted(event);
    }

    /**
     * {@code clReleaseEvent} on an event from {@link #createEvent()} or {@link #recordNewEvent}.
     *
     * @throws IllegalArgumentException if {@code event} is not a live event from {@link #createEvent()} or
     *                                  {@link #recordNewEvent}
     *                                  (adopted events are given back with {@link #forgetEvent})
     */
    @Override
    public void destroyEvent(MemorySegment event) {
        events.destroy(event);
    }

    /**
     * @param syncEvent the {@code sync_event} of an OPENCL array: a {@code cl_event*}
     * @return the {@code cl_event} it points to, borrowed from the array's producer
     */
    @Override
    public MemorySegment eventFromSyncEvent(MemorySegment syncEvent) {
        return ClEvents.fromSyncEvent(syncEvent);
    }

    // ---- native objects and adoption -----------------------------------------------------------

    /**
     * The OpenCL objects behind this device, in this order: {@code cl_platform_id}, {@code cl_context},
     * {@code cl_device_id} and {@code cl_command_queue} (the default queue). They are borrowed: this device
     * owns them, they stay valid while it is open (for devices from {@link OpenClProvider}, for the life of
     * the process), and the caller never releases them. An application may retain them
     * ({@code clRetainContext}, ...) to keep them longer, and may make its own queues and events on the
     * context and device, then hand them over with {@link #adoptStream} and {@link #adoptEvent}.
     *
     * @throws IllegalStateException if this adopted device is closed
     */
    @Override
    public Map<String, MemorySegment> nativeHandles() {
        checkOpen();
        Map<String, MemorySegment> handles = new LinkedHashMap<>();
        handles.put("cl_platform_id", info.platform());
        handles.put("cl_context", context);
        handles.put("cl_device_id", info.device());
        handles.put("cl_command_queue", queues.defaultQueue());
        return Collections.unmodifiableMap(handles);
    }

    /**
     * Accepts a {@code cl_command_queue} made outside Quiver as a stream of this device: every method that
     * takes a stream then takes it (copies, {@link #synchronizeStream}, {@link #recordEvent},
     * {@link #streamWaitEvent}). Checks with {@code clGetCommandQueueInfo} that the queue belongs to this
     * device's context ({@code CL_QUEUE_CONTEXT}) and device ({@code CL_QUEUE_DEVICE}) and is in order, then
     * retains it ({@code clRetainCommandQueue}) until {@link #forgetStream}: the caller keeps its own
     * reference and may release it whenever it likes.
     *
     * @param nativeStream a {@code cl_command_queue}
     * @return the stream handle: the queue itself
     * @throws IllegalArgumentException if the queue is NULL, belongs to another
     *                                  context or device, or is out-of-order; nothing is retained then
     * @throws IllegalStateException    if this adopted device is closed
     */
    @Override
    public MemorySegment adoptStream(MemorySegment nativeStream) {
        return queues().adopt(nativeStream);
    }

    /**
     * Undoes {@link #adoptStream}: releases the reference it took. With {@code destroy} true it also waits
     * for the queue's work ({@code clFinish}) and releases the reference the caller held when adopting, which
     * destroys the queue unless other code retained it. Works after close.
     *
     * @throws IllegalArgumentException if {@code stream} is not a queue adopted by this device
     */
    @Override
    public void forgetStream(MemorySegment stream, boolean destroy) {
        queues.forget(stream, destroy);
    }

    /**
     * Accepts a {@code cl_event} made outside Quiver (a user event, a marker, the event of any command of
     * this device's context): {@link #waitEvent}, {@link #streamWaitEvent} and {@link #isEventComplete} take
     * it. Checks with {@code clGetEventInfo(CL_EVENT_CONTEXT)} that it belongs to this device's context, then
     * retains it ({@code clRetainEvent}) until {@link #forgetEvent}. An OpenCL event is the completion of one
     * command and completes once, so {@link #recordEvent} refuses an adopted event: record an event from
     * {@link #createEvent()} instead.
     *
     * @param nativeEvent a {@code cl_event}
     * @return the event handle: the event itself
     * @throws IllegalArgumentException if the event is NULL, or belongs to
     *                                  another context; nothing is retained then
     * @throws IllegalStateException    if this adopted device is closed
     */
    @Override
    public MemorySegment adoptEvent(MemorySegment nativeEvent) {
        return events().adopt(nativeEvent);
    }

    /**
     * Undoes {@link #adoptEvent}: releases the reference it took and, with {@code destroy} true, the reference
     * the caller held when adopting. Works after close.
     *
     * @throws IllegalArgumentException if {@code event} is not an event adopted by this device
     */
    @Override
    public void forgetEvent(MemorySegment event, boolean destroy) {
        events.forget(event, destroy);
    }

    // ---- lifetime -----------------------------------------------------------------------------

    /**
     * For an adopted device, releases its references to the application's queue and context, once; later
     * calls do nothing. For a device from {@link OpenClProvider}, does nothing.
     */
    @Override
    public void close() {
        if (adopted && closed.compareAndSet(false, true)) {
            try {
                cl.releaseQueue(queues.defaultQueue());
            } finally {
                cl.releaseContext(context);
            }
        }
    }

    @Override
    public String toString() {
        return "OpenCL device " + info.id() + " " + name() + (adopted ? " (adopted)" : "");
    }

    private MemorySegment queueOf(MemorySegment stream) {
        return queues().resolve(stream);
    }

    /** {@return the queues, for work that needs the device open (what works after close uses the field)} */
    private ClQueues queues() {
        checkOpen();
        return queues;
    }

    /** {@return the events, for work that needs the device open (what works after close uses the field)} */
    private ClEvents events() {
        checkOpen();
        return events;
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException(this + " is closed");
        }
    }
}
