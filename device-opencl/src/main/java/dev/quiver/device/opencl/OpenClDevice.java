package dev.quiver.device.opencl;

import dev.quiver.device.ffm.MemoryKind;
import dev.quiver.device.ffm.VendorDevice;
import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * One OpenCL device with a context and a default in-order command queue.
 *
 * <p><b>Identity.</b> The device id is the device's index over all platforms' devices, in the order the ICD
 * loader lists them; the total memory is {@code CL_DEVICE_GLOBAL_MEM_SIZE}. The device is not host
 * accessible: {@code cl_mem} handles are not host addresses, whatever memory backs them.
 *
 * <p><b>Handles.</b> Device pointers are {@code cl_mem} buffer handles (never addresses; offsets travel
 * beside them), read-write, at least one byte, aligned to {@code CL_DEVICE_MEM_BASE_ADDR_ALIGN}, the
 * largest alignment {@link #allocate} accepts. Streams are {@code cl_command_queue}s: {@link #defaultStream()} is the device's queue and
 * {@link MemorySegment#NULL} means the same; {@link #createStream()} makes another in-order queue on the same
 * context. Events are {@code cl_event}s of the device's context (see the package documentation for how
 * {@link #createEvent()} and {@link #recordEvent} map onto OpenCL markers).
 *
 * <p><b>Ownership.</b> Devices from {@link OpenClProvider} belong to the provider and live as long as the
 * process; closing them does nothing. Devices from {@link OpenClDevices#adopt} hold one reference to the
 * application's context and queue, and belong to the caller, who closes them once, from any thread, after
 * the work enqueued through them is complete: {@link #close()} releases those two references. After close,
 * only {@link #free}, {@link #destroyStream} and {@link #destroyEvent} still work, so that what was made
 * through the device can still be released; every other method throws {@link IllegalStateException}.
 *
 * <p><b>Threading.</b> All methods may be called from any thread, concurrently; OpenCL calls are
 * thread-safe. Copies are non-blocking: host memory given to them must stay valid until the queue is
 * synchronized.
 */
public final class OpenClDevice extends VendorDevice implements AutoCloseable {
    /** {@code cl_mem} handles are not host addresses, whatever memory backs them. */
    private static final MemoryKind MEMORY = new MemoryKind(DeviceTypeCodes.OPENCL, "OPENCL", false, "clCreateBuffer");

    private final OpenCl cl;
    private final ClDeviceInfo info;
    private final MemorySegment context;
    private final MemorySegment queue;
    private final boolean adopted;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Set<Long> streams = ConcurrentHashMap.newKeySet();
    /** Events made by {@link #createEvent()}, with whether they were recorded. */
    private final Map<Long, AtomicBoolean> events = new ConcurrentHashMap<>();

    OpenClDevice(OpenCl cl, ClDeviceInfo info, MemorySegment context, MemorySegment queue, boolean adopted) {
        super(MEMORY, info.id(), info.displayName(), info.globalMemory(), info.baseAlignment(), "OpenCL");
        this.cl = cl;
        this.info = info;
        this.context = context;
        this.queue = queue;
        this.adopted = adopted;
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

    /** @return the {@code cl_context}, borrowed: valid while this device is open */
    public MemorySegment context() {
        checkOpen();
        return context;
    }

    /** @return the {@code cl_device_id}, borrowed */
    public MemorySegment clDevice() {
        return info.device();
    }

    /** @return the {@code cl_platform_id}, borrowed */
    public MemorySegment platform() {
        return info.platform();
    }

    /** @return true if this device wraps an application's context and queue (see {@link OpenClDevices#adopt}) */
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
     * @throws IllegalStateException if this adopted device is closed
     * @throws OpenClException       if OpenCL refuses, for example {@code CL_INVALID_BUFFER_SIZE} above
     *                               {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE}
     */
    @Override
    protected MemorySegment allocateNative(long byteSize) {
        checkOpen();
        return cl.createBuffer(context, byteSize);
    }

    /** Releases a buffer; OpenCL frees it once enqueued work using it is done. Works after close. */
    @Override
    protected void freeNative(MemorySegment pointer) {
        cl.releaseMemObject(pointer);
    }

    // ---- copies -------------------------------------------------------------------------------

    /** Enqueues {@code clEnqueueWriteBuffer} (non-blocking) at {@code destinationOffset} of the {@code cl_mem}. */
    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        MemorySegment target = queueOf(stream);
        requireHost(source, "source");
        requireOffset(destinationOffset);
        if (source.byteSize() > 0) {
            cl.enqueueWrite(target, destination, destinationOffset, source);
        }
    }

    /** Enqueues {@code clEnqueueReadBuffer} (non-blocking) from {@code sourceOffset} of the {@code cl_mem}. */
    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        MemorySegment target = queueOf(stream);
        requireHost(destination, "destination");
        if (destination.isReadOnly()) {
            throw new IllegalArgumentException("destination is read-only");
        }
        requireOffset(sourceOffset);
        if (destination.byteSize() > 0) {
            cl.enqueueRead(target, source, sourceOffset, destination);
        }
    }

    /** Enqueues {@code clEnqueueCopyBuffer} between two {@code cl_mem}s of this device's context. */
    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        MemorySegment target = queueOf(stream);
        requireOffset(sourceOffset);
        requireOffset(destinationOffset);
        if (byteCount < 0) {
            throw new IllegalArgumentException("byteCount is negative: " + byteCount);
        }
        if (byteCount > 0) {
            cl.enqueueCopy(target, source, sourceOffset, destination, destinationOffset, byteCount);
        }
    }

    // ---- streams ------------------------------------------------------------------------------

    /** @return the device's default {@code cl_command_queue}, borrowed */
    @Override
    public MemorySegment defaultStream() {
        checkOpen();
        return queue;
    }

    /** @return a new in-order {@code cl_command_queue} on this device's context, owned by the caller */
    @Override
    public MemorySegment createStream() {
        checkOpen();
        MemorySegment created = cl.createQueue(context, info.device(), info.hasQueueProperties());
        streams.add(created.address());
        return created;
    }

    /** {@code clFinish} on the queue. */
    @Override
    public void synchronizeStream(MemorySegment stream) {
        cl.finish(queueOf(stream));
    }

    /** {@code clFinish}, then {@code clReleaseCommandQueue}, on a queue from {@link #createStream()}. */
    @Override
    public void destroyStream(MemorySegment stream) {
        if (!streams.remove(stream.address())) {
            throw new IllegalArgumentException(hex(stream) + " is not a command queue made by createStream of "
                    + name() + " (the default queue is borrowed and never destroyed)");
        }
        MemorySegment owned = MemorySegment.ofAddress(stream.address());
        try {
            cl.finish(owned);
        } finally {
            cl.releaseQueue(owned);
        }
    }

    // ---- events -------------------------------------------------------------------------------

    /** @return true */
    @Override
    public boolean supportsEvents() {
        return true;
    }

    /**
     * @return a new {@code cl_event} (a user event of this device's context) that completes once the
     *         marker of {@link #recordEvent} does; owned by the caller, released with {@link #destroyEvent}
     */
    @Override
    public MemorySegment createEvent() {
        checkOpen();
        MemorySegment event = cl.createUserEvent(context);
        events.put(event.address(), new AtomicBoolean());
        return event;
    }

    /**
     * Enqueues a marker ({@code clEnqueueMarkerWithWaitList}) on the queue and makes {@code event} complete
     * when it does, then flushes the queue so the marker is submitted. An OpenCL event completes once, so
     * each event is recorded at most once.
     *
     * @throws IllegalArgumentException if {@code event} was not made by {@link #createEvent()} of this device
     * @throws IllegalStateException    if {@code event} was recorded before
     */
    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        checkOpen();
        MemorySegment target = queueOf(stream);
        AtomicBoolean recorded = events.get(event.address());
        if (recorded == null) {
            throw new IllegalArgumentException(hex(event) + " is not an event made by createEvent of " + name()
                    + "; OpenCL events made by other code are complete-once commands and cannot be recorded");
        }
        if (!recorded.compareAndSet(false, true)) {
            throw new IllegalStateException(hex(event) + " was already recorded: an OpenCL event completes once,"
                    + " so create a new event for each record");
        }
        try {
            MemorySegment marker = cl.enqueueMarker(target);
            cl.forwarding().forward(marker, event);
        } catch (RuntimeException e) {
            recorded.set(false);
            throw e;
        }
        cl.flush(target);
    }

    /**
     * {@code clWaitForEvents} on the event.
     *
     * @throws IllegalStateException if the event was made here and never recorded (it would never complete)
     * @throws OpenClException       with {@code CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST} if its work failed
     */
    @Override
    public void waitEvent(MemorySegment event) {
        requireRecorded(event);
        cl.waitForEvent(event);
    }

    /** {@code clEnqueueBarrierWithWaitList} on the queue, waiting for the event. */
    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        MemorySegment target = queueOf(stream);
        requireRecorded(event);
        cl.enqueueBarrier(target, event);
    }

    /**
     * @return whether {@code CL_EVENT_COMMAND_EXECUTION_STATUS} is {@code CL_COMPLETE}
     * @throws OpenClException naming the error status if the event's work terminated abnormally
     */
    @Override
    public boolean isEventComplete(MemorySegment event) {
        int status = cl.eventStatus(event);
        if (status < 0) {
            throw new OpenClException("clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)", status,
                    "the event's commands terminated abnormally with this status");
        }
        return status == ClConstants.CL_COMPLETE;
    }

    /** {@code clReleaseEvent} on an event from {@link #createEvent()}. */
    @Override
    public void destroyEvent(MemorySegment event) {
        if (events.remove(event.address()) == null) {
            throw new IllegalArgumentException(hex(event) + " is not a live event made by createEvent of " + name());
        }
        OpenClException.check(cl.releaseEvent(event), "clReleaseEvent");
    }

    /**
     * @param syncEvent the {@code sync_event} of an OPENCL array: a {@code cl_event*}
     * @return the {@code cl_event} it points to, borrowed from the array's producer
     */
    @Override
    public MemorySegment eventFromSyncEvent(MemorySegment syncEvent) {
        if (syncEvent.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("sync_event is NULL");
        }
        MemorySegment event = syncEvent.reinterpret(ADDRESS.byteSize()).get(ADDRESS, 0);
        if (event.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("sync_event " + hex(syncEvent) + " points to a NULL cl_event");
        }
        return event;
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
                cl.releaseQueue(queue);
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
        checkOpen();
        if (stream.equals(MemorySegment.NULL) || stream.address() == queue.address()) {
            return queue;
        }
        if (!streams.contains(stream.address())) {
            throw new IllegalArgumentException(hex(stream) + " is not a command queue of " + name()
                    + " (use its default queue, NULL, or one from createStream)");
        }
        return MemorySegment.ofAddress(stream.address());
    }

    private void requireRecorded(MemorySegment event) {
        AtomicBoolean recorded = events.get(event.address());
        if (recorded != null && !recorded.get()) {
            throw new IllegalStateException(hex(event) + " was never recorded: waiting for it would never end");
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    private static void requireHost(MemorySegment memory, String what) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException(what + " must be native host memory, not a heap segment");
        }
    }

    private static void requireOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset is negative: " + offset);
        }
    }

    private static String hex(MemorySegment handle) {
        return "0x" + Long.toHexString(handle.address());
    }
}
