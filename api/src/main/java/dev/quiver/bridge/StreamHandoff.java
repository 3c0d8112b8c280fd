package dev.quiver.bridge;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.MemorySegment;

/**
 * Hands an array's pending work from the producer's stream to the consumer's, for the protocol packages: DLPack
 * export with the array API's {@code stream} argument, and CUDA Array Interface import with a consumer stream.
 * Stateless; safe from any thread, as far as the backend's stream and event calls are.
 */
public final class StreamHandoff {
    private StreamHandoff() {}

    /**
     * Makes {@code consumerStream} wait for the array's pending work. If the array carries a sync event, the
     * consumer's stream waits on it. Otherwise an event is recorded on {@code producerStream} (the stream the
     * array's data was produced on), the consumer's stream waits on it, and the event is destroyed (the wait
     * stays in force). A backend without events synchronises {@code producerStream} on the host instead.
     * Nothing is left for the caller to release.
     *
     * @param device         the backend of the array's device
     * @param producerStream the producer's stream (NULL: the backend's default stream)
     * @param syncEvent      the array's {@code sync_event} pointer, or NULL when it has none
     * @param consumerStream the consumer's stream, as {@code dev.quiver.dlpack.ArrayApiStream.consumerStream}
     *                       or the caller's options name it
     */
    public static void makeWait(BackendDevice device, MemorySegment producerStream, MemorySegment syncEvent,
                                MemorySegment consumerStream) {
        DeviceEvents events = device.capability(DeviceEvents.class).orElse(null);
        if (events == null) {
            device.synchronizeStream(producerStream);
            return;
        }
        if (!syncEvent.equals(MemorySegment.NULL)) {
            events.streamWaitEvent(consumerStream, events.eventFromSyncEvent(syncEvent));
            return;
        }
        MemorySegment event = events.recordNewEvent(producerStream);
        try {
            events.streamWaitEvent(consumerStream, event);
        } finally {
            events.destroyEvent(event);
        }
    }
}
