package dev.quiver.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One array of a stream: pulled from a producer's {@code get_next} and imported, delivered by an async
 * producer and imported, or handed out by a stream Java exports. Started and finished by one thread.
 */
@Name("dev.quiver.StreamBatch")
@Label("Stream Batch")
@Description("One array of an ArrowDeviceArrayStream or async device stream, imported or exported")
@StackTrace(false)
public final class StreamBatchEvent extends ArrayEvent {
    private static final StreamBatchEvent PROBE = new StreamBatchEvent();

    @Label("Stream")
    @Description("pull import, async import, pull export or async export")
    String stream;

    @Label("Index")
    @Description("Position of the array in its stream, from 0; -1 where the stream does not count")
    long index;

    /** @return a begun event, or null (nothing allocated) when no recording wants this event */
    static StreamBatchEvent start() {
        return PROBE.isEnabled() ? begun(new StreamBatchEvent()) : null;
    }

    /**
     * Ends the event and commits it with these values.
     *
     * @param stream what kind of stream: {@code pull import}, {@code async import}, {@code pull export} or
     *               {@code async export}
     * @param index  the array's position in the stream, or -1
     * @param device device type and id, for example {@code CUDA:0}
     * @param field  the field name
     * @param length the array's length
     */
    public void finish(String stream, long index, String device, String field, long length) {
        this.stream = stream;
        this.index = index;
        finish(device, field, length);
    }
}
