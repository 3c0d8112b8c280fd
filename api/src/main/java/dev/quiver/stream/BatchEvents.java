package dev.quiver.stream;

import dev.quiver.DeviceArray;
import dev.quiver.internal.events.StreamBatchEvent;

/**
 * Finishes {@link StreamBatchEvent}s with what a batch held. Callers start the event with
 * {@link dev.quiver.internal.events.Recorder#streamBatch()} and pass it here, null included (no recording wants it: nothing
 * happens). Stateless; safe from any thread.
 */
final class BatchEvents {
    /** An array pulled from a producer's {@code get_next}. */
    static final String PULL_IMPORT = "pull import";
    /** An array an async producer delivered. */
    static final String ASYNC_IMPORT = "async import";
    /** An array handed to a consumer's {@code get_next}. */
    static final String PULL_EXPORT = "pull export";
    /** An array handed to an async consumer's {@code extract_data}. */
    static final String ASYNC_EXPORT = "async export";

    private BatchEvents() {}

    /**
     * @param event  the started event, or null
     * @param stream what kind of stream, one of the constants above
     * @param index  the array's position in the stream, or -1
     * @param array  the array, open
     * @return {@code array}
     */
    static DeviceArray imported(StreamBatchEvent event, String stream, long index, DeviceArray array) {
        if (event != null) {
            event.finish(stream, index, array.deviceType() + ":" + array.deviceId(), array.field().name(), array.length());
        }
        return array;
    }

    /**
     * @param event  the started event, or null
     * @param stream what kind of stream, one of the constants above
     * @param index  the array's position in the stream, or -1
     * @param array  the array, already moved out
     * @param length its length, read before it was moved out
     */
    static void exported(StreamBatchEvent event, String stream, long index, DeviceArray array, long length) {
        if (event != null) {
            event.finish(stream, index, array.deviceType() + ":" + array.deviceId(), array.field().name(), length);
        }
    }
}
