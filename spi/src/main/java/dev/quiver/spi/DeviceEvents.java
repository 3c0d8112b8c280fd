package dev.quiver.spi;

import java.lang.foreign.MemorySegment;

/**
 * A device capability: events the device makes and records on its streams ({@code CUevent},
 * {@code hipEvent_t}, {@code cl_event}, {@code VkEvent}, ...), and waits on as {@link EventWaits} says. Found
 * with {@code device.capability(DeviceEvents.class)}; a device that offers it answers
 * {@code capability(EventWaits.class)} with the same object. Arrays of a device without it carry no
 * {@code sync_event}, and its copies complete before they return.
 *
 * <p><b>Ownership.</b> What {@link #createEvent} and {@link #recordNewEvent} return is owned by the caller, who
 * releases it exactly once with {@link #destroyEvent}, after the last wait on it was enqueued. An adopted event
 * ({@link #adoptEvent}) stays the caller's native object until {@link #forgetEvent} with {@code destroy} true.
 *
 * <p><b>Threading.</b> All methods may be called from any thread, concurrently. Quiver never records one event
 * from two threads at once, but a backend must not corrupt state if an application does.
 */
public interface DeviceEvents extends EventWaits {

    /**
     * {@return a new event handle (for example a {@code CUevent}), owned by the caller, released with
     * {@link #destroyEvent}}
     */
    MemorySegment createEvent();

    /**
     * Records {@code event} on {@code stream}: it completes when the work enqueued so far does.
     *
     * @param event  an event handle
     * @param stream a stream of this device
     */
    void recordEvent(MemorySegment event, MemorySegment stream);

    /**
     * Makes a new event and records it on {@code stream}, in one call: what {@link #createEvent} followed by
     * {@link #recordEvent} gives. A backend whose vendor API makes an event by enqueueing it (an OpenCL
     * marker) overrides this to return that event itself; the default makes exactly those two calls and
     * destroys the event if recording fails.
     *
     * @param stream a stream of this device
     * @return a new event, recorded, owned by the caller, released with {@link #destroyEvent}
     */
    default MemorySegment recordNewEvent(MemorySegment stream) {
        return recordOrDestroy(createEvent(), stream);
    }

    /**
     * Records {@code event}, a new event of this device, on {@code stream}, and destroys it if recording fails: the
     * second half of {@link #recordNewEvent}, for a backend that makes its events some other way (for sharing).
     *
     * @param event  a new event of this device, owned by the caller
     * @param stream a stream of this device
     * @return {@code event}, recorded, still the caller's; destroyed (and the failure thrown) if recording failed
     */
    default MemorySegment recordOrDestroy(MemorySegment event, MemorySegment stream) {
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

    /**
     * Destroys an event made by {@link #createEvent} or {@link #recordNewEvent} (or opened from another
     * process's handle, see {@link IpcEvents}), exactly once.
     *
     * @param event the event handle
     */
    void destroyEvent(MemorySegment event);

    /**
     * Accepts an event of this device that was made outside Quiver (a {@code CUevent}, a {@code cl_event},
     * ...) so that {@link #waitEvent}, {@link #streamWaitEvent}, {@link #isEventComplete} and, where the
     * vendor API allows recording an existing event, {@link #recordEvent} accept the handle this returns. The
     * native object stays the caller's until {@link #forgetEvent} with {@code destroy} true.
     *
     * @param nativeEvent the vendor API's event handle, of this device
     * @return the event handle to pass to this device's methods (the default returns {@code nativeEvent})
     * @throws IllegalArgumentException if the handle is not an event of this device, where the backend can tell
     */
    default MemorySegment adoptEvent(MemorySegment nativeEvent) {
        return nativeEvent;
    }

    /**
     * Undoes {@link #adoptEvent}. With {@code destroy} true the native event is also released, as the vendor
     * API releases it (the default: {@link #destroyEvent}).
     *
     * @param event   what {@link #adoptEvent} returned
     * @param destroy whether to release the native event too
     */
    default void forgetEvent(MemorySegment event, boolean destroy) {
        if (destroy) {
            destroyEvent(event);
        }
    }
}
