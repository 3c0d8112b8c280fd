package dev.quiver.device.ffm;

import java.lang.foreign.MemorySegment;

/**
 * The stream and event entry points of a driver API whose streams and events are opaque handles, made and
 * used by calls of one shape, with the flags they are made with: CUDA's driver API ({@code cuStreamCreate},
 * {@code cuEventRecord}, ...) and HIP ({@code hipStreamCreateWithFlags}, {@code hipEventRecord}, ...). Each
 * method is the bare call on the calling thread; the caller makes the device's context current where the
 * driver needs one ({@link DriverDevice} does). Immutable and thread-safe.
 *
 * @param api               the bound entry points
 * @param streamCreate      {@code (stream *, unsigned int flags)}
 * @param streamFlags       the flags new streams are made with
 * @param streamSynchronize {@code (stream)}
 * @param streamDestroy     {@code (stream)}
 * @param streamWaitEvent   {@code (stream, event, unsigned int flags)}, called with flags 0
 * @param eventCreate       {@code (event *, unsigned int flags)}
 * @param eventFlags        the flags the device's own events are made with (no timing)
 * @param eventRecord       {@code (event, stream)}
 * @param eventSynchronize  {@code (event)}
 * @param eventQuery        {@code (event)}
 * @param eventDestroy      {@code (event)}
 * @param notReady          the result of {@code eventQuery} for an event that has not completed
 * @param <F>               the backend's table of entry points
 */
public record StreamEventCalls<F extends Enum<F>>(Bindings<F> api, F streamCreate, int streamFlags, F streamSynchronize,
                                                  F streamDestroy, F streamWaitEvent, F eventCreate, int eventFlags,
                                                  F eventRecord, F eventSynchronize, F eventQuery, F eventDestroy,
                                                  int notReady) {

    /** {@return a new stream, owned by the caller} */
    public MemorySegment createStream() {
        return api.handleOut(streamCreate, (h, out) -> (int) h.invokeExact(out, streamFlags));
    }

    /** Waits on the host for the work enqueued on {@code stream}. */
    public void synchronizeStream(MemorySegment stream) {
        api.check(streamSynchronize, h -> (int) h.invokeExact(stream));
    }

    /** Destroys a stream {@link #createStream()} made. */
    public void destroyStream(MemorySegment stream) {
        api.check(streamDestroy, h -> (int) h.invokeExact(stream));
    }

    /** Makes the work enqueued later on {@code stream} wait for {@code event}. */
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        api.check(streamWaitEvent, h -> (int) h.invokeExact(stream, event, 0));
    }

    /** {@return a new event made with {@link #eventFlags()}, owned by the caller} */
    public MemorySegment createEvent() {
        return createEvent(eventFlags);
    }

    /**
     * @param flags the driver's event flags, for example an inter-process event's
     * @return a new event, owned by the caller
     */
    public MemorySegment createEvent(int flags) {
        return api.handleOut(eventCreate, (h, out) -> (int) h.invokeExact(out, flags));
    }

    /** Records {@code event} on {@code stream}. */
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        api.check(eventRecord, h -> (int) h.invokeExact(event, stream));
    }

    /** {@return the result of waiting on the host for {@code event}, unchecked} */
    public int synchronizeEvent(MemorySegment event) {
        return api.result(eventSynchronize, h -> (int) h.invokeExact(event));
    }

    /** {@return the result of querying {@code event}, unchecked} */
    public int queryEvent(MemorySegment event) {
        return api.result(eventQuery, h -> (int) h.invokeExact(event));
    }

    /**
     * @param result what {@link #queryEvent} returned
     * @return true if the event completed, false if it has not yet
     * @throws RuntimeException the backend's exception for any other result
     */
    public boolean completed(int result) {
        if (result == api.success()) {
            return true;
        }
        if (result == notReady) {
            return false;
        }
        throw api.failure(eventQuery, result);
    }

    /** Destroys an event for real. */
    public void destroyEvent(MemorySegment event) {
        api.check(eventDestroy, h -> (int) h.invokeExact(event));
    }
}
