package dev.quiver.device.opencl;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * The events one {@link OpenClDevice} made ({@link #createUserEvent}: user events, each recorded at most once;
 * {@link #recordNew}: markers, recorded as they are made; both owned by the caller until {@link #destroy})
 * and the events it adopted ({@link #adopt}: {@code cl_event}s made outside Quiver, retained while adopted,
 * until {@link #forget}). Events borrowed from a foreign array's {@code sync_event} are in neither set; the
 * device waits on them all the same. Thread-safe: the map and
 * set are concurrent and OpenCL calls are thread-safe.
 */
final class ClEvents {
    private final OpenCl cl;
    private final String deviceName;
    private final MemorySegment context;
    /** Events made by {@link #createUserEvent} and {@link #recordNew}, with their recording. */
    private final Map<Long, Recording> created = new ConcurrentHashMap<>();
    private final AdoptedHandles adopted;

    /**
     * @param cl         the library
     * @param deviceName the device's name, for messages
     * @param context    the device's context
     */
    ClEvents(OpenCl cl, String deviceName, MemorySegment context) {
        this.cl = cl;
        this.deviceName = deviceName;
        this.context = context;
        this.adopted = new AdoptedHandles("cl_event", deviceName);
    }

    /** @return a new user event of the context, owned by the caller */
    MemorySegment createUserEvent() {
        MemorySegment event = cl.createUserEvent(context);
        created.put(event.address(), new Recording());
        return event;
    }

    /**
     * Enqueues a marker on {@code queue}, flushes the queue, and returns the marker's event as an event made
     * here and already recorded: it completes when the work enqueued before it does, and the device waits for
     * it directly, with no user event and no completion callback in between.
     *
     * @param queue a queue of the device
     * @return the marker's {@code cl_event}, owned by the caller until {@link #destroy}
     */
    MemorySegment recordNew(MemorySegment queue) {
        MemorySegment marker = cl.enqueueMarker(queue);
        created.put(marker.address(), Recording.OF_MARKER);
        try {
            cl.flush(queue);
        } catch (RuntimeException e) {
            created.remove(marker.address());
            cl.releaseEvent(marker);
            throw e;
        }
        return marker;
    }

    /**
     * Enqueues a marker on {@code queue}, makes {@code event} complete when it does, and flushes the queue.
     * Keeps a reference to the marker until {@link #destroy}, so that this device waits for and queries the
     * marker itself ({@link #completion}) rather than the user event its completion callback sets a moment
     * later.
     *
     * @param event an event from {@link #createUserEvent}, never recorded
     * @param queue a queue of the device
     * @throws IllegalArgumentException if {@code event} is adopted, or not made by {@link #createUserEvent}
     * @throws IllegalStateException    if {@code event} was recorded before
     */
    void record(MemorySegment event, MemorySegment queue) {
        Recording recording = created.get(event.address());
        if (recording == null) {
            throw new IllegalArgumentException(adopted.contains(event)
                    ? Hex.of(event) + " is an adopted cl_event: an OpenCL event is the completion of one command and"
                      + " completes once, so it cannot be recorded; record an event from createEvent instead"
                    : Hex.of(event) + " is not an event made by createEvent of " + deviceName
                      + "; OpenCL events made by other code are complete-once commands and cannot be recorded");
        }
        if (!recording.recorded.compareAndSet(false, true)) {
            throw new IllegalStateException(Hex.of(event) + " was already recorded: an OpenCL event completes once,"
                    + " so create a new event for each record");
        }
        MemorySegment marker;
        try {
            marker = cl.enqueueMarker(queue);
        } catch (RuntimeException e) {
            recording.recorded.set(false);
            throw e;
        }
        try {
            cl.retainEvent(marker);
        } catch (RuntimeException e) {
            cl.releaseEvent(marker);
            recording.recorded.set(false);
            throw e;
        }
        try {
            cl.forwarding().forward(marker, event);
        } catch (RuntimeException e) {
            cl.releaseEvent(marker);
            recording.recorded.set(false);
            throw e;
        }
        recording.marker = marker;
        cl.flush(queue);
    }

    /**
     * {@code clWaitForEvents} on what completes with the event (see {@link #completion}).
     *
     * @param event any event handle this device accepts
     * @throws IllegalStateException if the event was made here and never recorded (it would never complete)
     * @throws OpenClException       with {@code CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST} if its work failed
     */
    void waitFor(MemorySegment event) {
        requireRecorded(event);
        cl.waitForEvent(completion(event));
    }

    /**
     * {@code clEnqueueBarrierWithWaitList} on {@code queue}, waiting for what completes with the event.
     *
     * @param queue a queue of the device
     * @param event any event handle this device accepts
     * @throws IllegalStateException if the event was made here and never recorded (it would never complete)
     */
    void enqueueWait(MemorySegment queue, MemorySegment event) {
        requireRecorded(event);
        cl.enqueueBarrier(queue, completion(event));
    }

    /**
     * @param event any event handle this device accepts
     * @return whether {@code CL_EVENT_COMMAND_EXECUTION_STATUS} of what completes with it is {@code CL_COMPLETE}
     * @throws OpenClException naming the error status if the event's work terminated abnormally
     */
    boolean hasCompleted(MemorySegment event) {
        int status = cl.eventStatus(completion(event));
        if (status < 0) {
            throw new OpenClException("clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)", status,
                    "the event's commands terminated abnormally with this status");
        }
        return status == ClConstants.CL_COMPLETE;
    }

    /**
     * @param syncEvent the {@code sync_event} of an OPENCL array: a {@code cl_event*}
     * @return the {@code cl_event} it points to, borrowed from the array's producer
     * @throws IllegalArgumentException if the pointer, or the event it points to, is NULL
     */
    static MemorySegment fromSyncEvent(MemorySegment syncEvent) {
        if (syncEvent.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("sync_event is NULL");
        }
        MemorySegment event = syncEvent.reinterpret(ADDRESS.byteSize()).get(ADDRESS, 0);
        if (event.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("sync_event " + Hex.of(syncEvent) + " points to a NULL cl_event");
        }
        return event;
    }

    /**
     * @param event any event handle this device accepts
     * @return what completes with it: the marker of an event made here and recorded, else the event itself
     */
    private MemorySegment completion(MemorySegment event) {
        Recording recording = created.get(event.address());
        return recording == null ? event : recording.marker == null ? event : recording.marker;
    }

    /**
     * @param event any event handle
     * @throws IllegalStateException if it was made by {@link #createUserEvent} and never recorded (it would never complete)
     */
    private void requireRecorded(MemorySegment event) {
        Recording recording = created.get(event.address());
        if (recording != null && !recording.recorded.get()) {
            throw new IllegalStateException(Hex.of(event) + " was never recorded: waiting for it would never end");
        }
    }

    /**
     * {@code clReleaseEvent} on an event from {@link #createUserEvent}.
     *
     * @throws IllegalArgumentException if it is not a live event from {@link #createUserEvent}
     */
    void destroy(MemorySegment event) {
        Recording recording = created.remove(event.address());
        if (recording == null) {
            throw new IllegalArgumentException(Hex.of(event) + " is not a live event made by createEvent of " + deviceName
                    + (adopted.contains(event) ? " (it is adopted: forget it with forgetEvent)" : ""));
        }
        MemorySegment marker = recording.marker;
        int released = cl.releaseEvent(event);
        if (marker != null) {
            OpenClException.check(cl.releaseEvent(marker), "clReleaseEvent(marker)");
        }
        OpenClException.check(released, "clReleaseEvent");
    }

    /**
     * Validates an event made outside Quiver ({@code CL_EVENT_CONTEXT} must be the device's context) and
     * retains it ({@code clRetainEvent}).
     *
     * @param event a {@code cl_event}
     * @return the event handle (the event's address)
     * @throws IllegalArgumentException if the event is NULL or of another context; nothing is retained then.
     *                                  An event of {@code createEvent} may be adopted too: the adoption holds
     *                                  its own reference.
     */
    MemorySegment adopt(MemorySegment event) {
        return adopted.adopt(event, handle -> {
            requireContext(handle);
            cl.retainEvent(handle);
        });
    }

    /**
     * Undoes {@link #adopt}: releases the reference it took and, with {@code destroy}, the caller's too.
     *
     * @throws IllegalArgumentException if {@code event} is not an adopted event
     */
    void forget(MemorySegment event, boolean destroy) {
        MemorySegment handle = adopted.forget(event, "events from createEvent are destroyed with destroyEvent");
        OpenClException.check(cl.releaseEvent(handle), "clReleaseEvent");
        if (destroy) {
            OpenClException.check(cl.releaseEvent(handle), "clReleaseEvent");
        }
    }

    private void requireContext(MemorySegment event) {
        MemorySegment eventContext;
        try {
            eventContext = ClInfo.handle(cl.info(ClFunction.clGetEventInfo), event, ClConstants.CL_EVENT_CONTEXT,
                    "clGetEventInfo(CL_EVENT_CONTEXT)");
        } catch (OpenClException e) {
            throw new IllegalArgumentException(Hex.of(event) + " is not an event OpenCL accepts: " + e.getMessage(), e);
        }
        if (eventContext.address() != context.address()) {
            throw new IllegalArgumentException("event " + Hex.of(event) + " belongs to context " + Hex.of(eventContext)
                    + ", not to " + Hex.of(context) + " of " + deviceName);
        }
    }

    /**
     * Whether an event made by {@link #createUserEvent} was recorded, and the marker it follows once it was; for a
     * marker from {@link #recordNew}, the one shared {@link #OF_MARKER}, recorded and following nothing.
     */
    private static final class Recording {
        /** The recording of every event from {@link #recordNew}: never changes, since they cannot be recorded again. */
        static final Recording OF_MARKER = new Recording(true);

        Recording() {
            this(false);
        }

        private Recording(boolean recorded) {
            this.recorded.set(recorded);
        }

        final AtomicBoolean recorded = new AtomicBoolean();
        /** The marker, retained until the event is destroyed; null until recorded. */
        volatile MemorySegment marker;
    }
}
