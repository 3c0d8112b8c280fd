package dev.quiver.spi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A device capability: waiting for events, the device's own or a foreign producer's (the {@code sync_event}
 * of an imported array). Found with {@code device.capability(EventWaits.class)}. A device that also makes
 * events offers {@link DeviceEvents}, which extends this; a device that only honours a producer's events (a
 * {@code sycl::event*} on Level Zero, say) offers this alone, and its arrays carry no {@code sync_event}.
 *
 * <p><b>Ownership.</b> These methods take events and release none. Handles from {@link #eventFromSyncEvent}
 * are borrowed: they stay owned by the foreign producer and are valid until its array is released.
 *
 * <p><b>Threading.</b> All methods may be called from any thread, concurrently; an event may be waited on
 * from several threads at once.
 */
public interface EventWaits extends DeviceCapability {

    /**
     * Turns the {@code sync_event} field of a foreign ArrowDeviceArray (a pointer to the event, for example
     * a {@code cl_event*}) into an event handle the methods here accept. The handle is borrowed: it stays
     * owned by the producer and is valid until the array is released. The default reads one pointer-sized
     * handle at {@code syncEvent}.
     *
     * @param syncEvent the non-null {@code sync_event} pointer
     * @return the borrowed event handle
     */
    default MemorySegment eventFromSyncEvent(MemorySegment syncEvent) {
        return syncEvent.reinterpret(ValueLayout.ADDRESS.byteSize()).get(ValueLayout.ADDRESS, 0);
    }

    /**
     * Blocks the calling thread until {@code event} completes.
     *
     * @param event an event handle, owned or borrowed
     */
    void waitEvent(MemorySegment event);

    /**
     * Makes future work on {@code stream} wait for {@code event}, without blocking the host (a device that
     * cannot make a stream wait may wait on the host instead).
     *
     * @param stream a stream of this device
     * @param event  an event handle, owned or borrowed
     */
    void streamWaitEvent(MemorySegment stream, MemorySegment event);

    /**
     * {@return true if the event has completed; never blocks}
     * @param event an event handle, owned or borrowed
     */
    boolean isEventComplete(MemorySegment event);
}
